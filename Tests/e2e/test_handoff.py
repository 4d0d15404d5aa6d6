"""Leave the house mid-episode (issue 16): a paired phone — headless Chromium in the LAN test's
network namespace, at phone size — takes the episode the speakers play ("Listen on this phone"):
the host pauses and the phone plays it in its own <audio> from the same place, with the episode on
its lock screen (Media Session); it reports where it is, so the library follows; "Play on speakers"
gives it back, and the speakers go on from the phone's position."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SCREENSHOTS, command, wait_until
from lan_net import demo_episode_id, lan_server, net, pair  # noqa: F401 (fixtures)
from test_lan_phone import phone, wait_ready  # noqa: F401 (the namespace's Chromium)

TOLERANCE = 1.0  # seconds: "within 1 s of where it was"


def state(server):
    return server.get_json("/api/state")


def phone_audio(phone):
    return phone.execute_script("""
        const a = document.querySelector('audio.handoff-audio');
        return a ? {time: a.currentTime, paused: a.paused, src: a.currentSrc, ready: a.readyState,
                    started: window.__handoffStart ?? null} : null;""")


def test_a_phone_takes_the_episode_and_gives_it_back_where_it_was(driver, phone, net, lan_server):
    cookie, _ = pair(net, lan_server)
    name, value = cookie.split("=", 1)
    phone.get(lan_server.lan_url + "/pair")
    phone.add_cookie({"name": name, "value": value, "path": "/"})

    # The speakers play the demo's longest episode, 20 s in.
    episode = demo_episode_id(lan_server)
    driver.get(lan_server.url + "/")
    assert command(driver, "play", episode=episode)["type"] == "ack"
    assert command(driver, "seek", to=20)["type"] == "ack"
    wait_until(lambda: (s := state(lan_server))["episode"]["id"] == episode and not s["paused"] and s["position"] >= 20.5,
               message="the speakers playing past 20 s")

    phone.get(lan_server.lan_url + "/player")
    wait_ready(phone, "player")
    take = WebDriverWait(phone, 10).until(lambda p: p.find_element(By.CSS_SELECTOR, ".handoff-take:not([hidden])"))
    # Where the phone's audio first plays from, taken at its first 'playing' event.
    phone.execute_script("""
        new MutationObserver((_, observer) => {
          const a = document.querySelector('audio.handoff-audio');
          if (!a) return;
          observer.disconnect();
          a.addEventListener('playing', () => { window.__handoffStart ??= a.currentTime; });
        }).observe(document.body, {childList: true});""")
    take.click()

    paused = wait_until(lambda: (s := state(lan_server))["paused"] and s, timeout=5, message="the speakers to pause")
    started = wait_until(lambda: (a := phone_audio(phone)) and a["started"] is not None and a, timeout=15,
                         message="the phone's own player to play")
    assert abs(started["started"] - paused["position"]) <= TOLERANCE, \
        f"the phone started at {started['started']:.2f} s, the speakers paused at {paused['position']:.2f} s"
    assert f"/api/episodes/{episode}/listen" in started["src"]
    session = phone.execute_script(
        "const s = navigator.mediaSession; return {title: s.metadata?.title, artist: s.metadata?.artist, state: s.playbackState};")
    title = lan_server.get_json(f"/api/episodes/{episode}")["episode"]["title"]
    assert session == {"title": title, "artist": "Earshot Demo", "state": "playing"}, session
    assert not phone.execute_script("const k = document.querySelector('audio.keepalive'); return Boolean(k && !k.paused)"), \
        "the silent lock-screen clip rests while the phone plays the episode itself"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.save_screenshot(str(SCREENSHOTS / "handoff-phone.png"))

    # The phone reports where it is: the library follows while it plays.
    time.sleep(6)
    now = phone_audio(phone)
    assert not now["paused"] and now["time"] > started["started"] + 4, now
    stored = lan_server.get_json(f"/api/episodes/{episode}")["episode"]["position"]
    assert now["time"] - 6 <= stored <= now["time"] + TOLERANCE, f"library at {stored}, phone at {now['time']}"
    assert state(lan_server)["paused"], "the speakers stay paused while the phone plays"

    # Back to the speakers, at the phone's position.
    give = phone.find_element(By.CSS_SELECTOR, ".handoff-give")
    at = phone.execute_script("return document.querySelector('audio.handoff-audio').currentTime")
    clicked = time.monotonic()
    give.click()
    resumed = wait_until(lambda: (s := state(lan_server))["episode"]["id"] == episode and not s["paused"] and s,
                         timeout=10, message="the speakers to play again")
    elapsed = time.monotonic() - clicked
    assert at - TOLERANCE <= resumed["position"] <= at + elapsed + TOLERANCE, \
        f"the speakers went on at {resumed['position']:.2f} s; the phone was at {at:.2f} s ({elapsed:.2f} s ago)"
    wait_until(lambda: phone_audio(phone) is None, timeout=5, message="the phone's own player to stop")
    wait_until(lambda: phone.find_element(By.CSS_SELECTOR, ".handoff-take:not([hidden])"), message="the take button back")
    assert command(driver, "pause")["type"] == "ack"
