#!/usr/bin/env python3
"""`make bench`: command → heard latency (issue 17), on this computer's output and in Snapcast's rooms.

    .build/bench/venv/bin/python bench/rooms.py [--earshot PATH] [--trials N]

Both measured the way Tests/host does, with real sound:

- This computer: the release `earshot serve` plays a 440 Hz tone into a private PulseAudio's null
  sink (Tests/host/soundserver.py), recorded with parec on a clock aligned to the test's; `pause`
  is heard when the last loud sample was rendered (plus the sink's latency), `resume` when the
  first one after it was.
- Rooms: the same server with its own snapserver and one snapclient writing what it plays to a
  file (real time, silence included: the file's length is the clock); `pause` is heard at the last
  loud sample after the command, `resume` at the first one after.
- `seek`: the episode is 440 Hz for a minute, then 880 Hz; a seek across is heard when 880 Hz
  first outweighs 440 Hz.
- Resume in the rooms: an episode whose frequency rises 40 Hz a second says where a listener is;
  the frequency last heard before a pause and first heard after the resume tell how much of the
  episode was repeated or skipped.
- `speed` 1× → 2×, on the same sweep: the speed keeps the pitch, so the frequency heard is where
  in the episode the listener is, and the moment it starts rising twice as fast is when the change
  was heard (a two-slope line fitted to the frequencies of 100 ms windows, least absolute error:
  scaletempo's splices make a window now and then read wrong, and must not move the bend).

Budgets: this computer's 200 ms (Tests/host/test_sound.py's for pause); the rooms' Snapcast buffer
(1000 ms) plus 200 ms for pause, resume, seek and speed alike (issue 17). A speed change cannot cut
into audio already made, so on this computer its budget is mpv's 200 ms audio buffer plus 200 ms.
Resume in the rooms: at most 200 ms repeated or skipped. Medians and worst of N trials.
"""

import argparse
import math
import os
import wave
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "host"))

import audio  # noqa: E402
import hostserver  # noqa: E402
from soundserver import SoundServer  # noqa: E402

RATE = 48000
THRESHOLD = 32768 * 10 ** (-40 / 20)


SEEK_TO = 70  # the second tone: 440 Hz before 60 s, 880 Hz after


def tone_feed(tmp):
    """One episode: 60 s of 440 Hz, then 60 s of 880 Hz (a seek across is heard as the change)."""
    files = hostserver.FileServer()
    low, high = audio.sine_second(440), audio.sine_second(880)
    body = low * 60 + high * 60
    with wave.open(str(tmp / "tone.wav"), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(44100)
        out.writeframes(body.tobytes())
    url = files.put("/tone.wav", (tmp / "tone.wav").read_bytes(), "audio/wav")
    return files, hostserver.tone_feed(files, "Bench tones", [("Tone", url, 120)])


SWEEP_START, SWEEP_RATE = 300.0, 40.0  # Hz, Hz per second: the sweep's frequency tells its position


def sweep_feed(files, tmp):
    """An episode whose frequency rises 40 Hz a second from 300 Hz: where a listener is in it can be
    read off what they hear (the resume and speed checks)."""
    rate, seconds = 44100, 60
    amplitude = 32768 * 10 ** (-12 / 20)
    body = array("h")
    phase = 0.0
    for i in range(rate * seconds):
        phase += 2 * math.pi * (SWEEP_START + SWEEP_RATE * i / rate) / rate
        body.append(int(amplitude * math.sin(phase)))
    with wave.open(str(tmp / "sweep.wav"), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(body.tobytes())
    url = files.put("/sweep.wav", (tmp / "sweep.wav").read_bytes(), "audio/wav")
    # A feed of its own: at the tone feed's URL it would be that podcast, refreshed.
    return hostserver.tone_feed(files, "Bench sweep", [("Sweep", url, seconds)], path="/sweep.xml")


def sweep_position(samples, start, end):
    """Where in the sweep `samples[start:end]` is (seconds), from its frequency."""
    frequency = audio.zero_crossing_frequency(samples, RATE, start, end)
    return None if frequency is None else (frequency - SWEEP_START) / SWEEP_RATE


def sweep_frequency(samples, rate, start, end):
    """The sweep's frequency in `samples[start:end]`: counted from zero crossings, then the peak of
    Goertzel powers 3 Hz apart around it, placed between them by a parabola (a crossing added or
    lost at a splice moves a count by 10 Hz in 100 ms, the peak by little)."""
    rough = audio.zero_crossing_frequency(samples, rate, start, end)
    if rough is None:
        return None
    step = 3.0
    candidates = [rough + step * k for k in range(-6, 7)]
    powers = [audio.goertzel_power(samples, rate, f, start, end) for f in candidates]
    best = max(range(len(powers)), key=powers.__getitem__)
    if 0 < best < len(powers) - 1:
        left, mid, right = powers[best - 1], powers[best], powers[best + 1]
        bend = left - 2 * mid + right
        offset = 0.5 * (left - right) / bend if bend else 0.0
        return candidates[best] + step * max(-0.5, min(0.5, offset))
    return candidates[best]


def speed_heard(samples, rate, start, seconds=4.0, before=1.0, after=2.0, window=0.1):
    """When (seconds after `start`, the command's sample) the sweep in `samples` went from `before`×
    to `after`×: the bend of the two-slope line that best fits where the listener was in it."""
    size = int(rate * window)
    points = []
    for i in range(start, min(len(samples), start + int(rate * seconds)) - size, size // 2):
        frequency = sweep_frequency(samples, rate, i, i + size)
        if frequency is not None and audio.rms_db(samples, i, i + size) > -40:
            points.append(((i + size / 2 - start) / rate, (frequency - SWEEP_START) / SWEEP_RATE))
    if len(points) < 10:
        return float("inf")
    best = None
    for k in range(0, int(seconds * 100)):
        bend = k / 100
        shape = [before * min(w, bend) + after * max(0.0, w - bend) for w, _ in points]
        offset = statistics.median(p - g for (_, p), g in zip(points, shape))
        error = sum(abs(p - g - offset) for (_, p), g in zip(points, shape))
        if best is None or error < best[0]:
            best = (error, bend)
    return best[1]


def high_from(samples, rate, start, end, window=0.01):
    """The first window (index) from `start` where 880 Hz outweighs 440 Hz, or None."""
    size = int(rate * window)
    for i in range(start, end - size, size):
        if audio.goertzel_power(samples, rate, 880, i, i + size) > 4 * audio.goertzel_power(samples, rate, 440, i, i + size):
            return i
    return None


def play(server, feed):
    client = server.socket()
    episode = server.episodes(server.subscribe(feed)["id"])[0]
    return client, episode


def local(trials, tmp):
    sound = SoundServer()
    sound.start()
    files, feed = tone_feed(tmp)
    server = hostserver.launch(env=sound.env)
    pauses, resumes, seeks, speeds = [], [], [], []
    try:
        client, episode = play(server, feed)
        recording = sound.record("speakers")
        client.command("play", episode=episode["id"])
        time.sleep(1.5)
        for _ in range(trials):
            latency = sound.sink_latency("speakers")[1]
            _, sent = client.send("pause")
            recording.wait_until(sent + 0.8)
            samples = recording.samples()
            first, end = recording.index_at(sent - 0.1), recording.index_at(sent + 0.8)
            last = max(i for i in range(first, end) if abs(samples[i]) > THRESHOLD)
            pauses.append(recording.time_of(last) - sent + latency)
            _, sent = client.send("resume")
            recording.wait_until(sent + 0.8)
            samples = recording.samples()
            start, end = recording.index_at(sent), recording.index_at(sent + 0.8)
            heard = next(i for i in range(start, end) if abs(samples[i]) > THRESHOLD)
            resumes.append(recording.time_of(heard) - sent + latency)
            time.sleep(1.0)
            _, sent = client.send("seek", to=SEEK_TO)
            recording.wait_until(sent + 0.8)
            samples = recording.samples()
            changed = high_from(samples, recording.rate, recording.index_at(sent), recording.index_at(sent + 0.8))
            seeks.append(recording.time_of(changed) - sent + latency if changed is not None else float("inf"))
            client.command("seek", to=5)
            time.sleep(1.0)
        sweep = server.episodes(server.subscribe(sweep_feed(files, tmp))["id"])[0]
        client.command("play", episode=sweep["id"])
        for _ in range(trials):
            client.command("seek", to=5)
            time.sleep(2.0)
            latency = sound.sink_latency("speakers")[1]
            _, sent = client.send("rate", value=2)
            recording.wait_until(sent + 4.5)
            samples = recording.samples()
            speeds.append(speed_heard(samples, recording.rate, recording.index_at(sent)) + latency)
            client.command("rate", value=1)
    finally:
        server.stop()
        files.close()
        sound.stop()
    return pauses, resumes, seeks, speeds


def rooms(trials, tmp):
    port = 24000 + os.getpid() % 20000
    files, feed = tone_feed(tmp)
    server = hostserver.launch(args=["--snapcast-port", str(port)], audio_output="null", snapcast=True)
    raw = tmp / "room.raw"
    snapclient = subprocess.Popen(["snapclient", "-h", "127.0.0.1", "-p", str(port), "--hostID", "bench",
                                   "--player", f"file:filename={raw},mode=a", "--logsink", "null"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pauses, resumes, seeks, jumps, speeds = [], [], [], [], []

    def samples_from(offset):
        data = raw.read_bytes()[offset:]
        values = array("h")
        values.frombytes(data[: len(data) // 4 * 4])
        return values[0::2]

    try:
        deadline = time.monotonic() + 20
        while not server.get_json("/api/rooms")["rooms"] and time.monotonic() < deadline:
            time.sleep(0.2)
        client, episode = play(server, feed)
        client.command("output", device="snapcast")
        client.command("play", episode=episode["id"])
        time.sleep(3)
        def heard_after(cmd, **args):
            """What the room played in the 2.5 s after `cmd` (the file's start is the command's moment)."""
            at = raw.stat().st_size
            client.command(cmd, **args)
            time.sleep(2.5)
            return samples_from(at)

        for _ in range(trials):
            values = heard_after("pause")
            loud = [i for i, v in enumerate(values) if abs(v) > THRESHOLD]
            pauses.append((loud[-1] if loud else 0) / RATE)
            values = heard_after("resume")
            heard = next((i for i, v in enumerate(values) if abs(v) > THRESHOLD), None)
            resumes.append(heard / RATE if heard is not None else float("inf"))
            values = heard_after("seek", to=SEEK_TO)
            changed = high_from(values, RATE, 0, len(values))
            seeks.append(changed / RATE if changed is not None else float("inf"))
            client.command("seek", to=5)
            time.sleep(2.0)
        # Resume goes on from what was heard: the sweep's frequency just before the pause and just
        # after the resume tells how much was repeated (negative) or skipped (positive).
        sweep = server.episodes(server.subscribe(sweep_feed(files, tmp))["id"])[0]
        client.command("play", episode=sweep["id"])
        time.sleep(3)
        for _ in range(trials):
            at = raw.stat().st_size
            client.command("pause")
            time.sleep(2.0)
            client.command("resume")
            time.sleep(2.5)
            values = samples_from(at)
            loud = [i for i in range(0, len(values) - 480, 480) if audio.rms_db(values, i, i + 480) > -40]
            gap = next(k for k in range(1, len(loud)) if loud[k] - loud[k - 1] > 4800)  # the silence of the pause
            before = sweep_position(values, loud[gap - 1] - 4800, loud[gap - 1] + 480)
            after = sweep_position(values, loud[gap], loud[gap] + 5280)
            jumps.append(after - before - 0.1 if before is not None and after is not None else float("inf"))
            time.sleep(1.0)
        for _ in range(trials):
            client.command("seek", to=5)
            time.sleep(2.5)
            at = raw.stat().st_size
            client.command("rate", value=2)
            time.sleep(4.5)
            speeds.append(speed_heard(samples_from(at), RATE, 0))
            client.command("rate", value=1)
    finally:
        snapclient.terminate()
        snapclient.wait(timeout=10)
        server.stop()
        files.close()
    return pauses, resumes, seeks, jumps, speeds


def row(output, command, values, budget):
    ms = [v * 1000 for v in values]
    worst = max(ms)
    mark = "✓" if worst <= budget else "✗ over budget"
    return f"| {output} | {command} | {statistics.median(ms):.0f} | {worst:.0f} | {budget} | {mark} |"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--earshot", default=os.environ.get("EARSHOT_BIN", ".build/release/earshot"))
    parser.add_argument("--trials", type=int, default=5)
    options = parser.parse_args()
    os.environ["EARSHOT_BIN"] = options.earshot
    for program in ("snapserver", "snapclient", "pulseaudio", "parec"):
        if shutil.which(program) is None:
            print(f"bench/rooms.py: {program} is not installed (scripts/setup.sh test installs it); skipped")
            return
    tmp = Path(tempfile.mkdtemp(prefix="earshot-bench-rooms-"))
    try:
        lines = ["## Command → heard latency (ms), this computer and Snapcast's rooms", "",
                 "| output | command | median | worst | budget | |", "| --- | --- | ---: | ---: | ---: | --- |"]
        here = "this computer (PulseAudio)"
        pauses, resumes, seeks, speeds = local(options.trials, tmp)
        lines += [row(here, "pause", pauses, 200), row(here, "resume", resumes, 200), row(here, "seek", seeks, 200),
                  row(here, "speed 1× → 2×", speeds, 400)]
        there = "rooms (Snapcast, 1 s buffer)"
        pauses, resumes, seeks, jumps, speeds = rooms(options.trials, tmp)
        lines += [row(there, "pause", pauses, 1200), row(there, "resume", resumes, 1200), row(there, "seek", seeks, 1200),
                  row(there, "speed 1× → 2×", speeds, 1200)]
        repeated = [f"{j * 1000:+.0f}" for j in jumps]
        worst = max(abs(j) for j in jumps) * 1000
        lines += ["", f"Resume in the rooms goes on from what they heard: skipped (+) or repeated (−) ms per trial "
                      f"{', '.join(repeated)}; worst {worst:.0f} ms (budget 200) {'✓' if worst <= 200 else '✗ over budget'}"]
        text = "\n".join(lines)
        print(text)
        out = REPO / ".build" / "bench"
        out.mkdir(parents=True, exist_ok=True)
        (out / "rooms.md").write_text(text + "\n")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
