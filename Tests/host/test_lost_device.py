"""Lost devices for real: Earshot plays a tone into the private PulseAudio's "headphones" null
sink, and the test unloads that sink's module — to PulseAudio and to libmpv exactly what
unplugging a USB headset is. Both sinks' monitors are recorded to hear where the sound goes.

What PulseAudio does first, whatever Earshot does: a stream whose sink disappears is moved to the
default sink ("speakers") at once, before any client hears of it. So some sound may reach the
speakers before mpv is paused; the tests measure how much, and require that none comes later than
300 ms after the unplug.

Times: `unplugged` is the monotonic time just *before* `pactl unload-module` was started (pactl's
own start-up, ~10 ms, counts against Earshot); recordings are aligned as test_sound.py's notes say
(±10 ms), and the sink's configured latency (what a real device would still play after the
render) is added to every "sound until" figure.
"""

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import audio
import hostserver
from soundserver import earshot, sound  # noqa: F401  (the private PulseAudio, Earshot playing into it)

RATE = 44100
TONE_RMS = -15.05
SOUND_DB = -60.0
SILENT_DB = -70.0
PAUSE_WITHIN = 0.3
LEAK_WITHIN = 0.3
DISCONNECTED = "Paused: Headphones was disconnected."
CONNECTED = "Headphones is connected again."
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("TEST_OUTPUT") or REPO / "test-output") / "screenshots"


# -- fixtures -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tone():
    """A 60 s 440 Hz tone as the only episode of a podcast on a loopback HTTP server."""
    with hostserver.tone_podcast("Tone", [("Tone", "tone-440.wav", 440, 60)]) as files:
        yield files


@pytest.fixture
def driver():
    """Headless Chromium, as Tests/e2e/conftest.py builds it."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--autoplay-policy=no-user-gesture-required", "--window-size=1280,800"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    try:
        browser.set_script_timeout(15)
        set_viewport(browser, 1280, 800)
        yield browser
        errors = [entry["message"] for entry in browser.get_log("browser")
                  if entry["level"] == "SEVERE" and "Uncaught" in entry["message"]]
        assert not errors, "JavaScript errors:\n" + "\n".join(errors)
    finally:
        browser.quit()


def set_viewport(browser, width, height, mobile=False):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


# -- helpers ------------------------------------------------------------------------------------

def play_on_headphones(server, tone, client):
    """Subscribes the tone podcast, chooses pulse/headphones and plays; returns the episode."""
    podcast = server.subscribe(tone.feed)
    episode = server.episodes(podcast["id"])[0]
    # A listener picks from the devices listed; right after start mpv may not have listed them yet
    # (see test_outputs_name_the_sound_servers_sinks), and choosing one unlisted is refused.
    client.wait_state(lambda m: any(o["name"] == "pulse/headphones" for o in m["outputs"]), timeout=10,
                      what="state.outputs to list the headphones")
    client.command("output", device="pulse/headphones")
    client.wait_state(lambda m: m["output"] == "pulse/headphones", timeout=5, what="output pulse/headphones")
    sent = time.monotonic()
    client.command("play", episode=episode["id"])
    client.wait_state(lambda m: m["episode"] and m["episode"]["id"] == episode["id"] and not m["paused"]
                      and not m["buffering"], timeout=10, after=sent - 1, what="the tone to play")
    return episode


def play_tone(server, tone, client, then_pause=False):
    """Subscribes the tone podcast and plays it on the default sink (paused again with `then_pause`);
    returns the podcast and the episode."""
    podcast = server.subscribe(tone.feed)
    episode = server.episodes(podcast["id"])[0]
    client.wait_state(lambda m: any(o["name"] == "pulse/speakers" for o in m["outputs"]), timeout=10,
                      what="state.outputs to list the sinks")
    client.command("play", episode=episode["id"])
    client.wait_state(lambda m: m["episode"] and not m["paused"] and not m["buffering"], timeout=10,
                      what="the tone to play")
    if then_pause:
        client.command("pause")
        client.wait_state(lambda m: m["paused"], timeout=5, what="paused")
    return podcast, episode


def level(recording, samples, start, end):
    return audio.rms_db(samples, recording.index_at(start), recording.index_at(end))


def sound_after(recording, moment, until, latency):
    """(seconds of sound, the end of the last sound relative to `moment` with the sink's
    `latency` added, or None) in what `recording` rendered between `moment` and `until`, in
    1 ms windows above −60 dBFS."""
    samples = recording.samples()
    start, end = recording.index_at(moment), recording.index_at(until)
    levels = audio.window_levels(samples[max(0, start):end], RATE, 0.001)
    loud = [i for i, db in enumerate(levels) if db > SOUND_DB]
    if not loud:
        return 0.0, None
    return len(loud) * 0.001, (loud[-1] + 1) * 0.001 + latency


def unplug_while_playing(sound, server, tone):  # noqa: F811
    """Plays the tone on the headphones with both monitors recorded and two clients connected,
    then unplugs the headphones. Returns what the tests look at."""
    first, second = server.socket(), server.socket()
    play_on_headphones(server, tone, first)
    speakers = sound.record("speakers")
    headphones = sound.record("headphones")
    time.sleep(1.0)
    latency = max(sound.sink_latency("speakers")[1], sound.sink_latency("headphones")[1])
    unplugged, returned = sound.unplug("headphones")
    speakers.wait_until(unplugged + 1.5)
    headphones.stop()
    return dict(first=first, second=second, speakers=speakers, headphones=headphones, unplugged=unplugged,
                pactl=returned - unplugged, latency=latency)


# -- the tests ----------------------------------------------------------------------------------

def test_outputs_name_the_sound_servers_sinks(earshot):
    """`state.outputs` is mpv's audio-device-list: the private PulseAudio's sinks, by their
    descriptions. (Right after start mpv may not have listed its devices yet: the first `state`
    can carry an empty list, and a later one the devices.)"""
    connected = time.monotonic()
    client = earshot.socket()
    arrival, state = client.wait_state(lambda m: any(o["name"].startswith("pulse/") for o in m["outputs"]),
                                       timeout=5, what="state.outputs to list the pulse sinks")
    outputs = {o["name"]: o["description"] for o in state["outputs"]}
    first = client.received(types=("state",))[0][1]
    audio.report("outputs", listed_after_connect_ms=round((arrival - connected) * 1000, 1),
                 first_state_outputs=len(first["outputs"]),
                 pulse={k: v for k, v in outputs.items() if k.startswith("pulse/")})
    assert outputs.get("pulse/speakers") == "Speakers" and outputs.get("pulse/headphones") == "Headphones", (
        f"state.outputs should list the sinks by their descriptions; got {outputs}")


def test_a_sound_server_slow_to_answer_at_start_is_waited_for(sound):  # noqa: F811
    """A sound server that answers only seconds after Earshot started (a desktop session's at
    login, a loaded machine): mpv's first listing of the outputs waits for it, and so does Earshot
    — the player is not replaced, no notice says it stopped — and the sinks are listed as soon as
    the server answers. The private PulseAudio is held (SIGSTOP) from before the start for 5 s,
    longer than the watchdog gives a player with an episode loaded (3 s)."""
    os.kill(sound.process.pid, signal.SIGSTOP)
    server = None
    try:
        server = hostserver.launch(env=sound.env)
        client = server.socket()
        time.sleep(5)
        held = client.state
        resumed = time.monotonic()
        os.kill(sound.process.pid, signal.SIGCONT)
        arrival, state = client.wait_state(lambda m: any(o["name"] == "pulse/speakers" for o in m["outputs"]),
                                           timeout=10, what="state.outputs to list the sinks once the server answers")
        notices = {m["notice"] for _, m in client.received(types=("state",)) if m.get("notice")}
        audio.report("slow_sound_server", listed_after_resume_ms=round((arrival - resumed) * 1000, 1),
                     outputs_while_held=len(held["outputs"]) if held else None)
        assert not notices, f"no notice while nothing played; got {notices}"
        assert "restarted it" not in server.log(200), f"the player was replaced:\n{server.log(20)}"
        assert state["outputs"] and state["error"] is None
    finally:
        os.kill(sound.process.pid, signal.SIGCONT)  # also when the launch failed: the fixture stops it
        if server is not None:
            server.stop()


def test_a_sound_server_that_stops_answering_leaves_the_controls_working(sound, earshot, tone):  # noqa: F811
    """The sound server stops answering (held with SIGSTOP for 5 s) just as the listener seeks and
    plays: mpv's core waits for the server in its audio output, and Earshot must not wait with it —
    every command in the meantime is answered at once (the volume changes), the watchdog may replace
    the stuck player (3 s with an episode loaded), and once the server answers the episode plays,
    without an error. Before, the engine read mpv synchronously (the new file's start was set with a
    synchronous call) and waited as long as the server did: no command was answered for the whole
    hold (seen: 28 s)."""
    client = earshot.socket()
    podcast, episode = play_tone(earshot, tone, client, then_pause=True)
    os.kill(sound.process.pid, signal.SIGSTOP)
    held = time.monotonic()
    answers = []
    try:
        client.send("seek", to=5)
        client.send("play", episode=episode["id"])
        for step in range(10):
            sent = time.monotonic()
            client.send("volume", value=60 + step)
            arrival, _ = client.wait_state(lambda m, v=60 + step: m["volume"] == v, timeout=5, after=sent,
                                           what=f"volume {60 + step} while the sound server is held")
            answers.append(arrival - sent)
            time.sleep(max(0.0, held + 0.5 * (step + 1) - time.monotonic()))
    finally:
        os.kill(sound.process.pid, signal.SIGCONT)
    resumed = time.monotonic()
    arrival, state = client.wait_state(lambda m: m["episode"] and m["episode"]["id"] == episode["id"] and not m["paused"]
                                       and not m["buffering"], timeout=15, after=resumed,
                                       what="the episode to play once the sound server answers")
    audio.report("stuck_sound_server", held_s=round(resumed - held, 1), slowest_answer_ms=round(max(answers) * 1000, 1),
                 playing_after_resume_ms=round((arrival - resumed) * 1000, 1), notice=state["notice"],
                 restarts="restarted it" in earshot.log(200))
    assert max(answers) < 1.0, f"a command waited {max(answers):.2f} s while the sound server was held"
    assert state["error"] is None, state["error"]
    assert state["volume"] == 69


def test_told_to_quit_while_the_sound_server_is_stuck_it_quits_with_the_position_saved(sound, tone):  # noqa: F811
    """SIGTERM (a `systemctl stop`, a logout) while the sound server does not answer and mpv's core
    waits for it in a load: Earshot saves the position and quits within a few seconds, leaving the
    stuck core behind (it waited `MPVPlayer.shutdownWait`, 2 s). Before, it waited for the sound
    server without end: still running 20 s after the signal, until the server answered. The next
    start finds the position the listener sought to."""
    data = Path(tempfile.mkdtemp(prefix="earshot-host-"))
    try:
        server = hostserver.launch(env=sound.env, data=data)
        try:
            client = server.socket()
            podcast, episode = play_tone(server, tone, client, then_pause=True)
            os.kill(sound.process.pid, signal.SIGSTOP)
            try:
                client.command("seek", to=20)
                client.wait_state(lambda m: abs(m["position"] - 20) < 0.5, timeout=5, what="the seek to 20 s")
                client.send("play", episode=episode["id"])  # loads the file: mpv's core waits for the server
                time.sleep(2.0)  # within the watchdog's 3 s: the core opening the output is the one to wait for
                told = time.monotonic()
                server.process.send_signal(signal.SIGTERM)
                try:
                    status = server.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    status = None
                took = time.monotonic() - told
            finally:
                os.kill(sound.process.pid, signal.SIGCONT)
            audio.report("quit_with_stuck_sound_server", quit_after_ms=round(took * 1000), status=status)
            assert status == 0, f"still running {took:.1f} s after SIGTERM (status {status}):\n{server.log(20)}"
            assert "did not stop" in server.log(50), server.log(20)
        finally:
            server.stop()
        with hostserver.running(env=sound.env, data=data) as again:
            saved = again.episodes(podcast["id"])[0]
            assert abs(saved["position"] - 20) < 1.0, f"the position kept was {saved['position']}, not about 20 s"
    finally:
        shutil.rmtree(data, ignore_errors=True)


def test_a_sound_server_that_dies_mid_play_pauses_where_it_was_and_play_goes_on_once_it_is_back(sound, earshot, tone):  # noqa: F811
    """PulseAudio killed (SIGKILL) while an episode plays: mpv loses its output and ends the file
    with "audio output initialization failed". Nothing is wrong with the episode: it is not marked
    as failed, playback pauses with an error that says the sound output stopped, and the position it
    reached is stored. Once the sound server is back, play goes on from there and is heard. Before,
    the episode was marked failed and the error said to start Earshot with another --audio-output;
    the position stored was the last periodic save (up to 5 s back)."""
    client = earshot.socket()
    podcast, episode = play_tone(earshot, tone, client)
    _, at = client.wait_for(lambda m: m.get("type") == "time" and m["position"] >= 7.0, timeout=15,
                            what="7 s played")
    sound.process.kill()
    sound.process.wait()
    died = time.monotonic()
    arrival, state = client.wait_state(lambda m: m["error"] is not None, timeout=10, after=died,
                                       what="the error once the sound server died")
    assert state["paused"], state
    assert "sound output stopped" in state["error"] and "--audio-output" not in state["error"], state["error"]
    assert str(episode["id"]) not in state["failures"], f"the episode was marked failed: {state['failures']}"
    stored = earshot.episodes(podcast["id"])[0]["position"]
    assert stored >= 7.0, f"the position stored was {stored}, not where it played to (past 7 s)"

    sound.socket_path.unlink(missing_ok=True)
    sound.start()
    speakers = sound.record("speakers")
    sent = time.monotonic()
    client.command("play", episode=episode["id"])
    _, playing = client.wait_state(lambda m: not m["paused"] and not m["buffering"] and m["error"] is None, timeout=10,
                                   after=sent, what="playing again once the sound server is back")
    _, moved = client.wait_for(lambda m: m.get("type") == "time" and m["position"] >= stored + 1.0, timeout=10,
                               after=sent, what="the position to move on from where it stopped")
    speakers.wait_until(time.monotonic() + 1.0)
    samples = speakers.samples()
    heard = audio.rms_db(samples, speakers.index_at(time.monotonic() - 1.0), speakers.index_at(time.monotonic() - 0.1))
    audio.report("sound_server_died", error_after_ms=round((arrival - died) * 1000, 1), stored_position=stored,
                 error=state["error"], heard_db=round(heard, 1))
    assert playing["position"] >= stored - 0.5, f"it started again at {playing['position']}, not at {stored}"
    assert abs(heard - TONE_RMS) <= 1, f"after the sound server came back the speakers measured {heard:.1f} dBFS"


def test_unplugged_headphones_pause_every_client_and_nothing_plays_on(sound, earshot, tone):  # noqa: F811
    run = unplug_while_playing(sound, earshot, tone)
    unplugged, speakers, headphones = run["unplugged"], run["speakers"], run["headphones"]

    # It was playing on the headphones, and only there, before the unplug.
    hp, sp = headphones.samples(), speakers.samples()
    on_headphones = level(headphones, hp, unplugged - 0.6, unplugged - 0.1)
    on_speakers = level(speakers, sp, unplugged - 0.6, unplugged - 0.1)
    assert abs(on_headphones - TONE_RMS) <= 1, (
        f"before the unplug the headphones measured {on_headphones:.1f} dBFS{sound.stall_note(unplugged - 0.6, unplugged)}")
    assert on_speakers <= SILENT_DB, f"before the unplug the speakers measured {on_speakers:.1f} dBFS"

    # (a) paused, (b) every client told.
    paused_at, paused = run["first"].wait_state(lambda m: m["paused"], timeout=5, after=unplugged, what="paused")
    notices = {}
    for name in ("first", "second"):
        arrival, state = run[name].wait_state(lambda m: "Headphones" in (m["notice"] or ""), timeout=5,
                                              after=unplugged, what=f"the notice on the {name} client")
        notices[name] = (round((arrival - unplugged) * 1000, 1), state["notice"])

    # (c) how much reached the speakers, and until when.
    leaked, until = sound_after(speakers, unplugged, unplugged + 1.5, run["latency"])
    note = sound.stall_note(unplugged - 1.0, unplugged + 1.5)
    audio.report("lost_device", paused_ms=round((paused_at - unplugged) * 1000, 1),
                 notices_ms={k: v[0] for k, v in notices.items()}, pactl_ms=round(run["pactl"] * 1000, 1),
                 leaked_ms=round(leaked * 1000), leak_until_ms=None if until is None else round(until * 1000),
                 sink_latency_ms=round(run["latency"] * 1000), notice=notices["first"][1],
                 stalls=sound.stalls(unplugged - 1.0, unplugged + 1.5))
    assert paused_at - unplugged <= PAUSE_WITHIN, (
        f"state.paused came {1000 * (paused_at - unplugged):.0f} ms after the unplug (pactl took "
        f"{1000 * run['pactl']:.0f} ms of it); allowed {PAUSE_WITHIN * 1000:.0f} ms{note}")
    for name, (ms, notice) in notices.items():
        assert notice == DISCONNECTED, f"the {name} client's notice: {notice!r} ({ms} ms after the unplug)"
    assert until is None or until <= LEAK_WITHIN, (
        f"{leaked * 1000:.0f} ms of sound reached the speakers after the unplug, the last of it "
        f"{until * 1000:.0f} ms after (sink latency {run['latency'] * 1000:.0f} ms included); "
        f"allowed: none later than {LEAK_WITHIN * 1000:.0f} ms{note}")
    print(f"leaked to the speakers: {leaked * 1000:.0f} ms of sound, the last {0 if until is None else until * 1000:.0f} ms after the unplug")


def test_headphones_back_offer_resume_and_resume_plays_there(sound, earshot, tone):  # noqa: F811
    run = unplug_while_playing(sound, earshot, tone)
    client, other, speakers = run["first"], run["second"], run["speakers"]
    client.wait_state(lambda m: m["paused"] and m["notice"] == DISCONNECTED, timeout=5, after=run["unplugged"],
                      what="the disconnect notice")
    time.sleep(0.5)
    plugged, _, _ = sound.plug("headphones", "Headphones")
    headphones = sound.record("headphones")
    offered = {}
    for name, each in (("first", client), ("second", other)):
        arrival, state = each.wait_state(lambda m: m["resumeOffer"] is not None, timeout=5, after=plugged,
                                         what=f"state.resumeOffer on the {name} client")
        offered[name] = (arrival - plugged, state)
    state = offered["first"][1]
    assert state["resumeOffer"] == "Headphones" and state["notice"] == CONNECTED and state["paused"] is True, (
        f"after the replug: resumeOffer {state['resumeOffer']!r}, notice {state['notice']!r}, paused {state['paused']}")
    assert offered["second"][1]["resumeOffer"] == "Headphones", f"the second client: {offered['second'][1]['resumeOffer']!r}"

    time.sleep(0.5)  # still paused: nothing may play by itself
    _, resumed = client.send("resume")
    playing_at, _ = client.wait_state(lambda m: not m["paused"], timeout=5, after=resumed, what="playing again")
    headphones.wait_until(resumed + 1.5)
    speakers.wait_until(resumed + 1.5)
    hp, sp = headphones.samples(), speakers.samples()
    before = level(headphones, hp, headphones.t0, resumed - 0.015)  # the clock is good to ±10 ms
    idle_speakers = level(speakers, sp, plugged, resumed)
    back = level(headphones, hp, resumed + 0.5, resumed + 1.5)
    start = headphones.index_at(resumed + 0.5)
    frequency, purity = audio.dominant_frequency(hp, RATE, start, start + RATE)
    on_speakers = level(speakers, sp, resumed, resumed + 1.5)
    threshold = 32768 * 10 ** (SOUND_DB / 20)
    heard = next((i for i in range(headphones.index_at(resumed - 0.015), len(hp)) if abs(hp[i]) > threshold), None)
    state = client.state
    audio.report("resume_offer", offer_ms={k: round(v[0] * 1000, 1) for k, v in offered.items()},
                 resume_to_state_ms=round((playing_at - resumed) * 1000, 1),
                 resume_to_sound_ms=None if heard is None else round((headphones.time_of(heard) - resumed) * 1000, 1),
                 headphones_before_resume_db=round(before, 1), headphones_after_resume_db=round(back, 1),
                 frequency_hz=round(frequency or 0, 2), speakers_after_resume_db=round(on_speakers, 1))
    assert before <= SILENT_DB and idle_speakers <= SILENT_DB, (
        f"sound before resume: headphones {before:.1f}, speakers {idle_speakers:.1f} dBFS")
    assert abs(back - TONE_RMS) <= 1 and frequency and abs(frequency - 440) <= 3, (
        f"after resume the headphones measure {back:.1f} dBFS at {frequency} Hz (purity {purity:.2f}); expected the tone"
        f"{sound.stall_note(resumed, resumed + 1.5)}")
    assert on_speakers <= SILENT_DB, f"after resume the speakers measure {on_speakers:.1f} dBFS"
    assert state["resumeOffer"] is None and state["notice"] is None and state["output"] == "pulse/headphones", (
        f"after resume: resumeOffer {state['resumeOffer']!r}, notice {state['notice']!r}, output {state['output']}")


def test_browser_offers_resume_after_the_replug(sound, earshot, tone, driver):  # noqa: F811
    client = earshot.socket()
    driver.get(earshot.url + "/")
    WebDriverWait(driver, 10).until(lambda b: b.execute_script("return document.body.dataset.ready === 'true'"))
    play_on_headphones(earshot, tone, client)
    time.sleep(0.5)
    unplugged, _ = sound.unplug("headphones")
    client.wait_state(lambda m: m["paused"] and m["notice"] == DISCONNECTED, timeout=5, after=unplugged,
                      what="the disconnect notice")
    notice = driver.find_element(By.CSS_SELECTOR, ".playback-notice")
    resume = notice.find_element(By.CSS_SELECTOR, "button.playback-alert-resume")
    WebDriverWait(driver, 5).until(lambda b: notice.is_displayed() and DISCONNECTED in notice.text)
    assert not resume.is_displayed(), "a Resume button while the headphones are gone"

    plugged, _, _ = sound.plug("headphones", "Headphones")
    client.wait_state(lambda m: m["resumeOffer"] == "Headphones", timeout=5, after=plugged, what="the resume offer")
    WebDriverWait(driver, 5).until(lambda b: CONNECTED in notice.text and resume.is_displayed())
    assert resume.tag_name == "button" and resume.text == "Resume", f"{resume.tag_name} {resume.text!r}"
    assert resume.get_attribute("aria-label") == "Resume on Headphones", resume.get_attribute("aria-label")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    strip = driver.find_element(By.CSS_SELECTOR, ".playback-alerts")
    strip.screenshot(str(SCREENSHOTS / "resume-offer-desktop.png"))
    set_viewport(driver, 390, 844, mobile=True)
    WebDriverWait(driver, 5).until(lambda b: b.execute_script("return innerWidth") == 390)
    box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height, r.right]", resume)
    driver.save_screenshot(str(SCREENSHOTS / "resume-offer-phone.png"))
    strip.screenshot(str(SCREENSHOTS / "resume-offer-phone-strip.png"))
    assert box[1] >= 43.5 and box[2] <= 390, f"the Resume button on a phone: {box[0]:.0f}x{box[1]:.0f}, right edge {box[2]:.0f}"

    headphones = sound.record("headphones")
    clicked = time.monotonic()
    resume.click()
    arrival, _ = client.wait_state(lambda m: not m["paused"], timeout=5, after=clicked, what="playing after the click")
    WebDriverWait(driver, 5).until(lambda b: not resume.is_displayed() and not notice.is_displayed())
    headphones.wait_until(arrival + 1.5)
    back = level(headphones, headphones.samples(), arrival + 0.5, arrival + 1.5)
    audio.report("browser_resume", click_to_playing_ms=round((arrival - clicked) * 1000, 1),
                 headphones_after_click_db=round(back, 1))
    assert abs(back - TONE_RMS) <= 1, f"after Resume the headphones measure {back:.1f} dBFS, not the tone"


def test_output_menu_lists_the_sound_servers_devices_by_name(earshot, driver):  # noqa: F811
    """The full player's Output menu: the sound server's sinks by their descriptions, not mpv's
    whole list of ALSA plugins beside them; choosing one tells the server."""
    outputs = {o["name"] for o in earshot.state()["outputs"]}
    assert {"pulse/speakers", "pulse/headphones"} <= outputs and any(n.startswith("alsa") for n in outputs), outputs
    for width, height, mobile, name in [(1280, 900, False, "desktop"), (390, 844, True, "phone")]:
        set_viewport(driver, width, height, mobile)
        driver.get(earshot.url + "/player")
        WebDriverWait(driver, 10).until(lambda b: b.execute_script("return document.body.dataset.ready === 'true'"))
        button = driver.find_element(By.CSS_SELECTOR, ".output-button")
        driver.execute_script("arguments[0].click()", button)
        WebDriverWait(driver, 5).until(lambda b: b.find_element(By.CSS_SELECTOR, ".output-dialog").is_displayed())
        names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".output-dialog .output-name")]
        assert names == ["This computer (the system’s choice)", "Speakers", "Headphones"], names
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / f"output-menu-{name}.png"))
    headphones = [e for e in driver.find_elements(By.CSS_SELECTOR, ".output-dialog .output-choice") if "Headphones" in e.text][0]
    headphones.click()
    deadline = time.monotonic() + 5
    while earshot.state()["output"] != "pulse/headphones" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert earshot.state()["output"] == "pulse/headphones"
