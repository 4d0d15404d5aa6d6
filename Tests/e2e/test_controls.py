"""The player's controls from the page: speed (menu, − / +, keys, the mini-player), the speed a
podcast starts at (its page), volume and mute (slider, button, keys; large on a phone), the skip
intervals (buttons, keys, the lock screen's seek actions) and the sleep timer (menu, countdown in
the mini-player here and on a second client, the fade's end, a reload)."""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import (by_css, command, demo_episode, open_page, overflow, play_from_start, set_viewport,
                      small_targets, tap, wait_until)
from screens import match_baseline, rewind
from test_queue import second_browser

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def state(server):
    return server.state()


def open_player(browser, server):
    """The full player by a tap on the mini-player (the episode must be loaded)."""
    open_page(browser, server, "/")
    tap(browser, wait_until(lambda: (bar := by_css(browser, "#mini-player")).is_displayed() and bar,
                            message="the mini-player"))
    wait_until(lambda: browser.current_url.endswith("/player"), message="the full player")
    return wait_until(lambda: by_css(browser, ".player .speed-select"), message="the speed menu")


def start(browser, server, episode=None):
    """Opens the library and plays `episode` (the longest demo episode) from the start."""
    episode = episode or demo_episode(server)
    open_page(browser, server, "/")
    play_from_start(browser, server, episode)
    return episode


def keys(browser, *sequence):
    browser.execute_script("document.activeElement && document.activeElement.blur()")
    ActionChains(browser).send_keys(*sequence).perform()


def mini_text(browser, selector):
    """The mini-player part's text, or None while it is hidden."""
    return browser.execute_script("""
        const el = document.querySelector(arguments[0]);
        return el && !el.hidden && el.getClientRects().length ? el.textContent : null;
    """, selector)


def clock_seconds(text):
    parts = [int(p) for p in text.strip().split(":")]
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return seconds


def screenshots(driver, name, element_selector=None, playing=None):
    """`name`-desktop and `name`-phone compared with their baselines; `playing`: the server, when an
    episode plays (rewound first, so each shows the same chapter every run)."""
    for size, (width, height) in SIZES.items():
        set_viewport(driver, width, height, mobile=size == "phone")
        try:
            if playing:
                rewind(driver, playing)
            if element_selector:
                driver.execute_script("document.querySelector(arguments[0])?.scrollIntoView({block: 'center'})", element_selector)
            time.sleep(0.3)
            match_baseline(driver, f"{name}-{size}")
            scroll_width, inner = overflow(driver)
            assert scroll_width <= inner, f"{name} overflows sideways at {size}: {scroll_width} > {inner}"
        finally:
            set_viewport(driver, 1280, 800)


def test_speed_menu_steppers_keys_and_mini_player(own_server, driver):
    server = own_server  # a fresh library: the screenshots must not show what earlier tests left
    start(driver, server)
    other = second_browser()
    try:
        select = Select(open_player(driver, server))
        assert select.first_selected_option.text == "1×"
        assert [o.text for o in select.options][:4] == ["0.5×", "0.75×", "0.9×", "1×"]
        assert select.options[-1].text == "3×"
        assert small_targets(driver, ".player-controls button, .player-controls select") == []

        select.select_by_value("1.5")
        wait_until(lambda: state(server)["rate"] == 1.5, message="the server at 1.5×")
        tap(driver, by_css(driver, ".speed-faster"))
        wait_until(lambda: state(server)["rate"] == 1.55, message="+ steps 0.05")
        wait_until(lambda: select.first_selected_option.text == "1.55×", message="1.55× shown, though not a preset")
        # Each step counts from the speed the page shows: wait for it before the next (on a busy machine the
        # page renders the server's new state a moment later).
        tap(driver, by_css(driver, ".speed-slower"))
        wait_until(lambda: select.first_selected_option.text == "1.5×", message="1.5× shown")
        tap(driver, by_css(driver, ".speed-slower"))
        wait_until(lambda: state(server)["rate"] == 1.45, message="− twice")
        wait_until(lambda: select.first_selected_option.text == "1.45×", message="1.45× shown")
        keys(driver, "]")
        wait_until(lambda: state(server)["rate"] == 1.55, message="] is 0.1× faster")
        wait_until(lambda: select.first_selected_option.text == "1.55×", message="1.55× shown")
        keys(driver, "[")
        wait_until(lambda: select.first_selected_option.text == "1.45×", message="1.45× shown again")
        keys(driver, "[")
        wait_until(lambda: state(server)["rate"] == 1.35, message="[ twice")

        # The mini-player shows the speed (not at 1×), here and on another client.
        open_page(other, server, "/")
        wait_until(lambda: mini_text(other, "#mini-player .mini-speed") == "1.35×", message="1.35× in the other mini-player")
        open_page(driver, server, "/")
        assert mini_text(driver, "#mini-player .mini-speed") == "1.35×"
        screenshots(driver, "mini-player-speed", playing=server)
        assert command(other, "rate", value=1)["type"] == "ack"
        wait_until(lambda: mini_text(driver, "#mini-player .mini-speed") is None, message="1× hides it")

        # The shortcuts list names the new keys.
        keys(driver, "?")
        listed = wait_until(lambda: by_css(driver, "#shortcuts").get_attribute("open") is not None
                            and by_css(driver, "#shortcuts .shortcut-list").text, message="the shortcuts dialog")
        for words in ("Slower / faster", "Volume up / down", "Mute / unmute", "Sleep timer"):
            assert words in listed, listed
        screenshots(driver, "shortcuts", playing=server)
        keys(driver, Keys.ESCAPE)
    finally:
        other.quit()
        command(driver, "rate", value=1)


def test_a_podcast_speed_from_its_page_applies_when_its_episodes_start(own_server, driver):
    server = own_server  # a fresh library: the screenshots must not show what earlier tests left
    episode = demo_episode(server)
    open_page(driver, server, f"/podcast/{episode['podcastId']}")
    command(driver, "stop")
    select = Select(wait_until(lambda: by_css(driver, ".podcast-speed .speed-select"), message="the podcast's speed menu"))
    assert select.first_selected_option.text == "Usual speed"
    other = second_browser()
    try:
        open_page(other, server, f"/podcast/{episode['podcastId']}")
        theirs = Select(by_css(other, ".podcast-speed .speed-select"))
        select.select_by_value("1.25")
        key = str(episode["podcastId"])
        wait_until(lambda: state(server)["settings"]["podcastSpeeds"].get(key) == 1.25, message="the server keeps 1.25×")
        wait_until(lambda: theirs.first_selected_option.text == "1.25×", message="the other page shows it")
        screenshots(driver, "podcast-speed", ".podcast-speed")

        play_from_start(driver, server, episode)
        wait_until(lambda: state(server)["rate"] == 1.25, message="its episode starts at 1.25×")
        theirs.select_by_value("")
        wait_until(lambda: key not in state(server)["settings"]["podcastSpeeds"], message="Usual speed clears it")
        wait_until(lambda: select.first_selected_option.text == "Usual speed", message="and this page shows it")
    finally:
        other.quit()
        command(driver, "podcast.speed", podcast=episode["podcastId"], rate=None)
        command(driver, "rate", value=1)
        command(driver, "stop")


def test_volume_slider_mute_and_keys_and_a_large_phone_control(own_server, driver):
    server = own_server  # a fresh library: the screenshots must not show what earlier tests left
    start(driver, server)
    try:
        open_player(driver, server)
        slider = by_css(driver, ".volume-input")
        assert slider.get_attribute("max") == "130"
        assert by_css(driver, ".volume-value").text == "100 %"
        # A tap near the right end: above 100 %.
        width = slider.size["width"]
        ActionChains(driver).move_to_element_with_offset(slider, int(width * 0.45), 0).click().perform()
        wait_until(lambda: 110 <= state(server)["volume"] <= 130, message="the server above 100 %")
        volume = state(server)["volume"]
        assert by_css(driver, ".volume-value").text == f"{round(volume)} %"
        assert "is-loud" in by_css(driver, ".volume").get_attribute("class")

        mute = by_css(driver, ".volume-mute")
        tap(driver, mute)
        wait_until(lambda: state(server)["muted"] is True, message="muted")
        wait_until(lambda: mute.get_attribute("aria-pressed") == "true", message="the button shows it")
        assert mute.get_attribute("aria-label") == "Unmute"
        keys(driver, "m")
        wait_until(lambda: state(server)["muted"] is False, message="m unmutes")

        assert command(driver, "volume", value=50)["type"] == "ack"
        wait_until(lambda: slider.get_attribute("value") == "50", message="another client's volume moves the slider")
        keys(driver, Keys.ARROW_UP)
        wait_until(lambda: state(server)["volume"] == 55, message="↑ is 5 % louder")
        keys(driver, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
        wait_until(lambda: state(server)["volume"] == 45, message="↓ twice")
        # Arrows on the focused slider move the slider, not the page's shortcuts.
        # The slider must show 45 before it is moved from there (on a busy machine the page can render
        # the new state a moment after the server has it).
        wait_until(lambda: slider.get_attribute("value") == "45", message="the slider shows 45")
        driver.execute_script("arguments[0].focus()", slider)
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
        wait_until(lambda: state(server)["volume"] == 46, message="→ on the slider is +1 %")

        # The phone: the control is the whole width and large enough for a thumb.
        set_viewport(driver, 390, 844, mobile=True)
        try:
            box = by_css(driver, ".volume")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
            time.sleep(0.3)
            assert box.rect["width"] >= 340, box.rect
            assert slider.rect["height"] >= 52 and slider.rect["width"] >= 200, slider.rect
            assert mute.rect["width"] >= 52 and mute.rect["height"] >= 52, mute.rect
            thumb = driver.execute_script(
                "return parseFloat(getComputedStyle(arguments[0]).getPropertyValue('--thumb')) * "
                "parseFloat(getComputedStyle(document.documentElement).fontSize)", slider)
            assert thumb >= 32, thumb
            assert small_targets(driver, ".player button, .player select, .player input:not(.switch-input)") == []
        finally:
            set_viewport(driver, 1280, 800)
        screenshots(driver, "player-volume", ".volume", playing=server)
    finally:
        command(driver, "volume", value=100)
        command(driver, "mute", on=False)


def test_skip_intervals_drive_buttons_keys_and_the_lock_screen(own_server, driver):
    server = own_server  # a fresh library: the screenshots must not show what earlier tests left
    episode = start(driver, server)
    other = second_browser()
    try:
        open_player(driver, server)
        back = by_css(driver, ".transport-skip[data-by^='-']")
        forward = by_css(driver, ".transport-skip:not([data-by^='-'])")
        assert back.get_attribute("aria-label") == "Back 15 seconds"
        assert forward.get_attribute("aria-label") == "Forward 30 seconds", "the default: 15 back, 30 forward"
        assert forward.find_element("css selector", ".icon-number").text == "30"

        Select(by_css(driver, ".skip-back-select")).select_by_value("10")
        Select(by_css(driver, ".skip-forward-select")).select_by_value("20")
        wait_until(lambda: (s := state(server)["settings"])["skipBack"] == 10 and s["skipForward"] == 20,
                   message="the server keeps 10 / 20")
        wait_until(lambda: forward.get_attribute("aria-label") == "Forward 20 seconds", message="the buttons follow")
        assert back.get_attribute("aria-label") == "Back 10 seconds"
        assert back.find_element("css selector", ".icon-number").text == "10"
        screenshots(driver, "player-skip-intervals", ".skip-intervals", playing=server)

        assert command(driver, "pause")["type"] == "ack"
        assert command(driver, "seek", to=5)["type"] == "ack"
        wait_until(lambda: abs(state(server)["position"] - 5) < 0.3, message="at 5 s")
        tap(driver, forward)
        wait_until(lambda: abs(state(server)["position"] - 25) < 0.3, message="the button: +20")
        tap(driver, back)
        wait_until(lambda: abs(state(server)["position"] - 15) < 0.3, message="the button: −10")
        keys(driver, Keys.ARROW_RIGHT)
        wait_until(lambda: abs(state(server)["position"] - 35) < 0.3, message="→: +20")
        keys(driver, Keys.ARROW_LEFT)
        wait_until(lambda: abs(state(server)["position"] - 25) < 0.3, message="←: −10")

        # The lock screen's seek actions on another device: the same intervals.
        open_page(other, server, "/")
        wait_until(lambda: other.execute_script("return (window.__mediaHandlers?.seekforward ?? null) !== null"),
                   message="the media session handlers")
        other.execute_script("window.__mediaHandlers.seekforward({action: 'seekforward'})")
        wait_until(lambda: abs(state(server)["position"] - 45) < 0.3, message="seekforward: +20")
        other.execute_script("window.__mediaHandlers.seekbackward({action: 'seekbackward'})")
        wait_until(lambda: abs(state(server)["position"] - 35) < 0.3, message="seekbackward: −10")
        other.execute_script("window.__mediaHandlers.seekbackward({action: 'seekbackward', seekOffset: 5})")
        wait_until(lambda: abs(state(server)["position"] - 30) < 0.3, message="the browser's own offset wins")
    finally:
        other.quit()
        command(driver, "settings", skipBack=15, skipForward=30)
        command(driver, "stop")


def test_sleep_menu_countdown_everywhere_fade_end_and_reload(own_server, driver):
    server = own_server  # a fresh library: the screenshots must not show what earlier tests left
    start(driver, server)
    other = second_browser()
    try:
        open_player(driver, server)
        button = by_css(driver, ".sleep-button")
        assert button.text == "Sleep"
        tap(driver, button)
        dialog = wait_until(lambda: (d := by_css(driver, ".sleep-dialog")).get_attribute("open") is not None and d,
                            message="the sleep menu")
        presets = [b.text for b in dialog.find_elements("css selector", ".sleep-preset")]
        assert presets == ["5 min", "10 min", "15 min", "30 min", "45 min", "1 h", "90 min", "2 h"]
        assert dialog.find_element("css selector", ".sleep-status").text == "Off"
        chapters = wait_until(lambda: state(server)["chapters"], message="the episode's chapters (ID3, from the file)")
        assert dialog.find_element("css selector", ".sleep-until-chapter").get_attribute("disabled") is None
        assert small_targets(driver, ".sleep-dialog button, .sleep-dialog input") == []
        screenshots(driver, "sleep-menu", playing=server)
        tap(driver, dialog.find_element("css selector", ".sleep-preset[data-minutes='15']"))
        wait_until(lambda: (s := state(server)["sleep"]) and s["mode"] == "minutes" and 890 < s["remaining"] <= 900,
                   message="a 15 min timer on the server")
        wait_until(lambda: not by_css(driver, ".sleep-dialog").get_attribute("open"), message="the menu closes")
        wait_until(lambda: "is-set" in button.get_attribute("class"), message="the button shows the countdown")
        assert 14 * 60 + 40 <= clock_seconds(button.text) <= 15 * 60, button.text
        screenshots(driver, "player-sleep-set", ".player-controls", playing=server)

        # The countdown in the mini-player, here and on a second client; it moves while playing.
        open_page(driver, server, "/")
        open_page(other, server, "/")
        mine = wait_until(lambda: mini_text(driver, "#mini-player .mini-sleep-time"), message="the countdown here")
        theirs = wait_until(lambda: mini_text(other, "#mini-player .mini-sleep-time"), message="the countdown there")
        assert abs(clock_seconds(mine) - clock_seconds(theirs)) <= 2, (mine, theirs)
        time.sleep(2.2)
        later = mini_text(other, "#mini-player .mini-sleep-time")
        assert 1 <= clock_seconds(theirs) - clock_seconds(later) <= 4, (theirs, later)
        screenshots(driver, "mini-player-sleep", playing=server)

        # s opens the menu anywhere; +5 min and a custom number; then off.
        keys(driver, "s")
        dialog = wait_until(lambda: (d := by_css(driver, ".sleep-dialog")).get_attribute("open") is not None and d,
                            message="s opens the menu")
        assert dialog.find_element("css selector", ".sleep-status").text.startswith("Stops in ")
        tap(driver, dialog.find_element("css selector", ".sleep-extend[data-minutes='5']"))
        wait_until(lambda: 1180 < state(server)["sleep"]["remaining"] <= 1200, message="+5 min")
        custom = dialog.find_element("css selector", ".sleep-custom-input")
        custom.send_keys("7")
        tap(driver, dialog.find_element("css selector", ".sleep-custom-set"))
        wait_until(lambda: 410 < state(server)["sleep"]["remaining"] <= 420, message="a custom 7 min")
        # A reload: the timer lives on the server.
        open_page(driver, server, "/")
        wait_until(lambda: 6 * 60 + 40 <= clock_seconds(mini_text(driver, "#mini-player .mini-sleep-time") or "0") <= 7 * 60,
                   message="the countdown after a reload")
        keys(driver, "s")
        tap(driver, wait_until(lambda: by_css(driver, ".sleep-dialog .sleep-cancel"), message="Turn off"))
        wait_until(lambda: state(server)["sleep"] is None, message="off on the server")
        wait_until(lambda: mini_text(other, "#mini-player .mini-sleep") is None, message="off on the other client")

        # The end of the episode: the countdown follows the position.
        keys(driver, "s")
        tap(driver, wait_until(lambda: by_css(driver, ".sleep-dialog .sleep-until-episode"), message="End of this episode"))
        wait_until(lambda: (s := state(server)["sleep"]) and s["mode"] == "episode", message="until the episode's end")
        st = state(server)
        left = (st["duration"] - st["position"]) / st["rate"]
        shown = clock_seconds(wait_until(lambda: mini_text(other, "#mini-player .mini-sleep-time"), message="there"))
        assert abs(shown - left) <= 3, (shown, left)

        # The end of this chapter: where the next one starts.
        keys(driver, "s")
        tap(driver, wait_until(lambda: by_css(driver, ".sleep-dialog .sleep-until-chapter"), message="End of this chapter"))
        wait_until(lambda: (s := state(server)["sleep"]) and s["mode"] == "chapter", message="until the chapter's end")
        st = state(server)
        starts, end, position = [c["start"] for c in chapters], st["sleep"]["end"], st["position"]
        if end is None:  # the last chapter: the episode's end
            assert starts[-1] <= position + 0.5, (st["sleep"], starts, position)
        else:  # the next chapter's start (the state's position may lag mpv's by a look)
            assert end in starts and end > position - 0.5, (st["sleep"], starts, position)
            assert starts.index(end) == 0 or starts[starts.index(end) - 1] <= position + 0.5, (st["sleep"], starts, position)

        # A 3 s timer: both clients count down, the server fades, pauses, and both see the end.
        assert command(other, "sleep", minutes=0.05)["type"] == "ack"
        wait_until(lambda: (s := state(server)["sleep"]) and s["mode"] == "minutes", message="a 3 s timer")
        wait_until(lambda: clock_seconds(mini_text(driver, "#mini-player .mini-sleep-time") or "9:99") <= 3,
                   message="3 s here")
        wait_until(lambda: state(server)["paused"] is True and state(server)["sleep"] is None, timeout=8,
                   message="the server paused by the timer")
        assert state(server)["volume"] == 100
        for browser in (driver, other):
            wait_until(lambda: mini_text(browser, "#mini-player .mini-sleep") is None, message="the countdown gone")
            wait_until(lambda: by_css(browser, "#mini-player .mini-toggle").get_attribute("aria-label") == "Play",
                       message="the mini-player shows paused")
    finally:
        other.quit()
        command(driver, "sleep.cancel")
        command(driver, "stop")
