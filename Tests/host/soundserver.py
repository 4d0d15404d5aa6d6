"""A private PulseAudio for the host tests: null sinks to play into, monitors to record.

`SoundServer` starts `pulseaudio -n -F Tests/host/pulse.pa --daemonize=no --exit-idle-time=-1`
with `XDG_RUNTIME_DIR`, `HOME` and `PULSE_RUNTIME_PATH` in a temporary folder of its own, so it
never meets the desktop's sound server (or another test's), and waits until `pactl info`
answers on its socket. Children reach it through `sound.env` (`PULSE_SERVER=unix:…/native`).

- `record(sink)` records a sink's monitor with `parec` (s16le mono) and knows when each sample
  was played on the monotonic clock (see `Recording`);
- `unplug(sink)` / `plug(sink, description)` unload and load the sink's `module-null-sink`:
  a device going away for real, as far as every client of the sound server can tell;
- `stalls()` / `stall_note()`: when the machine froze (a watchdog thread, and recordings that
  arrived late). A freeze is heard as a dropout whatever Earshot does, so failure messages name
  any that overlapped the measurement;
- `stop()` ends every process it started and removes the folder; the `sound` fixture calls it
  even when the test fails.

pulseaudio warns when it runs as root (as in the CI container) and works all the same.
"""

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from array import array
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "pulse.pa"
START_TIMEOUT = 10
RATE = 44100
STALL = 0.1  # a freeze longer than this is reported next to any failure it may explain


class SoundServerError(RuntimeError):
    pass


class SoundServer:
    """One private PulseAudio. `start()` it, use it, `stop()` it (idempotent)."""

    def __init__(self, script=SCRIPT):
        self.script = Path(script)
        self.root = Path(tempfile.mkdtemp(prefix="earshot-pulse-"))
        self.runtime = self.root / "runtime"
        self.home = self.root / "home"
        self.socket_path = self.runtime / "native"
        self.log_path = self.root / "pulseaudio.log"
        self.process = None
        self.recordings = []
        self._stopped = []
        self._log = None
        self._stalls = []
        self._watching = threading.Event()

    # -- lifetime -----------------------------------------------------------------------------

    @property
    def env(self):
        """What a child needs in its environment to play into this server (and nowhere else)."""
        return {"PULSE_SERVER": f"unix:{self.socket_path}"}

    def _own_env(self):
        env = dict(os.environ)
        env.update(XDG_RUNTIME_DIR=str(self.runtime), HOME=str(self.home),
                   PULSE_RUNTIME_PATH=str(self.runtime), **self.env)
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)  # no desktop bus: nothing to announce itself on
        return env

    def start(self):
        self._watching.set()
        threading.Thread(target=self._watch_for_stalls, daemon=True).start()
        for folder in (self.runtime, self.home):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            ["pulseaudio", "-n", "-F", str(self.script), "--daemonize=no", "--exit-idle-time=-1",
             "--use-pid-file=no", "--realtime=no", "--high-priority=no", "--log-target=stderr"],
            env=self._own_env(), cwd=self.root, stdin=subprocess.DEVNULL,
            stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SoundServerError(f"pulseaudio exited with {self.process.returncode}:\n{self.log()}")
            if self.socket_path.exists():
                done = self._run(["pactl", "info"], check=False)
                if done.returncode == 0:
                    return self
            time.sleep(0.05)
        raise SoundServerError(f"pulseaudio did not answer `pactl info` within {START_TIMEOUT} s:\n{self.log()}")

    def _watch_for_stalls(self):
        """Sleeps 10 ms at a time and notes every wake-up more than STALL late: the machine (or
        this process) was frozen then, and so, most likely, was the sound (a null sink catches
        up on its clock after a freeze, and what mpv had not written by then is silence)."""
        last = time.monotonic()
        while self._watching.is_set():
            time.sleep(0.01)
            now = time.monotonic()
            if now - last > 0.01 + STALL:
                self._stalls.append((last, now - last))
            last = now

    def stalls(self, after=None, before=None):
        """Freezes seen by this process (see `_watch_for_stalls`) and late deliveries of any
        recording, as (monotonic start, seconds), between `after` and `before`."""
        seen = list(self._stalls)
        for recording in self.recordings + self._stopped:
            seen += recording.late_deliveries()
        return sorted((round(t, 3), round(length, 3)) for t, length in seen
                      if (after is None or t + length >= after) and (before is None or t <= before))

    def stall_note(self, after, before):
        """A clause for failure messages: the freezes between `after` and `before`, as seconds
        relative to `after`, or "" when there were none."""
        found = self.stalls(after, before)
        if not found:
            return ""
        return ("; the machine stalled meanwhile (start s, length s): "
                + ", ".join(f"({t - after:.2f}, {length:.2f})" for t, length in found))

    def stop(self):
        """Stops every recording, the server, and removes the folder."""
        self._watching.clear()
        for recording in list(self.recordings):
            recording.stop()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        if self._log is not None:
            self._log.close()
            self._log = None
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def log(self):
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    # -- pactl ----------------------------------------------------------------------------------

    def _run(self, argv, check=True):
        done = subprocess.run(argv, env=self._own_env(), capture_output=True, text=True, timeout=10)
        if check and done.returncode != 0:
            raise SoundServerError(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
        return done

    def pactl(self, *args):
        """Runs `pactl ARGS` against this server; returns its standard output."""
        return self._run(["pactl", *args]).stdout

    def sinks(self):
        """Names of the sinks there are now."""
        return [line.split("\t")[1] for line in self.pactl("list", "short", "sinks").splitlines() if line]

    def sink_inputs(self):
        """{sink input index: sink name} — where each playing stream goes now."""
        names = {line.split("\t")[0]: line.split("\t")[1]
                 for line in self.pactl("list", "short", "sinks").splitlines() if line}
        return {int(f[0]): names.get(f[1], f[1])
                for f in (line.split("\t") for line in self.pactl("list", "short", "sink-inputs").splitlines() if line)}

    def sink_latency(self, sink):
        """(latency now, configured latency) of `sink` in seconds, as `pactl list sinks` says: how
        far ahead of its clock the null sink renders (what a real device would still play after
        the render). A recorder's latency request sets the configured one."""
        current = None
        for line in self.pactl("list", "sinks").splitlines():
            line = line.strip()
            if line.startswith("Name:"):
                current = line.split(":", 1)[1].strip()
            elif current == sink and line.startswith("Latency:"):
                match = re.match(r"Latency: (\d+) usec, configured (\d+) usec", line)
                if match:
                    return int(match.group(1)) / 1e6, int(match.group(2)) / 1e6
        raise SoundServerError(f"no latency reported for sink {sink}")

    def sink_module(self, sink):
        """The index of the module-null-sink that made `sink`, or None."""
        for line in self.pactl("list", "short", "modules").splitlines():
            fields = line.split("\t")
            if len(fields) >= 3 and fields[1] == "module-null-sink" and re.search(rf"\bsink_name={re.escape(sink)}\b", fields[2]):
                return int(fields[0])
        return None

    def unplug(self, sink):
        """Unloads `sink`'s module. Returns (before, after): the monotonic times around the
        `pactl unload-module` call — the sink is gone somewhere in between (pactl's own start
        takes most of it)."""
        module = self.sink_module(sink)
        if module is None:
            raise SoundServerError(f"no module-null-sink for {sink}")
        before = time.monotonic()
        self._run(["pactl", "unload-module", str(module)])
        return before, time.monotonic()

    def plug(self, sink, description):
        """Loads a null sink `sink` described as `description` (as pulse.pa does). Returns
        (before, after, module index)."""
        before = time.monotonic()
        module = self._run(["pactl", "load-module", "module-null-sink", f"sink_name={sink}",
                            f"sink_properties=device.description={description}"]).stdout.strip()
        return before, time.monotonic(), int(module)

    # -- recording ------------------------------------------------------------------------------

    def record(self, sink, rate=RATE, latency_msec=10):
        """Starts recording `sink`'s monitor; returns the running `Recording` once its first
        samples have arrived (so its clock is known)."""
        recording = Recording(self, f"{sink}.monitor", rate, latency_msec)
        self.recordings.append(recording)
        recording.start()
        return recording


class Recording:
    """`parec -d SOURCE --format=s16le --rate=RATE --channels=1 --latency-msec=L` into memory.

    The clock: parec hands over samples as the null sink renders them; the reader thread notes
    the monotonic time each chunk arrives and how many samples had come by then. A chunk's last
    sample was rendered no later than its arrival, so `arrival − count / rate` is an upper bound
    of when sample 0 was rendered; the smallest such bound over all chunks is `t0` (too late by
    the smallest delivery delay seen: the source's fragment, a few ms with a 10 ms latency
    request, plus scheduling). `time_of(i) = t0 + i / rate` is therefore when sample `i` came
    out, give or take that delay — and never early, so a measured "silent after X ms" is at
    worst X plus the error, never an undercount. The null sink renders a block ahead of its
    clock (its latency follows the lowest request, this recorder's), which moves every sound
    earlier by at most that block; `error_bound` is the largest delivery delay seen minus the
    smallest, a measure of how much the estimate can wander.

    A recording of a monitor whose sink goes away is moved by PulseAudio to the default source;
    `moved_at` is then the sample index from which it holds another sink's sound (see
    `samples()`).
    """

    CHUNK = 4096

    def __init__(self, sound, source, rate, latency_msec):
        self.sound, self.source, self.rate, self.latency_msec = sound, source, rate, latency_msec
        self.process = None
        self._data = bytearray()
        self._lock = threading.Lock()
        self._first = threading.Event()
        self._chunks = []  # (arrival monotonic, samples received by then)
        self.moved_at = None
        self.moved_to = None
        self.errors = []
        self._threads = []

    def start(self):
        self.process = subprocess.Popen(
            ["parec", "-v", "-d", self.source, "--raw", "--format=s16le", f"--rate={self.rate}",
             "--channels=1", f"--latency-msec={self.latency_msec}",
             "--client-name=earshot-tests", f"--stream-name=record {self.source}"],
            env=self.sound._own_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True)
        for target in (self._read, self._watch):
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            self._threads.append(thread)
        if not self._first.wait(5):
            self.stop()
            raise SoundServerError(f"parec on {self.source} sent nothing within 5 s: {self.errors}")
        return self

    def _read(self):
        fd = self.process.stdout.fileno()
        while True:
            try:
                chunk = os.read(fd, self.CHUNK)
            except OSError:
                break
            now = time.monotonic()
            if not chunk:
                break
            with self._lock:
                self._data += chunk
                self._chunks.append((now, len(self._data) // 2))
            self._first.set()

    def _watch(self):
        for raw in self.process.stderr:
            line = raw.decode(errors="replace").strip()
            if line.startswith("Stream moved"):
                with self._lock:
                    if self.moved_at is None:
                        self.moved_at = len(self._data) // 2
                        self.moved_to = line
            elif "rror" in line or "ailed" in line:
                self.errors.append(line)

    def stop(self):
        """Ends parec (idempotent); the samples stay."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        for thread in self._threads:
            thread.join(timeout=5)
        if self in self.sound.recordings:
            self.sound.recordings.remove(self)
            self.sound._stopped.append(self)
        return self

    # -- what was recorded ----------------------------------------------------------------------

    @property
    def t0(self):
        """Monotonic time at which sample 0 was rendered (see the class notes)."""
        with self._lock:
            return min(t - n / self.rate for t, n in self._chunks)

    def late_deliveries(self, threshold=STALL):
        """Chunks that came more than `threshold` s later than the earliest-delivered ones, as
        (monotonic time the late stretch began, how late): parec or this process was frozen."""
        with self._lock:
            chunks = list(self._chunks)
        if not chunks:
            return []
        base = min(t - n / self.rate for t, n in chunks)
        late = []
        for t, n in chunks:
            delay = t - n / self.rate - base
            if delay > threshold and not (late and late[-1][0] + late[-1][1] >= t - delay):
                late.append((t - delay, delay))
        return late

    @property
    def error_bound(self):
        """Spread of the delivery delays seen (seconds): how far `t0` may be off its chunks."""
        with self._lock:
            delays = [t - n / self.rate for t, n in self._chunks]
        return max(delays) - min(delays)

    def time_of(self, index):
        return self.t0 + index / self.rate

    def index_at(self, moment):
        """The sample index rendered at monotonic time `moment` (may be out of range)."""
        return int(round((moment - self.t0) * self.rate))

    def samples(self, own_only=True):
        """Every sample so far (array of int16). `own_only`: cut at `moved_at`, so a recording
        PulseAudio moved elsewhere holds only its own sink's sound."""
        with self._lock:
            data = bytes(self._data)
            end = self.moved_at if own_only and self.moved_at is not None else len(data) // 2
        samples = array("h")
        samples.frombytes(data[:end * 2])
        return samples

    def wait_until(self, moment, timeout=10):
        """Waits until samples rendered at monotonic time `moment` have arrived."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                count = len(self._data) // 2
            if self.time_of(count) >= moment:
                return
            time.sleep(0.01)
        raise SoundServerError(f"recording of {self.source} stalled")

    @property
    def duration(self):
        with self._lock:
            return len(self._data) / 2 / self.rate


@pytest.fixture
def sound():
    """A started private PulseAudio (`SoundServer`) for one test, stopped (processes ended,
    folder removed) afterwards whatever happened."""
    server = SoundServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def earshot(sound):  # noqa: F811
    """The real server playing into the private PulseAudio (no demo podcast)."""
    import hostserver  # beside this module; imported here so the harness alone needs no server
    server = hostserver.launch(env=sound.env)
    try:
        yield server
    finally:
        server.stop()
