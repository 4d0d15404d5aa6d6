"""Every room (issue 17): Earshot plays through Snapcast, for real. Earshot starts its own
snapserver (snapserver installed, no --snapcast: a generated config on ports of this test's own);
two real snapclients join it, each writing what it would play to a file (`--player file`, real
time, silence included, so a file's length is a clock); a 440 Hz tone plays in both; volumes set
through Earshot show in snapserver's own status and a change made straight to snapserver shows
in Earshot's state; a pause is heard within Snapcast's buffer plus 200 ms; the position Earshot
shows is what the rooms heard; a room going offline stops nothing; the snapserver dying pauses
playback with a notice and "This computer" standing in, and its return brings the rooms back."""

import json
import math
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from array import array
from pathlib import Path

import pytest

from audio import dominant_frequency, sound_span, window_levels, write_tone
from hostserver import FileServer, launch, tone_feed
from hostserver import wait as wait_for

RATE, BYTES_PER_SECOND = 48000, 48000 * 4  # Snapcast's 48000:16:2
BUFFER = 1.0  # snapserver's default buffer, as Earshot's config has it
PAUSE_BUDGET = BUFFER + 0.2


def need(program):
    if shutil.which(program) is None:
        pytest.fail(f"{program} is not installed (scripts/setup.sh test installs it)")


class Control:
    """A JSON-RPC client of the snapserver's own, as Snapweb or another controller is."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.reader = self.sock.makefile("r", encoding="utf-8", newline="\n")
        self.next = 1

    def call(self, method, params=None):
        request = {"jsonrpc": "2.0", "id": self.next, "method": method}
        if params is not None:
            request["params"] = params
        self.next += 1
        self.sock.sendall((json.dumps(request) + "\r\n").encode())
        while True:
            message = json.loads(self.reader.readline())
            if message.get("id") == request["id"]:
                assert "error" not in message, message
                return message["result"]

    def close(self):
        self.sock.close()


def pcm(path, start=0):
    """The left channel of a snapclient file from byte `start` on, as 16-bit samples."""
    data = Path(path).read_bytes()[start:]
    data = data[: len(data) // 4 * 4]
    samples = array("h")
    samples.frombytes(data)
    return samples[0::2]


def tone_span(samples, threshold_db=-40.0, window=0.01):
    """(first, last) sample index of the windows louder than `threshold_db`, or None."""
    size = int(RATE * window)
    span = sound_span(window_levels(samples, RATE, window), threshold_db)
    return (span[0] * size, (span[1] + 1) * size) if span else None


@pytest.fixture
def rooms(tmp_path):
    need("snapserver")
    need("snapclient")
    port = 21000 + os.getpid() % 20000  # audio; control is the next one
    files = FileServer()
    write_tone(tmp_path / "tone.wav", 440, 40)
    feed = tone_feed(files, "Rooms", [("Tone", files.put("/tone.wav", (tmp_path / "tone.wav").read_bytes(), "audio/wav"), 40)])
    server = launch(args=["--snapcast-port", str(port)], audio_output="null", snapcast=True)
    clients = {}

    def start_client(name):
        clients[name] = subprocess.Popen(
            ["snapclient", "-h", "127.0.0.1", "-p", str(port), "--hostID", name,
             "--player", f"file:filename={tmp_path / name}.raw,mode=a", "--logsink", f"file:{tmp_path / name}.log"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    class Rig:
        pass

    rig = Rig()
    rig.server, rig.files, rig.feed, rig.port, rig.tmp, rig.clients, rig.start_client = server, files, feed, port, tmp_path, clients, start_client
    try:
        yield rig
    finally:
        for process in clients.values():
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
        server.stop()
        files.close()


def wait(condition, timeout=15, what="condition"):
    return wait_for(condition, timeout, what, interval=0.1)


def rooms_of(server):
    return {room["id"]: room for room in server.get_json("/api/rooms")["rooms"]}


def test_two_rooms_play_in_step_with_earshot(rooms):
    server = rooms.server
    wait(lambda: server.get_json("/api/rooms")["available"], what="Earshot's snapserver and its stream")
    rooms.start_client("room1")
    rooms.start_client("room2")
    found = wait(lambda: (r := rooms_of(server)) and len(r) == 2 and all(x["online"] for x in r.values()) and r,
                 what="both rooms in Earshot's state")
    assert all(room["joined"] for room in found.values()), found  # a new client plays the first stream: Earshot's
    client = server.socket()
    client.wait_for(lambda m: m["type"] == "state" and any(o["name"] == "snapcast" and o["description"] == "Rooms" for o in m["outputs"]),
                    timeout=5, what="Rooms among the outputs")

    podcast = server.subscribe(rooms.feed)
    episode = server.episodes(podcast["id"])[0]
    client.command("output", device="snapcast")
    start = {name: (rooms.tmp / f"{name}.raw").stat().st_size for name in ("room1", "room2")}
    client.command("play", episode=episode["id"])
    time.sleep(4)

    # A 440 Hz tone in both rooms, without a gap (mpv's buffers before the rooms are short: an
    # underrun would be heard as a silent stretch).
    for name in ("room1", "room2"):
        samples = pcm(rooms.tmp / f"{name}.raw", start[name])
        span = tone_span(samples)
        assert span, f"{name} heard nothing"
        frequency, purity = dominant_frequency(samples, RATE, span[0] + RATE // 2, span[0] + RATE * 3 // 2)
        levels = [round(level) for level in window_levels(samples[span[0]:span[0] + 2 * RATE], RATE, 0.05)]
        assert abs(frequency - 440) < 1 and purity > 0.9, (
            f"{name}: {frequency} Hz, purity {purity}; dBFS of 50 ms windows from the first sound: {levels}")
        gaps = [i / 100 for i, level in enumerate(window_levels(samples[span[0]:span[1]], RATE)) if level < -40]
        assert not gaps, f"{name}: silent 10 ms windows {len(gaps)} times, first at {gaps[:5]} s into the tone"

    # Volume through Earshot shows in snapserver's own status; a change made straight to snapserver shows in Earshot.
    control = Control(rooms.port + 1)
    try:
        client.command("room.volume", room="room1", value=30)
        status = control.call("Server.GetStatus")["server"]
        volumes = {c["id"]: c["config"]["volume"]["percent"] for g in status["groups"] for c in g["clients"]}
        assert volumes["room1"] == 30, volumes
        changed = time.monotonic()
        control.call("Client.SetVolume", {"id": "room2", "volume": {"percent": 55, "muted": False}})
        wait(lambda: rooms_of(server)["room2"]["volume"] == 55, timeout=5, what="snapserver's own change in Earshot's state")
        client.wait_for(lambda m: m["type"] == "state" and any(r["id"] == "room2" and r["volume"] == 55 for r in m.get("rooms", [])),
                        timeout=5, after=changed, what="the change pushed to Earshot's clients")
    finally:
        control.close()

    # Pause: heard in both rooms within Snapcast's buffer plus 200 ms; the position is what they heard.
    at = {name: (rooms.tmp / f"{name}.raw").stat().st_size for name in ("room1", "room2")}
    client.command("pause")
    time.sleep(2.5)
    position = server.state()["position"]
    for name in ("room1", "room2"):
        samples = pcm(rooms.tmp / f"{name}.raw", start[name])
        first, last = tone_span(samples, threshold_db=-50)
        paused_at = (at[name] - start[name]) / 4
        heard_after = (last - paused_at) / RATE
        assert -0.05 <= heard_after <= PAUSE_BUDGET, f"{name}: the pause was heard {heard_after:.2f} s after it was asked"
        heard = (last - first) / RATE
        assert abs(heard - position) <= 0.3, f"{name} heard {heard:.2f} s of the episode; Earshot says {position:.2f} s"


def test_a_room_leaving_and_the_snapserver_dying(rooms):
    server = rooms.server
    wait(lambda: server.get_json("/api/rooms")["available"], what="Earshot's snapserver")
    rooms.start_client("room1")
    rooms.start_client("room2")
    wait(lambda: (r := rooms_of(server)) and len(r) == 2 and all(x["online"] for x in r.values()), what="both rooms")
    client = server.socket()
    episode = server.episodes(server.subscribe(rooms.feed)["id"])[0]
    client.command("output", device="snapcast")
    client.command("play", episode=episode["id"])
    time.sleep(2)

    # One room goes offline: the other plays on, Earshot too.
    rooms.clients["room2"].terminate()
    rooms.clients["room2"].wait(timeout=10)
    wait(lambda: not rooms_of(server)["room2"]["online"], timeout=10, what="room2 offline in Earshot's state")
    size = (rooms.tmp / "room1.raw").stat().st_size
    time.sleep(2)
    assert not server.state()["paused"]
    assert tone_span(pcm(rooms.tmp / "room1.raw", size)), "room1 went on playing"

    # Leave and join from Earshot: room1 stops hearing the tone, then hears it again.
    client.command("room.leave", room="room1")
    wait(lambda: not rooms_of(server)["room1"]["joined"], timeout=5, what="room1 left")
    time.sleep(BUFFER + 0.5)
    size = (rooms.tmp / "room1.raw").stat().st_size
    time.sleep(1)
    assert tone_span(pcm(rooms.tmp / "room1.raw", size)) is None, "room1 still hears Earshot after leaving"
    client.command("room.join", room="room1")
    wait(lambda: rooms_of(server)["room1"]["joined"], timeout=5, what="room1 joined again")
    time.sleep(BUFFER + 0.5)
    size = (rooms.tmp / "room1.raw").stat().st_size
    time.sleep(1)
    assert tone_span(pcm(rooms.tmp / "room1.raw", size)), "room1 hears Earshot again"

    # The snapserver dies while the rooms play: paused at the right place, a notice, This computer offered.
    before = server.state()["position"]
    pid = int(subprocess.run(["pgrep", "-f", f"{server.data}/snapcast/snapserver.conf"], capture_output=True, text=True).stdout.split()[-1])
    killed = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    _, state = client.wait_for(lambda m: m["type"] == "state" and m["paused"] and m.get("notice"), timeout=10, after=killed,
                               what="the pause")
    assert "Rooms" in state["notice"], state["notice"]
    assert not any(o["name"] == "snapcast" for o in state["outputs"]) and state["roomsNotice"], state
    assert abs(state["position"] - before) < 3, (before, state["position"])
    # Earshot starts it again (5 s later); the rooms come back, and playback may go on there.
    _, back = client.wait_for(lambda m: m["type"] == "state" and any(o["name"] == "snapcast" for o in m["outputs"]),
                              timeout=20, after=killed, what="the rooms back")
    assert back["resumeOffer"] == "Rooms" and back["paused"], back
    wait(lambda: rooms_of(server).get("room1", {}).get("online"), timeout=20, what="room1 reconnected")

    # Back to this computer while playing: on from what the rooms had heard.
    client.command("resume")
    time.sleep(2)
    heard = server.state()["position"]
    client.command("output", device="auto")
    time.sleep(0.5)
    after = server.state()["position"]
    assert heard - 0.2 <= after <= heard + 0.5 + 0.3, f"the rooms were at {heard:.2f} s; this computer went on at {after:.2f} s"


def user_snapserver(folder, port, sources):
    """A snapserver of the user's (not Earshot's): its own config, `sources` its [stream] lines."""
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "snapserver.conf"
    config.write_text("\n".join([
        "[server]", f"datadir = {folder}/data", "[http]", "enabled = false",
        "[tcp]", "bind_to_address = 127.0.0.1", f"port = {port + 1}",
        "[stream]", "bind_to_address = 127.0.0.1", f"port = {port}", *[f"source = {s}" for s in sources], "codec = pcm",
        "[logging]", f"sink = file:{folder}/log", ""]))
    return subprocess.Popen(["snapserver", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_a_snapserver_of_the_users_own_with_a_tcp_source(tmp_path):
    """--snapcast HOST: a snapserver without Earshot's stream gets a notice naming the line to add;
    one with a TCP source (a snapserver on another machine, where a pipe cannot reach) is fed at 1×."""
    need("snapserver")
    need("snapclient")
    port = 22000 + os.getpid() % 20000
    files = FileServer()
    write_tone(tmp_path / "tone.wav", 440, 30)
    feed = tone_feed(files, "Rooms", [("Tone", files.put("/tone.wav", (tmp_path / "tone.wav").read_bytes(), "audio/wav"), 30)])
    snapserver = user_snapserver(tmp_path / "a", port, [f"pipe://{tmp_path}/other.fifo?name=Radio"])
    server = launch(args=["--snapcast", f"127.0.0.1:{port + 1}"], audio_output="null", snapcast=True)
    snapclient = None
    try:
        notice = wait(lambda: server.get_json("/api/rooms")["notice"], timeout=10, what="the notice")
        assert "no stream named Earshot" in notice and "source = pipe://" in notice and "name=Earshot" in notice, notice
        assert not server.get_json("/api/rooms")["available"]

        snapserver.terminate()
        snapserver.wait(timeout=10)
        snapserver = user_snapserver(tmp_path / "b", port, [f"tcp://127.0.0.1:{port + 2}?name=Earshot&mode=server"])
        wait(lambda: server.get_json("/api/rooms")["available"], timeout=15, what="the TCP stream found")
        snapclient = subprocess.Popen(["snapclient", "-h", "127.0.0.1", "-p", str(port), "--hostID", "far",
                                       "--player", f"file:filename={tmp_path}/far.raw,mode=a", "--logsink", "null"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait(lambda: rooms_of(server).get("far", {}).get("online"), timeout=15, what="the room")
        client = server.socket()
        episode = server.episodes(server.subscribe(feed)["id"])[0]
        client.command("output", device="snapcast")
        start = (tmp_path / "far.raw").stat().st_size
        client.command("play", episode=episode["id"])
        time.sleep(4)
        samples = pcm(tmp_path / "far.raw", start)
        span = tone_span(samples)
        assert span, "the room heard nothing"
        frequency, purity = dominant_frequency(samples, RATE, span[0] + RATE // 2, span[0] + RATE * 3 // 2)
        assert abs(frequency - 440) < 1 and purity > 0.9, f"{frequency} Hz, purity {purity}"
        # Paced at 1×: after 4 s of playing, the room has heard about 4 s less the buffer, not all 30.
        heard = (span[1] - span[0]) / RATE
        assert heard < 4.0, f"the room heard {heard:.1f} s in 4 s: the TCP source was not paced"
    finally:
        if snapclient:
            snapclient.terminate()
            snapclient.wait(timeout=10)
        server.stop()
        snapserver.terminate()
        snapserver.wait(timeout=10)
        files.close()
