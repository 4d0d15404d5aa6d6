"""Listening statistics (issue 18): a scripted session — 4 s at 1×, a pause, 4 s at 2×, with the
podcast's intro skip of 5 s acting at the start — is what GET /api/stats and the /stats page show
afterwards (within 1 s), reached from the full player; the chart is SVG drawn by the page."""

import time

from conftest import SCREENSHOTS, all_css, by_css, command, demo_episode, open_page, set_viewport, tap, wait_until
from test_controls import open_player


def shot(browser, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def playing_for(server, seconds):
    """Waits until the episode really plays, then lets it play `seconds` (wall time)."""
    wait_until(lambda: (s := server.state())["episode"] and not s["paused"] and not s["buffering"],
               message="the episode to play")
    time.sleep(seconds)


def test_a_scripted_session_is_what_the_stats_show(own_server, driver):
    server = own_server
    episode = demo_episode(server)
    open_page(driver, server, "/")
    empty = server.get_json("/api/stats?period=week")
    assert empty["listenedSeconds"] == 0 and empty["podcasts"] == [] and len(empty["days"]) == 7, empty

    assert command(driver, "podcast.settings", podcast=episode["podcastId"], introSkip=5)["type"] == "ack"
    assert command(driver, "play", episode=episode["id"])["type"] == "ack"
    playing_for(server, 4)
    assert command(driver, "pause")["type"] == "ack"
    time.sleep(1)  # paused: not listening
    assert command(driver, "rate", value=2)["type"] == "ack"
    assert command(driver, "resume")["type"] == "ack"
    playing_for(server, 4)
    assert command(driver, "pause")["type"] == "ack"

    stats = server.get_json("/api/stats?period=week")
    assert abs(stats["listenedSeconds"] - 8) <= 1, stats
    assert abs(stats["savedSeconds"]["speed"] - 4) <= 1, f"4 s at 2× saves 4 s: {stats['savedSeconds']}"
    assert stats["savedSeconds"]["intro"] == 5, stats["savedSeconds"]
    assert stats["savedSeconds"]["silence"] == 0 and stats["savedSeconds"]["outro"] == 0 and stats["savedSeconds"]["chapters"] == 0
    assert stats["finished"] == 0
    assert [(p["id"], p["title"]) for p in stats["podcasts"]] == [(episode["podcastId"], "Earshot Demo")]
    assert stats["days"][-1]["listenedSeconds"] == stats["listenedSeconds"], stats["days"]
    assert sum(d["listenedSeconds"] for d in stats["days"]) == stats["listenedSeconds"]
    assert server.get_json("/api/stats?period=all")["listenedSeconds"] == stats["listenedSeconds"]
    status, body = bad_period(server)
    assert status == 400 and "period must be week, month or all" in body, (status, body)

    # The page, from the full player.
    open_player(driver, server)
    tap(driver, by_css(driver, ".player-stats-link"))
    wait_until(lambda: driver.current_url.endswith("/stats"), message="the stats page")
    wait_until(lambda: by_css(driver, ".stats-listened").text != "", message="the figures")
    minutes = round(stats["listenedSeconds"])
    assert by_css(driver, ".stats-listened").text == f"{minutes} s", by_css(driver, ".stats-listened").text
    assert by_css(driver, ".stats-finished").text == "0"
    assert by_css(driver, '.stats-saved-list [data-saved="intro"]').text == "5 s"
    bars = all_css(driver, ".stats-svg rect.stats-bar")
    assert len(bars) == 7, f"{len(bars)} bars for a week"
    assert float(bars[-1].get_attribute("data-seconds")) == stats["days"][-1]["listenedSeconds"]
    assert [e.text for e in all_css(driver, ".stats-podcast-title")] == ["Earshot Demo"]
    shot(driver, "stats-week-desktop")
    tap(driver, by_css(driver, '.stats-period[data-period="month"]'))
    wait_until(lambda: len(all_css(driver, ".stats-svg rect.stats-bar")) == 30, message="30 bars for a month")
    tap(driver, by_css(driver, '.stats-period[data-period="all"]'))
    wait_until(lambda: len(all_css(driver, ".stats-svg rect.stats-bar")) == 1, message="one bar per month for all time")
    set_viewport(driver, 390, 844, mobile=True)
    tap(driver, by_css(driver, '.stats-period[data-period="week"]'))
    wait_until(lambda: len(all_css(driver, ".stats-svg rect.stats-bar")) == 7, message="the week again")
    width, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the stats page overflows sideways at phone size: {width} > {inner}"
    driver.execute_script("document.querySelector('.stats-chart').scrollIntoView({block: 'center'})")
    shot(driver, "stats-week-phone")
    set_viewport(driver, 1280, 800)


def bad_period(server):
    import urllib.error
    import urllib.request
    try:
        with urllib.request.urlopen(server.url + "/api/stats?period=year", timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
