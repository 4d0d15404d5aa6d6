"""The played margin in the full player: chosen in one browser, the server keeps it and another
browser shows it; a value set elsewhere (another client, --played-margin) appears as a choice."""

from selenium.webdriver.support.ui import Select

from conftest import (by_css, command, demo_episode, open_page, overflow, play_from_start, set_viewport, small_targets,
                      tap, wait_until)
from screens import match_baseline, rewind
from test_queue import second_browser


def margin(server):
    return server.state()["settings"]["playedMargin"]


def open_player(browser, server):
    open_page(browser, server, "/")
    tap(browser, by_css(browser, "#mini-player"))
    wait_until(lambda: browser.current_url.endswith("/player"), message="the full player")
    return Select(by_css(browser, ".player .played-margin-select"))


def test_played_margin_from_the_player(own_server, driver):
    server = own_server  # a fresh library and settings: the screenshots must not show what earlier tests left
    assert margin(server) == 30, "the default"
    open_page(driver, server, "/")
    play_from_start(driver, server, demo_episode(server))
    other = second_browser()
    try:
        select = open_player(driver, server)
        theirs = open_player(other, server)
        assert select.first_selected_option.get_attribute("value") == "30"
        assert select.first_selected_option.text == "30 s"
        assert [o.text for o in select.options] == ["Only at the end", "10 s", "30 s", "1 min", "2 min", "5 min", "10 min"]
        label = by_css(driver, ".player .played-margin")
        assert label.text.startswith("Played in the last")
        assert small_targets(driver, ".player select") == []

        select.select_by_value("120")
        wait_until(lambda: margin(server) == 120, message="the server to take 2 min")
        wait_until(lambda: theirs.first_selected_option.get_attribute("value") == "120", message="the other player")
        assert theirs.first_selected_option.text == "2 min"

        # Another client picks a value the menu does not offer: it shows up, selected.
        assert command(driver, "settings", playedMargin=45)["type"] == "ack"
        wait_until(lambda: select.first_selected_option.get_attribute("value") == "45", message="45 s here")
        assert select.first_selected_option.text == "45 s"
        wait_until(lambda: theirs.first_selected_option.text == "45 s", message="45 s there")
        assert command(driver, "settings", playedMargin=601)["type"] == "error"
        assert margin(server) == 45

        for size, (width, height) in {"desktop": (1280, 800), "phone": (390, 844)}.items():
            set_viewport(driver, width, height, mobile=size == "phone")
            try:
                rewind(driver, server)  # the chapter list below shows the same chapter every run
                control = by_css(driver, ".player .played-margin")
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", control)
                match_baseline(driver, f"player-played-margin-{size}")
                assert control.is_displayed()
                scroll_width, inner = overflow(driver)
                assert scroll_width <= inner, f"the player overflows sideways: {scroll_width} > {inner}"
            finally:
                set_viewport(driver, 1280, 800)
    finally:
        other.quit()
        command(driver, "settings", playedMargin=30)
        command(driver, "stop")
