"""Playing from the page: the mini-player, navigation, the full player's scrubber, Media Session, keys."""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import by_css, command, demo_episode, open_page, play_from_start, tap, wait_until


def clock_seconds(text):
    """'1:05' / '1:02:03' → seconds."""
    seconds = 0
    for part in text.strip().split(":"):
        seconds = seconds * 60 + int(part)
    return seconds


def mini_elapsed(driver):
    return clock_seconds(by_css(driver, "#mini-player .mini-time").text.split("/")[0])


def test_play_button_starts_the_episode_and_the_mini_player_follows(server, driver):
    episode = demo_episode(server)
    open_page(driver, server, "/")
    command(driver, "stop")  # start from nothing loaded (an error reply when nothing is, which is fine)
    wait_until(lambda: not by_css(driver, "#mini-player").is_displayed(), message="no mini-player while nothing is loaded")
    # A command the server refuses shows its message as a toast.
    refusal = command(driver, "toggle")
    assert refusal["type"] == "error" and refusal["message"], refusal
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    wait_until(lambda: refusal["message"] in [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#toasts .toast")],
               message="a toast with the server's error")
    tap(driver, by_css(driver, f'.episode[data-episode-id="{episode["id"]}"] button[data-action="play"]'))

    wait_until(lambda: by_css(driver, "#mini-player").is_displayed()
               and by_css(driver, "#mini-player .mini-title").text == episode["title"], message="the mini-player")
    first = mini_elapsed(driver)
    time.sleep(1.6)
    second = mini_elapsed(driver)
    assert second > first, f"elapsed time on screen did not advance ({first} → {second})"

    state = server.state()
    assert state["episode"]["id"] == episode["id"] and state["paused"] is False
    time.sleep(1.0)
    assert server.state()["position"] > state["position"]
    # The row is highlighted as now playing, and its button now pauses.
    row = by_css(driver, f'.episode[data-episode-id="{episode["id"]}"]')
    assert "is-current" in row.get_attribute("class")
    assert row.find_element(By.CSS_SELECTOR, "button").get_attribute("aria-label") == f"Pause {episode['title']}"


def test_mini_player_is_the_same_node_across_navigation(server, driver):
    episode = demo_episode(server)
    open_page(driver, server, "/")
    play_from_start(driver, server, episode)
    wait_until(lambda: by_css(driver, "#mini-player .mini-title").text == episode["title"], message="the mini-player")
    driver.execute_script("window.__mini = document.getElementById('mini-player')")

    tap(driver, by_css(driver, f'.episode[data-episode-id="{episode["id"]}"] .episode-title'))
    wait_until(lambda: driver.current_url.endswith(f"/episode/{episode['id']}"), message="the episode page URL")
    wait_until(lambda: by_css(driver, ".episode-page h1").text == episode["title"], message="the episode page")
    assert driver.execute_script("return document.getElementById('mini-player') === window.__mini")

    driver.back()
    wait_until(lambda: driver.current_url.rstrip("/") == server.url, message="back to the library")
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".episode-list .episode"), message="the list again")
    assert driver.execute_script("return document.getElementById('mini-player') === window.__mini")
    assert by_css(driver, "#mini-player .mini-title").text == episode["title"]


def test_scrubber_stays_where_it_is_dropped_and_seeks(server, driver):
    episode = demo_episode(server)
    open_page(driver, server, "/")
    play_from_start(driver, server, episode)
    wait_until(lambda: by_css(driver, "#mini-player").is_displayed(), message="the mini-player")
    by_css(driver, "#mini-player").click()
    wait_until(lambda: driver.current_url.endswith("/player"), message="the full player")
    bar = wait_until(lambda: (b := by_css(driver, ".scrubber-input")).is_displayed() and b.is_enabled() and b,
                     message="an enabled scrubber")
    assert by_css(driver, ".player-title").text == episode["title"]
    value = lambda: float(bar.get_attribute("value"))  # noqa: E731
    duration = float(bar.get_attribute("max"))
    assert duration > 20, duration

    width = bar.size["width"]
    hold = ActionChains(driver).click_and_hold(bar).move_by_offset(int(width * 0.2), 0)
    hold.perform()
    held = value()
    assert abs(held - 0.7 * duration) < 0.06 * duration, (held, duration)
    time.sleep(1.3)  # server time updates keep arriving; the thumb must not follow them
    assert abs(value() - held) <= 1, f"thumb moved while held: {held} → {value()}"

    ActionChains(driver).release().perform()
    dropped = value()
    assert abs(dropped - held) <= 1
    wait_until(lambda: abs(server.state()["position"] - dropped) <= 2, timeout=5,
               message=f"the server to seek near {dropped}")
    time.sleep(1.3)
    after = value()
    assert dropped - 1 <= after <= dropped + 4, f"thumb jumped after release: {dropped} → {after}"
    elapsed = clock_seconds(by_css(driver, ".scrubber .elapsed").text)
    assert abs(elapsed - after) <= 2


def test_media_session_describes_the_episode_and_the_keepalive_mirrors_the_server(server, driver):
    episode = demo_episode(server)
    open_page(driver, server, "/")
    play_from_start(driver, server, episode)
    by_css(driver, "h1").click()  # a user gesture lets the keep-alive clip start
    metadata = wait_until(lambda: driver.execute_script(
        "const m = navigator.mediaSession.metadata;"
        "return m && m.title === arguments[0] && {title: m.title, artist: m.artist, album: m.album,"
        " state: navigator.mediaSession.playbackState}", episode["title"]), message="media session metadata")
    assert metadata == {"title": episode["title"], "artist": "Earshot Demo", "album": "Earshot", "state": "playing"}

    clip = "const a = document.querySelector('audio.keepalive'); return a && [a.paused, a.currentTime, a.muted, a.volume];"
    paused, current_time, muted, volume = wait_until(
        lambda: (c := driver.execute_script(clip)) and not c[0] and c[1] > 0 and c,
        message="the keep-alive clip to play (blocked by the page's Content-Security-Policy?)")
    assert not muted and 0 < volume < 0.5

    # Something else pauses the clip (a call) and a host update is handled before the clip's
    # 'pause' event is (both are queued tasks): the clip stays paused while the host plays on.
    still_paused = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/core/player-state.js').then(({ player }) => {
          const a = document.querySelector('audio.keepalive');
          a.pause();
          const { position, duration, rate } = player.state;  // no seq: applied whatever the last one was
          player.apply({ type: 'time', position, duration, rate, paused: false });
          setTimeout(() => done(a.paused), 700);
        }, (error) => done(String(error)));
    """)
    assert still_paused is True, f"the interrupted clip was started again: {still_paused}"
    assert not server.state()["paused"], "the clip's pause must not pause the host"

    command(driver, "pause")
    wait_until(lambda: driver.execute_script("return navigator.mediaSession.playbackState") == "paused",
               message="playbackState paused")
    wait_until(lambda: driver.execute_script(clip)[0], message="the keep-alive clip to pause with the server")

    # The per-device switch: off means no keep-alive audio at all.
    command(driver, "resume")
    tap(driver, by_css(driver, "#mini-player"))
    switch = wait_until(lambda: by_css(driver, ".switch-input"), message="the lock-screen switch")
    assert switch.is_selected()
    tap(driver, by_css(driver, ".switch"))
    wait_until(lambda: driver.execute_script("return document.querySelector('audio.keepalive') === null"),
               message="the keep-alive clip to go away")
    assert driver.execute_script("return localStorage.getItem('earshot.mediaSession')") == "off"
    tap(driver, by_css(driver, ".switch"))
    assert driver.execute_script("return localStorage.getItem('earshot.mediaSession')") == "on"


def test_keyboard_space_toggles_and_arrows_skip(server, driver):
    episode = demo_episode(server)
    open_page(driver, server, "/")
    play_from_start(driver, server, episode)
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    keys = lambda key: ActionChains(driver).send_keys(key).perform()  # noqa: E731

    for expected in (True, False):
        keys(Keys.SPACE)
        wait_until(lambda: server.state()["paused"] is expected, timeout=5, message=f"paused == {expected}")

    keys(Keys.SPACE)
    wait_until(lambda: server.state()["paused"] is True, timeout=5, message="paused for the skip checks")
    assert command(driver, "seek", to=20)["type"] == "ack"
    wait_until(lambda: abs(server.state()["position"] - 20) < 0.5, timeout=5, message="position 20")
    # The default intervals: 30 s forward, 15 s back.
    keys(Keys.ARROW_RIGHT)
    wait_until(lambda: abs(server.state()["position"] - 50) < 0.5, timeout=5, message="→ skips to 50")
    keys(Keys.ARROW_LEFT)
    wait_until(lambda: abs(server.state()["position"] - 35) < 0.5, timeout=5, message="← skips back to 35")

    keys("?")
    assert wait_until(lambda: driver.execute_script("return document.getElementById('shortcuts').open"),
                      message="the shortcuts dialog")
    keys(Keys.ESCAPE)
    wait_until(lambda: not driver.execute_script("return document.getElementById('shortcuts').open"),
               message="Esc closes the dialog")
    # After using the scrubber (focus stays on it) space still plays/pauses and arrows still skip.
    open_page(driver, server, "/player")
    scrubber = wait_until(lambda: driver.find_element("css selector", ".player input[type=range]"), message="the scrubber")
    driver.execute_script("arguments[0].focus()", scrubber)
    before = server.state()["position"]
    keys(Keys.SPACE)
    wait_until(lambda: server.state()["paused"] is False, timeout=5, message="space on the focused scrubber plays")
    keys(Keys.SPACE)
    wait_until(lambda: server.state()["paused"] is True, timeout=5, message="and pauses again")
    keys(Keys.ARROW_RIGHT)
    wait_until(lambda: server.state()["position"] > before + 29 or server.state()["position"] >= server.state()["duration"] - 1,
               timeout=5, message="→ on the scrubber skips 30 s")
    open_page(driver, server, "/")
    # Typing in the feed field is typing, not a shortcut.
    by_css(driver, "#feed-url").send_keys(" ")
    time.sleep(0.5)
    assert server.state()["paused"] is True
