"""Playback going wrong, seen from the page: an episode that cannot play shows its error on every
client (two browsers here) and the queue moves on; the buffering ring while mpv waits for a slow
server; the Output menu listing mpv's devices (with `ao=null`: mpv's default device of each audio
output it knows, "auto" first); artwork served from the server's cache in lists, the player and
Media Session. Screenshots at 1280×800 and 390×844."""

import re
import urllib.request

from selenium.webdriver.common.by import By

from conftest import (SCREENSHOTS, all_css, by_css, command, open_page, overflow, set_viewport, small_targets, tap,
                      wait_until)
from feeds import REPO, item, rss
from screens import match_baseline, rewind
from test_queue import second_browser

ARTWORK = (REPO / "Public" / "demo" / "artwork" / "episode-02.jpg").read_bytes()
CACHED = re.compile(r"/artwork/[0-9a-f]{16}/(96|256|512)\.jpg$")  # the server's kept copies


def subscribe_broken_feed(server, feed_server, name):
    """A feed of two episodes: the newer one's audio is missing (404), the older one plays.
    Returns (podcast, broken episode, good episode)."""
    audio = feed_server.put_audio(f"/{name}/good.mp3")
    feed_server.put(f"/{name}/cover.jpg", ARTWORK, content_type="image/jpeg")
    feed = rss(f"Errors {name}", [
        item("Missing episode", f"{name}-missing", feed_server.url(f"/{name}/missing.mp3"),
             published="Tue, 03 Mar 2026 10:00:00 GMT"),
        item("Good episode", f"{name}-good", audio, published="Mon, 02 Mar 2026 10:00:00 GMT"),
    ], channel_extra=f'<itunes:image href="{feed_server.url(f"/{name}/cover.jpg")}"/>')
    url = feed_server.put(f"/{name}/feed.xml", feed)
    podcast = server.subscribe(url)
    episodes = server.get_json(f"/api/podcasts/{podcast['id']}/episodes")["episodes"]
    broken = next(e for e in episodes if e["title"] == "Missing episode")
    good = next(e for e in episodes if e["title"] == "Good episode")
    return podcast, broken, good


def alert_text(browser):
    alerts = [a for a in all_css(browser, ".playback-error") if a.is_displayed()]
    return alerts[0].text if alerts else ""


def error_settled(browser, server):
    """Waits until the error strip shows the server's error as it is now (before a screenshot)."""
    shown = "return document.querySelector('.playback-error .playback-alert-text').textContent"
    wait_until(lambda: alert_text(browser) and (error := server.state()["error"]) and browser.execute_script(shown) == error,
               message="the strip to show the server's error")


# The still page of a screenshot (screens.py) turns animations off, and with them the ring's
# `buffering-appear` (opacity 0 → 1 after 0.25 s): the ring would vanish. It is shown as the test
# saw it just before (opacity 1), at the start of its turn (no rotation).
RING_SHOWN = """
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('.transport-toggle.is-buffering::after, .mini-toggle.is-buffering::after { opacity: 1 !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    window.__earshotRingShown = sheet;
"""
RING_RELEASED = """
    const sheet = window.__earshotRingShown;
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
"""


def test_a_broken_episode_shows_its_error_on_every_client_and_the_queue_moves_on(driver, own_server, feed_server):
    server = own_server
    podcast, broken, good = subscribe_broken_feed(server, feed_server, "broken")
    other = second_browser()
    try:
        set_viewport(driver, 1280, 800)
        open_page(driver, server, f"/podcast/{podcast['id']}")
        open_page(other, server, "/")
        assert command(driver, "queue.add", episode=broken["id"])["type"] == "ack"
        assert command(driver, "queue.add", episode=good["id"])["type"] == "ack"
        assert command(driver, "play", episode=broken["id"])["type"] == "ack"

        # The server moves on to the good one and keeps the error.
        state = wait_until(lambda: (s := server.state())["episode"] and s["episode"]["id"] == good["id"]
                           and not s["paused"] and s, timeout=20, message="the queue to move on to the good episode")
        assert state["error"] and "Missing episode" in state["error"], state["error"]
        assert state["failures"].get(str(broken["id"])) == state["error"]

        # Both clients show it, above whatever view they are on.
        for browser in (driver, other):
            shown = wait_until(lambda b=browser: alert_text(b), message="the error strip")
            assert "Missing episode" in shown, shown
        # The broken row is marked (its title says why); the good one is not.
        mark = wait_until(lambda: by_css(driver, f'.episode[data-episode-id="{broken["id"]}"] .failed-mark'),
                          message="the Couldn't play mark")
        assert mark.text == "Couldn’t play" and "Missing episode" in mark.get_attribute("title")
        assert not all_css(driver, f'.episode[data-episode-id="{good["id"]}"] .failed-mark')
        # The mini-player shows the good episode playing.
        wait_until(lambda: by_css(driver, ".mini-title").text == "Good episode", message="the mini-player")
        rewind(driver, server)  # the mini-player names the same chapter every run
        error_settled(driver, server)
        match_baseline(driver, "errors-list-1280")

        # Dismissing hides it in this browser only.
        tap(driver, by_css(driver, ".playback-error .playback-alert-dismiss"))
        wait_until(lambda: not alert_text(driver), message="the strip to go")
        assert "Missing episode" in alert_text(other)

        # The phone layout, in the player.
        set_viewport(other, 390, 844, mobile=True)
        rewind(other, server)  # the player's chapter list: the same chapter current every run
        open_page(other, server, "/player")
        wait_until(lambda: alert_text(other), message="the strip on the phone")
        assert overflow(other)[0] <= overflow(other)[1], "no sideways scrolling"
        wait_until(lambda: len(all_css(other, ".player-chapters .chapter")) == 4
                   and all_css(other, ".player-chapters .chapter.is-current"), message="the chapter list, one current")
        error_settled(other, server)
        match_baseline(other, "errors-player-390")
    finally:
        other.quit()
        command(driver, "stop")


def test_the_play_button_turns_while_mpv_waits_for_a_slow_server(driver, own_server, feed_server):
    server = own_server
    audio = feed_server.put_audio("/slow/audio.mp3")
    feed_server.set("/slow/audio.mp3", delay=4)  # the server sits on the request for 4 s
    podcast = server.subscribe(feed_server.put("/slow/feed.xml", rss("Slow server", [item("Slow episode", "slow-1", audio)])))
    episode = server.get_json(f"/api/podcasts/{podcast['id']}/episodes")["episodes"][0]
    set_viewport(driver, 1280, 800)
    open_page(driver, server, "/player")
    assert command(driver, "play", episode=episode["id"])["type"] == "ack"
    wait_until(lambda: server.state()["buffering"], message="the server to say it is buffering")
    ring = wait_until(lambda: by_css(driver, ".transport-toggle.is-buffering"), message="the player's ring")
    assert ring.get_attribute("aria-busy") == "true"
    assert by_css(driver, ".mini-toggle").get_attribute("aria-busy") == "true"
    # The ring is drawn (after its 0.25 s delay) and turns.
    wait_until(lambda: driver.execute_script(
        "return getComputedStyle(arguments[0], '::after').opacity === '1'", ring), message="the ring to show")
    driver.execute_script(RING_SHOWN)
    try:
        match_baseline(driver, "buffering-player-1280")
    finally:
        driver.execute_script(RING_RELEASED)
    assert all_css(driver, ".transport-toggle.is-buffering"), "still buffering after the screenshot: it shows the ring"
    # Once mpv has the data it plays and the ring goes.
    wait_until(lambda: not (s := server.state())["buffering"] and s["position"] > 0.5, timeout=20,
               message="playback to start")
    wait_until(lambda: not all_css(driver, ".transport-toggle.is-buffering"), message="the ring to go")
    command(driver, "stop")


def test_the_output_menu_lists_mpvs_devices_and_remembers_the_choice(driver, own_server, feed_server):
    server = own_server
    outputs = wait_until(lambda: server.state()["outputs"], message="mpv's device list")
    names = [o["name"] for o in outputs]
    assert names[0] == "auto", names
    episode = server.get_json("/api/episodes?limit=100")["episodes"][0]
    set_viewport(driver, 390, 844, mobile=True)
    open_page(driver, server, "/player")
    assert command(driver, "play", episode=episode["id"])["type"] == "ack"
    button = wait_until(lambda: by_css(driver, ".output-button"), message="the Output button")
    assert by_css(driver, ".output-button-label").text == "This computer"
    tap(driver, button)
    dialog = wait_until(lambda: by_css(driver, ".output-dialog[open]"), message="the Output dialog")
    choices = dialog.find_elements(By.CSS_SELECTOR, ".output-choice")
    assert [c.get_attribute("data-device") for c in choices] == names, "every device mpv lists, in its order"
    assert choices[0].get_attribute("aria-checked") == "true"
    assert not small_targets(driver, ".output-dialog[open]")
    driver.save_screenshot(str(SCREENSHOTS / "output-menu-390.png"))
    if len(choices) > 1:
        pick = choices[-1]
        wanted = pick.get_attribute("data-device")
        tap(driver, pick)
        wait_until(lambda: server.state()["output"] == wanted, message="the server to take the choice")
        wait_until(lambda: by_css(driver, f'.output-choice[data-device="{wanted}"]').get_attribute("aria-checked") == "true",
                   message="the dialog to follow")
        description = next(o["description"] for o in outputs if o["name"] == wanted)
        by_css(driver, ".output-close").click()
        wait_until(lambda: by_css(driver, ".output-button-label").text == description, message="the button to name it")
        # Remembered by the server: a fresh page shows it too.
        open_page(driver, server, "/player")
        wait_until(lambda: by_css(driver, ".output-button-label").text == description, message="the choice after a reload")
        assert command(driver, "output", device="auto")["type"] == "ack"
    assert command(driver, "output", device="no/such-device")["type"] == "error"
    set_viewport(driver, 1280, 800)
    open_page(driver, server, "/player")
    driver.execute_script("document.querySelector('.output-button').scrollIntoView({block: 'center'})")
    driver.save_screenshot(str(SCREENSHOTS / "player-output-1280.png"))
    command(driver, "stop")


def test_artwork_comes_from_the_servers_cache_in_lists_the_player_and_media_session(driver, own_server, feed_server):
    server = own_server
    set_viewport(driver, 1280, 800)
    open_page(driver, server, "/")
    podcast, _, good = subscribe_broken_feed(server, feed_server, "art")
    open_page(driver, server, "/")
    tile = wait_until(lambda: next((i for i in all_css(driver, ".tile-art")
                                    if CACHED.search(i.get_attribute("src") or "")), None),
                      message="a podcast tile from the artwork cache")
    assert tile.get_attribute("src").endswith("/256.jpg"), tile.get_attribute("src")
    wait_until(lambda: driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", tile) == 256,
               message="the 256 px copy to load")
    open_page(driver, server, f"/podcast/{podcast['id']}")
    row = wait_until(lambda: by_css(driver, f'.episode[data-episode-id="{good["id"]}"] img.art'), message="a row image")
    assert row.get_attribute("src").endswith("/96.jpg"), row.get_attribute("src")
    wait_until(lambda: driver.execute_script("return arguments[0].naturalWidth", row) == 96, message="the 96 px copy")
    hits = feed_server.hits.get("/art/cover.jpg", 0)
    assert hits == 1, f"the feed's image was fetched {hits} times"
    assert command(driver, "play", episode=good["id"])["type"] == "ack"
    open_page(driver, server, "/player")
    art = wait_until(lambda: CACHED.search(by_css(driver, ".player-art").get_attribute("src") or "") and by_css(driver, ".player-art"),
                     message="the player's artwork")
    assert art.get_attribute("src").endswith("/512.jpg")
    session = wait_until(lambda: driver.execute_script(
        "return navigator.mediaSession.metadata && navigator.mediaSession.metadata.artwork.map(a => [a.src, a.sizes])"),
        message="Media Session artwork")
    assert [s for _, s in session] == ["96x96", "256x256", "512x512"], session
    assert all(CACHED.search(src) for src, _ in session)
    with urllib.request.urlopen(art.get_attribute("src"), timeout=10) as response:
        assert response.status == 200 and response.headers["Content-Type"] == "image/jpeg"
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert feed_server.hits.get("/art/cover.jpg", 0) == 1, "still fetched once"
    command(driver, "stop")
