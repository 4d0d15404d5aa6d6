"""Skip silence and volume leveling from the web UI (issue 18): the player's defaults (shown on
a second client), a podcast's own choice in its Skips fold ("Default (…)" names what applies),
and mpv's filter chain following while an episode plays."""

from selenium.webdriver.support.ui import Select

from conftest import SCREENSHOTS, by_css, open_page, set_viewport, tap, wait_until, overflow
from test_controls import open_player, start
from test_queue import second_browser


def settings(server):
    return server.state()["settings"]


def shot(browser, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def test_skip_silence_and_leveling_from_the_player_and_the_podcast_page(own_server, driver):
    server = own_server
    episode = start(driver, server)
    podcast = episode["podcastId"]
    other = second_browser()
    try:
        open_player(driver, server)
        silence = Select(by_css(driver, ".player .skip-silence-select"))
        leveling = Select(by_css(driver, ".player .leveling-select"))
        assert silence.first_selected_option.text == "Off" and leveling.first_selected_option.text == "Off"
        assert [o.text for o in silence.options] == ["Off", "Mild", "Medium", "Strong"]
        assert [o.text for o in leveling.options] == ["Off", "Even loudness", "Voice boost"]
        open_player(other, server)

        silence.select_by_value("strong")
        leveling.select_by_value("normalize")
        wait_until(lambda: settings(server)["skipSilence"] == "strong" and settings(server)["leveling"] == "normalize",
                   message="the server keeps the player's defaults")
        theirs = Select(by_css(other, ".player .skip-silence-select"))
        wait_until(lambda: theirs.first_selected_option.text == "Strong", message="the second client shows Strong")
        wait_until(lambda: Select(by_css(other, ".player .leveling-select")).first_selected_option.text == "Even loudness",
                   message="the second client shows Even loudness")
        shot(driver, "listening-player-desktop")
        set_viewport(driver, 390, 844, mobile=True)
        by_css(driver, ".listening-settings").location_once_scrolled_into_view
        width, inner = overflow(driver)
        assert width <= inner, f"the player overflows sideways at phone size: {width} > {inner}"
        shot(driver, "listening-player-phone")
        set_viewport(driver, 1280, 800)

        # The podcast's own: "Default (Strong)" until it has one.
        open_page(driver, server, f"/podcast/{podcast}")
        tap(driver, wait_until(lambda: by_css(driver, ".podcast-skips summary"), message="the skips fold"))
        own = Select(wait_until(lambda: by_css(driver, ".podcast-silence-select"), message="the podcast's skip silence"))
        wait_until(lambda: own.first_selected_option.text == "Default (Strong)", message="Default names the player's choice")
        own.select_by_value("off")
        wait_until(lambda: settings(server)["podcasts"].get(str(podcast), {}).get("skipSilence") == "off",
                   message="the server keeps the podcast's own skip silence")
        own_level = Select(by_css(driver, ".podcast-leveling-select"))
        own_level.select_by_value("boost")
        wait_until(lambda: settings(server)["podcasts"][str(podcast)].get("leveling") == "boost", message="the podcast's own leveling")
        wait_until(lambda: by_css(driver, ".podcast-skips .skips-summary").text == "silence off · voice boost",
                   message="the fold's summary says what is its own")
        shot(driver, "listening-podcast-desktop")
        own.select_by_value("default")
        Select(by_css(driver, ".podcast-leveling-select")).select_by_value("default")
        wait_until(lambda: str(podcast) not in settings(server)["podcasts"], message="back to the defaults: nothing of its own")
        wait_until(lambda: by_css(driver, ".podcast-skips .skips-summary").text == "Off", message="the summary says Off")
    finally:
        other.quit()
