"""Earshot as a service that stays up, for real: `make install` into a temporary prefix and served
from there, `make deb` checked with dpkg-deb and lintian and run from the unpacked package, and
the installed systemd user unit's own restart policy (Restart=, RestartSec=,
RestartPreventExitStatus=) carried out by a small supervisor while the process is crashed
(SIGSEGV) mid-episode and stopped cleanly (SIGTERM).

Binaries (relative paths from the repository):
  EARSHOT_BIN         default .build/debug/earshot (any build; `make install EARSHOT_BINARY=`)
  EARSHOT_STATIC_BIN  default .build/static/debug/earshot: the Swift runtime linked in, for the
                      .deb (`swift build --product earshot --static-swift-stdlib --scratch-path
                      .build/static`)

There is no systemd user manager in a container, so the supervisor below does what it would do
with the unit (systemd.service(5), "Restart="): it runs ExecStart as written in the installed
unit, with a clean environment and a HOME of the test's, and restarts it when the unit says so.
"""

import atexit
import contextlib
import gzip
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websocket

REPO = Path(__file__).resolve().parents[2]
SERVING = re.compile(r"Earshot is serving on http://127\.0\.0\.1:(\d+)/?\s*$")
START_TIMEOUT = 20
# Every folder this file makes lives under here, so whatever runs from it can be found afterwards.
SCRATCH = Path(tempfile.mkdtemp(prefix="earshot-service-test-"))
atexit.register(shutil.rmtree, SCRATCH, True)


def binary(variable, default):
    named = Path(os.environ.get(variable) or default)
    path = named if named.is_absolute() else REPO / named
    if not path.is_file():
        pytest.fail(f"{variable}: no binary at {path} (build it, or set {variable})")
    return path


# ---------------------------------------------------------------------------------------------
# Processes: every one started here is remembered, and none may be left running.

STARTED = []


def spawn(argv, env, cwd="/"):
    """Starts argv with stdout and stderr read into a list of lines by a thread."""
    process = subprocess.Popen([str(a) for a in argv], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    process.lines = []
    process.port = None
    process.ready = threading.Event()

    def drain():
        for line in process.stdout:
            process.lines.append(line.rstrip("\n"))
            match = SERVING.search(line)
            if match and not process.ready.is_set():
                process.port = int(match.group(1))
                process.ready.set()

    process.drainer = threading.Thread(target=drain, daemon=True)
    process.drainer.start()
    STARTED.append(process)
    return process


def output(process, lines=30):
    return "\n".join(process.lines[-lines:])


def wait_ready(process, timeout=START_TIMEOUT):
    deadline = time.monotonic() + timeout
    while not process.ready.wait(0.05):
        if process.poll() is not None or time.monotonic() > deadline:
            process.drainer.join(2)
            pytest.fail(f"earshot did not announce its URL (exit status {process.poll()}); "
                        f"it printed:\n{output(process)}")
    return process.port


def stop(process, timeout=10):
    """SIGTERM, as `systemctl stop` sends; returns the exit status."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
            pytest.fail(f"earshot did not stop within {timeout} s of SIGTERM:\n{output(process)}")
    return process.returncode


def ours_running():
    """Processes running a program under SCRATCH (the installed and unpacked earshots)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                exe = os.readlink(entry / "exe")
            except OSError:
                continue
            if exe.startswith(str(SCRATCH)):
                found.append((int(entry.name), exe))
    return found


@pytest.fixture(autouse=True)
def no_process_left():
    """After each test: every process it started has exited, and nothing runs from SCRATCH."""
    yield
    left = [p for p in STARTED if p.poll() is None]
    for process in left:
        process.kill()
        process.wait(5)
    STARTED.clear()
    strays = ours_running()
    for pid, _ in strays:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left running by the test: {[p.args for p in left]}"
    assert not strays, f"earshot processes still running from {SCRATCH}: {strays}"


def teardown_module():
    shutil.rmtree(SCRATCH, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# HTTP, the WebSocket, settings.

def get(port, path, timeout=10):
    """(status, body bytes) of GET http://127.0.0.1:PORT/PATH."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def get_json(port, path):
    status, body = get(port, path)
    assert status == 200, f"GET {path}: {status} {body[:200]!r}"
    return json.loads(body)


def play(port, episode):
    """Sends `play` over the WebSocket, as the page does (its Origin is the server's own page)."""
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}",
                                     timeout=10)
    try:
        ws.send(json.dumps({"cmd": "play", "episode": episode, "id": 1}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message = json.loads(ws.recv())
            if message.get("type") == "error":
                pytest.fail(f"play {episode}: {message}")
            if message.get("type") == "ack":
                return
        pytest.fail(f"play {episode}: no ack within 10 s")
    finally:
        ws.close()


def wait_state(port, predicate, timeout, what):
    deadline = time.monotonic() + timeout
    state = None
    while time.monotonic() < deadline:
        state = get_json(port, "/api/state")
        if predicate(state):
            return state
        time.sleep(0.1)
    pytest.fail(f"timed out after {timeout} s waiting for {what}; last state: "
                f"episode={state and state['episode']}, paused={state and state['paused']}, "
                f"position={state and state['position']}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def home_with_settings(name, text):
    """A HOME holding ~/.config/earshot/earshot.conf with `text`."""
    home = SCRATCH / name
    (home / ".config" / "earshot").mkdir(parents=True)
    (home / ".config" / "earshot" / "earshot.conf").write_text(text)
    return home


def service_env(home, **extra):
    """The environment a user manager gives its services: HOME, PATH, LANG; no EARSHOT_*, no
    session bus of this test process. SWIFT_BACKTRACE=enable=no: with the Swift runtime's
    backtracer on (debug builds linked against /opt/swift), its handler catches a SIGSEGV sent
    with kill(2), prints the backtrace and *returns* — a real fault faults again and kills the
    process, a sent signal does not (observed: the process keeps serving). Off, a sent SIGSEGV
    kills as a real crash does."""
    env = {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
           "SWIFT_BACKTRACE": "enable=no"}
    env.update(extra)
    return env


# ---------------------------------------------------------------------------------------------
# The unit file and a supervisor that carries it out.

def read_unit(path):
    """{section: {key: [values]}} of a systemd unit file (comments, continuation lines)."""
    sections, current, pending = {}, None, ""
    for raw in Path(path).read_text().splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def setting(unit, section, key, default=None):
    values = unit.get(section, {}).get(key)
    return values[-1] if values else default


def seconds(span):
    """A systemd time span ("2", "2s", "500ms", "1min 30s") in seconds."""
    units = {"us": 1e-6, "ms": 1e-3, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "": 1}
    total = 0.0
    for number, unit in re.findall(r"([\d.]+)\s*([a-z]*)", span):
        total += float(number) * units[unit]
    return total


CLEAN_SIGNALS = {signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGPIPE}


def exit_statuses(value):
    """RestartPreventExitStatus= / SuccessExitStatus=: (exit codes, signals)."""
    codes, signals = set(), set()
    for word in (value or "").split():
        if word.isdigit():
            codes.add(int(word))
        else:
            signals.add(signal.Signals[word if word.startswith("SIG") else "SIG" + word])
    return codes, signals


def should_restart(unit, returncode):
    """systemd.service(5)'s table for Restart=, for a process that exited (returncode >= 0) or
    was killed by signal -returncode."""
    service = unit["Service"]
    restart = setting(unit, "Service", "Restart", "no")
    prevent_codes, prevent_signals = exit_statuses(" ".join(service.get("RestartPreventExitStatus", [])))
    success_codes, success_signals = exit_statuses(" ".join(service.get("SuccessExitStatus", [])))
    if returncode >= 0:
        if returncode in prevent_codes:
            return False
        clean = returncode == 0 or returncode in success_codes
        kind = "clean" if clean else "unclean-exit"
    else:
        sig = signal.Signals(-returncode)
        if sig in prevent_signals:
            return False
        kind = "clean" if sig in CLEAN_SIGNALS | success_signals else "unclean-signal"
    table = {
        "no": set(), "always": {"clean", "unclean-exit", "unclean-signal"},
        "on-success": {"clean"}, "on-failure": {"unclean-exit", "unclean-signal"},
        "on-abnormal": {"unclean-signal"}, "on-abort": {"unclean-signal"}, "on-watchdog": set(),
    }
    assert restart in table, f"Restart={restart}: not a value systemd knows"
    return kind in table[restart]


class Supervisor:
    """Runs the unit's ExecStart and, each time it ends, restarts it after RestartSec= when the
    unit's Restart= policy says so (`runs` keeps every process, `ends` every (returncode,
    monotonic time of the end, restarted?))."""

    def __init__(self, unit_path, env):
        self.unit = read_unit(unit_path)
        exec_start = self.unit["Service"]["ExecStart"]
        assert len(exec_start) == 1, f"ExecStart= lines: {exec_start}"
        self.argv = shlex.split(exec_start[0].lstrip("-@:+!"))
        self.restart_sec = seconds(setting(self.unit, "Service", "RestartSec", "100ms"))
        self.env = env
        self.runs, self.starts, self.ends = [], [], []
        self.stopping = threading.Event()
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while True:
            process = spawn(self.argv, self.env)
            with self.changed:
                self.runs.append(process)
                self.starts.append(time.monotonic())
                self.changed.notify_all()
            process.wait()
            ended = time.monotonic()
            again = not self.stopping.is_set() and should_restart(self.unit, process.returncode)
            with self.changed:
                self.ends.append((process.returncode, ended, again))
                self.changed.notify_all()
            if not again or self.stopping.wait(self.restart_sec):
                return

    def wait_runs(self, count, timeout):
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.runs) >= count, timeout):
                pytest.fail(f"the supervisor started {len(self.runs)} run(s), not {count}, within "
                            f"{timeout} s; ends: {self.ends}")
        return self.runs[count - 1]

    def wait_ends(self, count, timeout):
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.ends) >= count, timeout):
                pytest.fail(f"run {count} did not end within {timeout} s")
        return self.ends[count - 1]

    def stop(self):
        """`systemctl stop`: no restart, SIGTERM to what runs."""
        self.stopping.set()
        with self.changed:
            runs = list(self.runs)
        for process in runs:
            stop(process)
        self.thread.join(10)


# ---------------------------------------------------------------------------------------------
# make install

def make(*args, timeout=300):
    result = subprocess.run(["make", "--no-print-directory", "-C", str(REPO), *args],
                            capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, (f"make {' '.join(args)}: exit status {result.returncode}\n"
                                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result.stdout + result.stderr


def systemd_env(**extra):
    """systemd-analyze --user needs a runtime directory (there is no user session here)."""
    runtime = SCRATCH / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(XDG_RUNTIME_DIR=str(runtime), **extra)
    return env


def verify(unit_path, manpath):
    """`systemd-analyze verify --user`: (exit status, what it printed). It checks the syntax,
    that ExecStart is an executable and (through man) that Documentation=man:… exists."""
    result = subprocess.run(["systemd-analyze", "verify", "--user", str(unit_path)],
                            capture_output=True, text=True, timeout=60,
                            env=systemd_env(MANPATH=str(manpath)), cwd="/")
    return result.returncode, (result.stdout + result.stderr).strip()


def user_unit_paths(home):
    result = subprocess.run(["systemd-analyze", "--user", "unit-paths"], capture_output=True, text=True,
                            timeout=30, env=systemd_env(HOME=str(home)), cwd="/")
    assert result.returncode == 0, f"systemd-analyze --user unit-paths: {result.stderr}"
    return result.stdout.split()


@pytest.fixture(scope="module")
def installed():
    """`make install` with the default layout of a user: PREFIX=HOME/.local."""
    home = SCRATCH / "install-home"
    prefix = home / ".local"
    printed = make("install", f"PREFIX={prefix}", f"EARSHOT_BINARY={binary('EARSHOT_BIN', '.build/debug/earshot')}")
    return {"home": home, "prefix": prefix, "printed": printed,
            "unit": prefix / "share" / "systemd" / "user" / "earshot.service"}


def test_install_puts_the_program_web_files_and_unit_where_they_are_found(installed):
    prefix, unit_path = installed["prefix"], installed["unit"]
    for path in ("bin/earshot", "share/earshot/Public/js/app.js", "share/earshot/Templates/index.mustache",
                 "share/earshot/Public/demo/feed.xml", "share/man/man1/earshot.1",
                 "share/doc/earshot/earshot.conf.example"):
        assert (prefix / path).is_file(), f"make install did not install {prefix / path}"
    assert os.access(prefix / "bin" / "earshot", os.X_OK), "installed earshot is not executable"
    for command in ("systemctl --user enable --now earshot", "loginctl enable-linger $USER"):
        assert command in installed["printed"], f"make install did not print {command!r}:\n{installed['printed']}"

    # The unit: on the user manager's search path for this HOME, naming the installed program.
    assert unit_path.is_file(), f"no unit at {unit_path}; installed: {sorted(p.name for p in prefix.rglob('*.service'))}"
    assert str(unit_path.parent) in user_unit_paths(installed["home"]), \
        f"{unit_path.parent} is not on systemd's user unit path: {user_unit_paths(installed['home'])}"
    unit = read_unit(unit_path)
    assert unit["Service"]["ExecStart"] == [f"{prefix}/bin/earshot serve"], f"ExecStart: {unit['Service']['ExecStart']}"
    assert setting(unit, "Service", "Restart") == "on-failure", f"Restart={setting(unit, 'Service', 'Restart')}"
    assert 1 <= seconds(setting(unit, "Service", "RestartSec", "0")) <= 5, \
        f"RestartSec={setting(unit, 'Service', 'RestartSec')}"
    assert setting(unit, "Install", "WantedBy") == "default.target", f"WantedBy={setting(unit, 'Install', 'WantedBy')}"
    assert not any(k.startswith("EARSHOT_") for v in unit["Service"].get("Environment", []) for k in v.split()), \
        "the unit sets EARSHOT_* variables, which would win over earshot.conf"

    status, printed = verify(unit_path, prefix / "share" / "man")
    assert status == 0 and not printed, f"systemd-analyze verify --user: exit {status}: {printed}"
    # The same check sees a broken unit (so a silent pass above means something).
    broken = SCRATCH / "broken" / "earshot.service"
    broken.parent.mkdir()
    broken.write_text(unit_path.read_text().replace("Restart=on-failure", "Restart=sometimes"))
    status, printed = verify(broken, prefix / "share" / "man")
    assert "Restart" in printed or "restart" in printed, f"verify did not object to Restart=sometimes: {printed!r}"


def test_install_to_usr_with_destdir():
    stage = SCRATCH / "stage"
    make("install", f"DESTDIR={stage}", "PREFIX=/usr", f"EARSHOT_BINARY={binary('EARSHOT_BIN', '.build/debug/earshot')}")
    unit_path = stage / "usr/lib/systemd/user/earshot.service"
    assert unit_path.is_file(), f"no {unit_path}; units: {list(stage.rglob('*.service'))}"
    assert read_unit(unit_path)["Service"]["ExecStart"] == ["/usr/bin/earshot serve"]
    assert "/usr/lib/systemd/user" in user_unit_paths(SCRATCH / "nobody")
    assert (stage / "usr/bin/earshot").is_file() and (stage / "usr/share/earshot/Templates/index.mustache").is_file()


def serve_installed(installed, home, data, *args):
    return spawn([installed["prefix"] / "bin" / "earshot", "serve", "--port", "0", "--data", data,
                  "--audio-output", "null", *args], service_env(home))


def test_installed_program_serves_its_installed_files_and_reads_the_settings_file(installed):
    share = installed["prefix"] / "share" / "earshot"
    marker = f"installed-copy-{os.getpid()}"
    with open(share / "Public" / "js" / "app.js", "a") as f:
        f.write(f"\n// {marker}\n")
    with open(share / "Templates" / "index.mustache", "a") as f:
        f.write(f"\n<!-- {marker} -->\n")

    # A settings file saying no-demo, and a port the command line does not give.
    port = free_port()
    home = home_with_settings("home-no-demo", f"# the test's\nno-demo = yes\nport = {port}\nno-mpris = yes\n")
    process = spawn([installed["prefix"] / "bin" / "earshot", "serve", "--data", SCRATCH / "data-no-demo",
                     "--audio-output", "null"], service_env(home))
    try:
        assert wait_ready(process) == port, f"served on {process.port}, not the settings file's port {port}"
        status, page = get(port, "/")
        assert status == 200 and b"<html" in page.lower(), f"GET /: {status} {page[:200]!r}"
        assert marker.encode() in page, "GET / was not rendered from the installed Templates/index.mustache"
        status, script = get(port, "/js/app.js")
        assert status == 200 and marker.encode() in script, \
            f"GET /js/app.js: {status}, not the installed Public/js/app.js ({len(script)} bytes)"
        podcasts = get_json(port, "/api/podcasts")["podcasts"]
        assert podcasts == [], f"no-demo = yes in earshot.conf, yet the library has {[p['title'] for p in podcasts]}"
    finally:
        assert stop(process) == 0, f"SIGTERM: exit status {process.returncode}\n{output(process)}"

    # The same program with no-demo = no: the demo is there (so the empty list above was the file's doing).
    home = home_with_settings("home-demo", "no-demo = no\nno-mpris = yes\n")
    process = serve_installed(installed, home, SCRATCH / "data-demo")
    try:
        wait_ready(process)
        titles = [p["title"] for p in get_json(process.port, "/api/podcasts")["podcasts"]]
        assert titles == ["Earshot Demo"], f"without no-demo the library has {titles}"
    finally:
        assert stop(process) == 0, f"SIGTERM: exit status {process.returncode}\n{output(process)}"


def test_settings_example_names_every_serve_flag_and_every_key_is_accepted(installed):
    example = (REPO / "packaging" / "earshot.conf.example").read_text()
    keys = set(re.findall(r"^#?\s*([a-z][a-z-]*)\s*=", example, re.M))
    usage = subprocess.run([installed["prefix"] / "bin" / "earshot", "help"], capture_output=True, text=True,
                           timeout=10).stdout
    serve_usage = usage.split("earshot subscribe")[0]
    flags = set(re.findall(r"--([a-z][a-z-]*)", serve_usage)) - {"config"}
    assert flags and keys == flags, f"earshot.conf.example keys {sorted(keys)} != serve's flags {sorted(flags)}"

    # Every key uncommented (with values that fit this machine) is read without complaint.
    port = free_port()
    # ca-file: a real CA certificate (the test's own, made with openssl), since the file must be one.
    ca = SCRATCH / "example-ca.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(SCRATCH / "example-ca.key"),
                    "-out", str(ca), "-days", "1", "-subj", "/CN=Example CA"], check=True, capture_output=True)
    values = {"port": str(port), "data": str(SCRATCH / "data-example"), "audio-output": "null",
              "web-root": str(installed["prefix"] / "share" / "earshot"), "no-mpris": "yes", "lan": "no",
              "ca-file": str(ca)}
    text = re.sub(r"^#([a-z][a-z-]*)(\s*=\s*)(.*)$",
                  lambda m: f"{m.group(1)}{m.group(2)}{values.get(m.group(1), m.group(3))}", example, flags=re.M)
    config = SCRATCH / "example.conf"
    config.write_text(text)
    process = spawn([installed["prefix"] / "bin" / "earshot", "serve", "--config", config],
                    service_env(SCRATCH / "nobody"))
    try:
        assert wait_ready(process) == port, f"the example's port {port} was not used: {process.port}"
    finally:
        assert stop(process) == 0, output(process)


# ---------------------------------------------------------------------------------------------
# The unit's restart policy, carried out.

def demo_service(installed, name, port):
    """A HOME whose earshot.conf gives a fixed port, a data folder, silence, no MPRIS; the demo on."""
    return home_with_settings(name, f"port = {port}\ndata = {SCRATCH / ('data-' + name)}\n"
                                    "audio-output = null\nno-mpris = yes\n")


def first_demo_episode(port):
    podcasts = get_json(port, "/api/podcasts")["podcasts"]
    assert [p["title"] for p in podcasts] == ["Earshot Demo"], f"podcasts: {[p['title'] for p in podcasts]}"
    episodes = get_json(port, f"/api/podcasts/{podcasts[0]['id']}/episodes")["episodes"]
    return episodes[0]["id"]


def test_a_crash_is_restarted_after_restart_sec_and_plays_on_where_it_was(installed):
    port = free_port()
    supervisor = Supervisor(installed["unit"], service_env(demo_service(installed, "crash", port)))
    try:
        first = supervisor.wait_runs(1, 5)
        assert wait_ready(first) == port
        episode = first_demo_episode(port)
        play(port, episode)
        # Positions are saved at least every 5 s: past 6 s one save has certainly happened.
        before = wait_state(port, lambda s: (s["episode"] or {}).get("id") == episode and not s["paused"]
                            and s["position"] >= 6.0, 20, f"episode {episode} playing past 6 s")
        killed_at = before["position"]
        first.send_signal(signal.SIGSEGV)

        returncode, ended, restarted = supervisor.wait_ends(1, 10)
        assert returncode == -signal.SIGSEGV, f"after SIGSEGV the process ended with {returncode}:\n{output(first)}"
        assert restarted, f"Restart={setting(supervisor.unit, 'Service', 'Restart')} did not restart after SIGSEGV"
        second = supervisor.wait_runs(2, supervisor.restart_sec + 10)
        delay = supervisor.starts[1] - ended
        assert supervisor.restart_sec <= delay < supervisor.restart_sec + 2, \
            f"restarted {delay:.2f} s after the crash; RestartSec={supervisor.restart_sec}"
        assert wait_ready(second) == port

        resumed = get_json(port, "/api/state")
        assert (resumed["episode"] or {}).get("id") == episode, \
            f"after the restart the episode is {resumed['episode']}, not {episode}:\n{output(second)}"
        assert killed_at - 5.5 <= resumed["position"] <= killed_at + 0.5 and resumed["position"] > 1, \
            f"killed at {killed_at:.2f} s, the restart is at {resumed['position']:.2f} s"
        playing = wait_state(port, lambda s: not s["paused"] and not s["buffering"]
                             and s["position"] > resumed["position"] + 0.5, 10,
                             "the restarted process to play on")
        assert (playing["episode"] or {}).get("id") == episode
    finally:
        supervisor.stop()
    assert len(supervisor.runs) == 2, f"{len(supervisor.runs)} runs; ends: {supervisor.ends}"
    assert supervisor.ends[-1][0] == 0, f"the supervisor's stop ended with {supervisor.ends[-1][0]}"


def test_a_clean_stop_is_not_restarted_and_the_next_start_does_not_play(installed):
    port = free_port()
    env = service_env(demo_service(installed, "clean", port))
    supervisor = Supervisor(installed["unit"], env)
    try:
        first = supervisor.wait_runs(1, 5)
        wait_ready(first)
        episode = first_demo_episode(port)
        play(port, episode)
        stopped_at = wait_state(port, lambda s: (s["episode"] or {}).get("id") == episode and not s["paused"]
                                and s["position"] >= 2.0, 15, f"episode {episode} playing")["position"]
        first.send_signal(signal.SIGTERM)  # what `systemctl --user stop` sends
        returncode, _, restarted = supervisor.wait_ends(1, 15)
        assert returncode == 0, f"SIGTERM: exit status {returncode}:\n{output(first)}"
        assert not restarted, "a clean stop (exit status 0) was restarted"
        time.sleep(supervisor.restart_sec + 1.5)
        assert len(supervisor.runs) == 1, f"{len(supervisor.runs)} runs after a clean stop"
    finally:
        supervisor.stop()

    # Started again by hand: nothing plays (the stop cleared the session); the position was kept.
    again = spawn(shlex.split(read_unit(installed["unit"])["Service"]["ExecStart"][0]), env)
    try:
        wait_ready(again)
        time.sleep(1.5)
        first_look = get_json(port, "/api/state")
        time.sleep(1.0)
        second_look = get_json(port, "/api/state")
        assert first_look["paused"] and second_look["position"] == first_look["position"], \
            (f"after a clean stop the next start plays: episode {first_look['episode']}, paused "
             f"{first_look['paused']}, position {first_look['position']} → {second_look['position']}")
        saved = get_json(port, f"/api/episodes/{episode}")["episode"]["position"]
        assert abs(saved - stopped_at) < 3, f"stopped at {stopped_at:.2f} s, the library has {saved} s"
    finally:
        assert stop(again) == 0


def test_a_wrong_settings_file_is_not_restarted(installed):
    home = home_with_settings("wrong", "port = 0\ncolour = blue\n")
    supervisor = Supervisor(installed["unit"], service_env(home))
    try:
        returncode, _, restarted = supervisor.wait_ends(1, 10)
        first = supervisor.runs[0]
        first.drainer.join(2)
        assert returncode == 2, f"a settings file with an unknown key: exit status {returncode}:\n{output(first)}"
        said = first.lines[0] if first.lines else ""
        assert "line 2" in said and "colour" in said, f"its first line does not name line 2 and the key: {said!r}"
        assert not restarted, "exit status 2 (a wrong settings file) was restarted: RestartPreventExitStatus=2 missing?"
        time.sleep(supervisor.restart_sec + 1)
        assert len(supervisor.runs) == 1, f"{len(supervisor.runs)} runs"
    finally:
        supervisor.stop()


# ---------------------------------------------------------------------------------------------
# make deb

@pytest.fixture(scope="module")
def deb():
    static = binary("EARSHOT_STATIC_BIN", ".build/static/debug/earshot")
    out = SCRATCH / "deb"
    printed = make("deb", f"EARSHOT_BINARY={static}", f"DEB_DIR={out}", timeout=600)
    debs = list(out.glob("earshot_*.deb"))
    assert len(debs) == 1, f"make deb made {debs}:\n{printed[-2000:]}"
    return {"path": debs[0], "printed": printed}


def dpkg_field(deb_path, field):
    return subprocess.run(["dpkg-deb", "-f", str(deb_path), field], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_deb_holds_the_program_web_files_unit_and_docs(deb):
    listing = subprocess.run(["dpkg-deb", "-c", str(deb["path"])], capture_output=True, text=True,
                             check=True).stdout
    paths = {line.split()[-1].lstrip(".") for line in listing.splitlines()}
    owners = {line.split()[1] for line in listing.splitlines()}
    for path in ("/usr/bin/earshot", "/usr/lib/systemd/user/earshot.service", "/usr/share/earshot/Public/js/app.js",
                 "/usr/share/earshot/Public/demo/feed.xml", "/usr/share/earshot/Templates/index.mustache",
                 "/usr/share/doc/earshot/copyright", "/usr/share/doc/earshot/changelog.Debian.gz",
                 "/usr/share/man/man1/earshot.1.gz"):
        assert path in paths, f"{path} is not in the package; it holds {sorted(p for p in paths if 'Public/' not in p)}"
    assert owners == {"root/root"}, f"file owners in the package: {owners}"

    version = dpkg_field(deb["path"], "Version")
    assert re.fullmatch(r"\d+\.\d+\.\d+-\d+", version), f"Version: {version}"
    assert deb["path"].name == f"earshot_{version}_{dpkg_field(deb['path'], 'Architecture')}.deb"

    depends = dpkg_field(deb["path"], "Depends")
    names = {d.split()[0] for d in depends.split(", ")}
    for needed in ("libmpv2", "libsqlite3-0", "libwebsockets17", "libxml2", "libcurl4", "libqrencode4",
                   "libgdk-pixbuf-2.0-0", "libglib2.0-0", "libc6"):
        assert needed in names, f"Depends lacks {needed}: {depends}"
    assert "swift" not in depends.lower(), f"Depends names the Swift toolchain: {depends}"
    assert all(re.search(r"\(>= [^)]+\)", d) for d in depends.split(", ")), \
        f"Depends without versions (not dpkg-shlibdeps'): {depends}"

    root = SCRATCH / "unpacked"
    subprocess.run(["dpkg-deb", "-x", str(deb["path"]), str(root)], check=True)
    assert (root / "usr/lib/systemd/user/earshot.service").read_text() == \
        (REPO / "packaging/earshot.service").read_text(), "the packaged unit differs from packaging/earshot.service"
    copyright_text = (root / "usr/share/doc/earshot/copyright").read_text()
    assert copyright_text.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"), \
        copyright_text[:200]
    assert re.search(r"^License: MIT$", copyright_text, re.M), "copyright has no License: MIT paragraph"
    changelog = gzip.decompress((root / "usr/share/doc/earshot/changelog.Debian.gz").read_bytes()).decode()
    assert changelog.startswith(f"earshot ({version}) "), f"changelog: {changelog.splitlines()[0]}"

    # The packaged binary needs nothing from the toolchain: every library it loads is the system's.
    ldd = subprocess.run(["ldd", str(root / "usr/bin/earshot")], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin"}).stdout
    assert "not found" not in ldd and "/opt/swift" not in ldd and "swift" not in ldd, f"ldd:\n{ldd}"


def test_deb_refuses_a_binary_that_needs_the_toolchains_swift_runtime():
    dynamic = binary("EARSHOT_BIN", ".build/debug/earshot")
    needed = subprocess.run(["readelf", "-d", str(dynamic)], capture_output=True, text=True).stdout
    if "libswiftCore.so" not in needed:
        pytest.skip(f"{dynamic} has the Swift runtime linked in: nothing to refuse")
    result = subprocess.run(["make", "--no-print-directory", "-C", str(REPO), "deb", f"EARSHOT_BINARY={dynamic}",
                             f"DEB_DIR={SCRATCH / 'deb-refused'}"], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "links the Swift runtime dynamically" in result.stderr, \
        f"make deb of {dynamic}: exit status {result.returncode}: {result.stderr[-500:]}"
    assert not list((SCRATCH / "deb-refused").glob("*.deb")), "a package was made of it anyway"


def test_deb_passes_lintian_without_errors(deb):
    result = subprocess.run(["lintian", str(deb["path"])], capture_output=True, text=True, timeout=300)
    lines = [line for line in (result.stdout + result.stderr).splitlines() if re.match(r"^[EWIPXON]: ", line)]
    errors = [line for line in lines if line.startswith("E: ")]
    assert not errors, "lintian errors:\n" + "\n".join(errors)
    # The overrides are used (an unused one is a warning of its own).
    assert not any("unused-override" in line or "mismatched-override" in line for line in lines), "\n".join(lines)
    assert "lintian: no errors" in deb["printed"], f"make deb did not report its lintian run:\n{deb['printed'][-1500:]}"


def test_unpacked_deb_runs_and_plays_the_demo(deb):
    root = SCRATCH / "unpacked-run"
    subprocess.run(["dpkg-deb", "-x", str(deb["path"]), str(root)], check=True)
    program = root / "usr/bin/earshot"
    env = service_env(SCRATCH / "deb-home")
    usage = subprocess.run([program, "help"], capture_output=True, text=True, timeout=10, env=env, cwd="/")
    assert usage.returncode == 0 and "earshot serve" in usage.stdout, f"help: {usage.returncode} {usage.stderr}"

    process = spawn([program, "serve", "--port", "0", "--data", SCRATCH / "data-deb", "--audio-output", "null",
                     "--no-mpris"], env)
    try:
        port = wait_ready(process)
        status, script = get(port, "/js/app.js")
        assert status == 200 and script == (root / "usr/share/earshot/Public/js/app.js").read_bytes(), \
            f"GET /js/app.js: {status}, not the package's file"
        status, page = get(port, "/")
        assert status == 200 and b"<html" in page.lower(), f"GET /: {status}"
        episode = first_demo_episode(port)
        play(port, episode)
        wait_state(port, lambda s: (s["episode"] or {}).get("id") == episode and not s["paused"]
                   and s["position"] > 1.0, 15, "the packaged program to play the demo")
    finally:
        assert stop(process) == 0, output(process)
