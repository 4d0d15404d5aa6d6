"""MPRIS for real: Earshot on a private session bus, driven and read by playerctl, busctl and
dbus-monitor (the clients the desktop's media keys, GNOME/KDE widgets, BlueZ and KDE Connect
stand for). The server is the real binary playing the bundled demo through `ao=null`."""

import os
import subprocess
import time
import urllib.parse
from pathlib import Path

import pytest

from hostserver import FileServer, launch, tone_feed, wait
from session_bus import CONFIG, NAME, SessionBus



@pytest.fixture
def bus():
    with SessionBus() as bus:
        yield bus


@pytest.fixture
def earshot(bus):
    server = launch(env=bus.env, mpris=True, demo=True, audio_output="null")
    try:
        wait(lambda: NAME in bus.names(), what="earshot on the bus")
        yield server
    finally:
        server.stop()


def test_play_pause_and_metadata_through_playerctl(bus, earshot):
    assert bus.playerctl("status") == "Stopped"
    assert earshot.state()["episode"] is None
    # A headset's Play on a quiet box plays on from the library: the newest unplayed episode.
    bus.playerctl("play")
    state = wait(lambda: (s := earshot.state())["episode"] and not s["paused"] and s, what="playing")
    assert bus.playerctl("status") == "Playing"
    episode = state["episode"]

    def metadata_now():
        return dict(line.split(None, 2)[1:] for line in bus.playerctl("metadata").splitlines()
                    if len(line.split(None, 2)) == 3)
    # mpv's duration replaces the feed's once the file is open; both say the same then.
    metadata = wait(lambda: (m := metadata_now()) and "mpris:length" in m
                    and abs(int(m["mpris:length"]) / 1e6 - earshot.state()["duration"]) < 0.01 and m,
                    what="mpris:length to match the state's duration")
    assert metadata["xesam:title"] == episode["title"], metadata
    assert metadata["xesam:artist"] == episode["podcast"] == "Earshot Demo"
    assert metadata["xesam:album"] == episode["podcast"]
    assert metadata["mpris:trackid"].strip("'") == f"/org/earshot/episode/{episode['id']}"
    art = urllib.parse.urlparse(metadata["mpris:artUrl"])
    assert art.scheme == "file" and Path(urllib.parse.unquote(art.path)).is_file(), metadata["mpris:artUrl"]
    media = urllib.parse.urlparse(metadata["xesam:url"])
    assert media.scheme == "file" and Path(urllib.parse.unquote(media.path)).is_file(), metadata["xesam:url"]

    bus.playerctl("play-pause")
    assert earshot.state()["paused"] is True, "the reply comes once the pause is carried out"
    assert bus.playerctl("status") == "Paused"
    bus.playerctl("play-pause")
    assert earshot.state()["paused"] is False
    bus.playerctl("stop")
    assert bus.playerctl("status") == "Stopped"
    assert earshot.state()["episode"] is None


def test_every_property_through_busctl(bus, earshot):
    bus.playerctl("play")
    wait(lambda: not earshot.state()["paused"], what="playing")
    props = bus.all_properties()
    expected = {"PlaybackStatus": "s", "LoopStatus": "s", "Rate": "d", "Shuffle": "b", "Metadata": "a{sv}",
                "Volume": "d", "Position": "x", "MinimumRate": "d", "MaximumRate": "d", "CanGoNext": "b",
                "CanGoPrevious": "b", "CanPlay": "b", "CanPause": "b", "CanSeek": "b", "CanControl": "b"}
    assert {name: value["type"] for name, value in props.items()} == expected
    assert props["PlaybackStatus"]["data"] == "Playing"
    assert props["MinimumRate"]["data"] == 0.5 and props["MaximumRate"]["data"] == 3
    assert props["CanPause"]["data"] and props["CanSeek"]["data"] and props["CanControl"]["data"]
    root = bus.all_properties("org.mpris.MediaPlayer2")
    assert root["Identity"]["data"] == "Earshot"
    assert root["CanQuit"]["data"] is False and root["CanRaise"]["data"] is False and root["HasTrackList"]["data"] is False
    assert "https" in root["SupportedUriSchemes"]["data"]
    # Position moves on while playing (Get answers it as of now; it is never signalled).
    first = bus.property("Position")["data"]
    time.sleep(1.2)
    later = bus.property("Position")["data"]
    assert 0.8e6 < later - first < 2.5e6, (first, later)

    # Writable properties change the player as the web UI's controls would.
    bus.busctl("set-property", NAME, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "Rate", "d", "1.5")
    wait(lambda: earshot.state()["rate"] == 1.5, what="rate 1.5")
    bus.playerctl("volume", "0.5")
    wait(lambda: earshot.state()["volume"] == 50, what="volume 50")
    assert bus.property("Volume")["data"] == 0.5
    bus.playerctl("loop", "Track")
    wait(lambda: earshot.state()["repeat"] == "one", what="repeat one")
    bus.playerctl("loop", "Playlist")
    wait(lambda: earshot.state()["repeat"] == "all", what="repeat all")
    assert bus.playerctl("loop") == "Playlist"
    bus.playerctl("shuffle", "On")
    wait(lambda: earshot.state()["shuffle"] is True, what="shuffle")
    refused = bus.busctl("set-property", NAME, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player",
                         "LoopStatus", "s", "Sometimes", check=False)
    assert refused.returncode != 0 and "None, Track or Playlist" in refused.stderr, refused.stderr


def test_signals_follow_every_change_and_seeks(bus, earshot):
    client = earshot.socket()
    try:
        with bus.monitor() as signals:
            bus.playerctl("play")
            assert signals.wait_for('string "Playing"'), signals.text()
            assert signals.wait_for('"xesam:title"'), "Metadata came with the new episode"
            # A change made in the web UI (another client) reaches the bus too.
            mark = time.monotonic()
            client.command("volume", value=40)
            assert signals.wait_for("double 0.4", after=mark), signals.text(mark)
            mark = time.monotonic()
            client.command("pause")
            assert signals.wait_for('string "Paused"', after=mark), signals.text(mark)
            # A jump is a Seeked signal with the new position (µs); SetPosition through playerctl.
            mark = time.monotonic()
            bus.playerctl("position", "30")
            assert signals.wait_for("member=Seeked", after=mark), signals.text(mark)
            assert "int64 30000000" in signals.text(mark), signals.text(mark)
            assert abs(earshot.state()["position"] - 30) < 0.5
            # Seek (relative): 10 s back.
            mark = time.monotonic()
            bus.playerctl("position", "10-")
            assert signals.wait_for("member=Seeked", after=mark), signals.text(mark)
            assert abs(earshot.state()["position"] - 20) < 0.5, earshot.state()["position"]
            # Position itself is never in PropertiesChanged (the spec: clients ask for it).
            assert '"Position"' not in signals.text()
    finally:
        client.close()


def test_call_pause_and_play_resume_exactly_where_it_was(bus, earshot):
    """KDE Connect pauses every playing player over MPRIS when a call comes in, and plays them
    again when it ends."""
    bus.playerctl("play")
    wait(lambda: not earshot.state()["paused"], what="playing")
    time.sleep(1.5)
    bus.run(["busctl", "--user", "call", NAME, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "Pause"])
    paused = earshot.state()
    assert paused["paused"] is True
    held = bus.property("Position")["data"] / 1e6
    assert abs(held - paused["position"]) < 0.2, (held, paused["position"])
    time.sleep(2)  # the call
    assert abs(bus.property("Position")["data"] / 1e6 - held) < 0.01, "paused: the position stands"
    bus.run(["busctl", "--user", "call", NAME, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "Play"])
    resumed = earshot.state()
    assert resumed["paused"] is False and resumed["episode"]["id"] == paused["episode"]["id"]
    assert abs(resumed["position"] - paused["position"]) < 0.3, \
        f"resumed at {resumed['position']:.2f} s, paused at {paused['position']:.2f} s"


def test_open_uri_subscribes_a_feed_and_plays_it(bus, earshot, tmp_path):
    import wave
    with FileServer() as files:
        tone = tmp_path / "tone.wav"
        with wave.open(str(tone), "wb") as out:
            out.setnchannels(1); out.setsampwidth(2); out.setframerate(8000)
            out.writeframes(b"\x00\x10" * 8000 * 20)
        audio = files.put_file("/tone.wav", tone)
        feed = tone_feed(files, "Opened Show", [("Opened episode", audio, 20)])
        bus.playerctl("open", feed)
        state = wait(lambda: (s := earshot.state())["episode"] and s, what="the opened feed's episode")
        assert state["episode"]["title"] == "Opened episode" and state["episode"]["podcast"] == "Opened Show"
        assert any(p["feedUrl"] == feed for p in earshot.get_json("/api/podcasts")["podcasts"])
        # An enclosure address plays that episode.
        bus.playerctl("stop")
        bus.playerctl("open", audio)
        wait(lambda: (s := earshot.state())["episode"] and s["episode"]["title"] == "Opened episode", what="by enclosure")
        # Neither a feed nor an episode: a D-Bus error in words, nothing subscribed.
        page = files.put("/page.html", "<html><body>not a feed</body></html>", "text/html")
        failed = bus.run(["busctl", "--user", "call", NAME, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player",
                          "OpenUri", "s", page], check=False)
        assert failed.returncode != 0 and "neither an episode in the library nor a feed" in failed.stderr, failed.stderr
        assert len(earshot.get_json("/api/podcasts")["podcasts"]) == 2


def test_without_a_session_bus_a_notice_and_everything_works(tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    server = launch(env={"DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": str(runtime), "DISPLAY": ""},
                    mpris=True, demo=True, audio_output="null")
    try:
        notices = [line for line in server.output if "session bus" in line]
        assert len(notices) == 1 and "no session bus" in notices[0], server.output
        podcasts = server.get_json("/api/podcasts")["podcasts"]
        assert podcasts and podcasts[0]["title"] == "Earshot Demo"
        client = server.socket()
        try:
            episode = server.episodes(podcasts[0]["id"])[0]
            client.command("play", episode=episode["id"])
            client.wait_state(lambda s: s["episode"] and not s["paused"], what="playing without a bus")
        finally:
            client.close()
    finally:
        server.stop()


def test_no_mpris_stays_off_the_bus_and_a_second_instance_gets_its_own_name(bus):
    off = launch(env=bus.env, mpris=False, audio_output="null")
    try:
        time.sleep(0.5)
        assert not [n for n in bus.names() if n.startswith("org.mpris.MediaPlayer2.")], bus.names()
    finally:
        off.stop()
    first = launch(env=bus.env, mpris=True, audio_output="null")
    second = launch(env=bus.env, mpris=True, audio_output="null")
    try:
        names = wait(lambda: (n := [x for x in bus.names() if x.startswith(NAME)]) and len(n) == 2 and n,
                     what="two players")
        assert NAME in names and f"{NAME}.instance{second.process.pid}" in names, names
        players = bus.run(["playerctl", "-l"]).stdout.split()
        assert "earshot" in players and f"earshot.instance{second.process.pid}" in players, players
    finally:
        first.stop()
        second.stop()


def test_under_dbus_run_session(tmp_path):
    """The way a user tries it by hand: `dbus-run-session` (with the project's bus configuration),
    Earshot in it, playerctl driving it."""
    from hostserver import REPO, binary
    script = f"""
        "$EARSHOT" serve --port 0 --data "$DATA" --audio-output null --web-root "$ROOT" > "$DATA.log" 2>&1 &
        pid=$!
        for i in $(seq 100); do playerctl -l 2>/dev/null | grep -qx earshot && break; sleep 0.1; done
        playerctl -p earshot play
        sleep 0.5
        echo "status=$(playerctl -p earshot status)"
        echo "title=$(playerctl -p earshot metadata xesam:title)"
        echo "artist=$(playerctl -p earshot metadata xesam:artist)"
        kill $pid; wait $pid
        echo "exit=$?"
    """
    environment = dict(os.environ, EARSHOT=str(binary()), DATA=str(tmp_path / "data"), ROOT=str(REPO),
                       XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_RUNTIME_DIR=str(tmp_path), DISPLAY="")
    environment.pop("DBUS_SESSION_BUS_ADDRESS", None)
    done = subprocess.run(["dbus-run-session", f"--config-file={CONFIG}", "--", "bash", "-c", script],
                          env=environment, capture_output=True, text=True, timeout=60)
    lines = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    assert lines.get("status") == "Playing", (done.stdout, done.stderr)
    assert lines.get("artist") == "Earshot Demo" and lines.get("title"), done.stdout
    assert lines.get("exit") == "0", "a clean SIGTERM"
