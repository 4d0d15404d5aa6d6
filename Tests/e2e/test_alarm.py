"""The alarm from the web UI (issue 18), under a fixed clock: the server starts with its clock at
07:29:56 today (EARSHOT_TEST_CLOCK), the alarm is set for 07:30 today's weekday from the empty
full player with the demo podcast's newest episode; four seconds later it plays, every client
shows it ringing, and a second client turns it off."""

import datetime
import os
import time


from conftest import SCREENSHOTS, all_css, by_css, open_page, private_server, set_viewport, tap, wait_until
from test_queue import second_browser


def shot(browser, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def test_the_alarm_rings_at_its_time_and_any_client_turns_it_off(driver):
    today = datetime.date.today()
    clock = time.mktime(datetime.datetime.combine(today, datetime.time(7, 29, 56)).timetuple())
    weekday = today.isoweekday()
    os.environ["EARSHOT_TEST_CLOCK"] = str(clock)
    try:
        context = private_server("earshot-e2e-alarm-")
        server = context.__enter__()
    finally:
        del os.environ["EARSHOT_TEST_CLOCK"]
    other = None
    try:
        demo = [p for p in server.get_json("/api/podcasts")["podcasts"] if p["title"] == "Earshot Demo"][0]
        episodes = server.get_json(f"/api/podcasts/{demo['id']}/episodes")["episodes"]
        newest = max(episodes, key=lambda e: e["published"] or 0)

        open_page(driver, server, "/player")
        button = wait_until(lambda: (b := by_css(driver, ".player-empty .alarm-button")).is_displayed() and b,
                            message="the alarm button with nothing playing")
        assert button.text == "Alarm"
        tap(driver, button)
        dialog = wait_until(lambda: (d := by_css(driver, ".alarm-dialog")).is_displayed() and d, message="the alarm dialog")
        time_field = by_css(driver, ".alarm-time")
        driver.execute_script("arguments[0].value = '07:30'; arguments[0].dispatchEvent(new Event('input'))", time_field)
        for box in all_css(driver, ".alarm-day-box"):
            wanted = int(box.get_attribute("value")) == weekday
            if box.is_selected() != wanted:
                tap(driver, box.find_element("xpath", ".."))
        tap(driver, by_css(driver, ".alarm-source-podcasts"))
        demo_box = wait_until(lambda: by_css(driver, f'.alarm-podcasts input[value="{demo["id"]}"]'), message="the demo podcast's box")
        tap(driver, demo_box)
        set_viewport(driver, 390, 844, mobile=True)
        shot(driver, "alarm-dialog-phone")
        set_viewport(driver, 1280, 800)
        tap(driver, by_css(driver, ".alarm-set"))
        wait_until(lambda: not dialog.is_displayed(), message="the dialog closes once the server took it")
        alarm = server.state()["alarm"]
        assert alarm["time"] == "07:30" and alarm["days"] == [weekday] and alarm["podcasts"] == [demo["id"]], alarm
        assert not alarm["ringing"] and alarm["next"] == clock + 4, alarm
        assert by_css(driver, ".player-empty .alarm-button").text == "07:30"

        # It rings: the newest demo episode plays, and the page shows it ringing.
        state = wait_until(lambda: (s := server.state())["alarm"]["ringing"] and s, timeout=15, message="the alarm to ring")
        assert state["episode"]["id"] == newest["id"] and not state["paused"], state["episode"]
        wait_until(lambda: by_css(driver, ".player-controls .alarm-button").text == "Ringing", message="Ringing shown")
        next_week = time.mktime(datetime.datetime.combine(today + datetime.timedelta(days=7), datetime.time(7, 30)).timetuple())
        assert state["alarm"]["next"] == next_week, "next week's, on its one day (a clock change between is its own)"

        other = second_browser()
        open_page(other, server, "/player")
        theirs = wait_until(lambda: (b := by_css(other, ".player-controls .alarm-button")).text == "Ringing" and b,
                            message="the second client shows it ringing")
        tap(other, theirs)
        wait_until(lambda: by_css(other, ".alarm-dialog").is_displayed(), message="their dialog")
        assert "Ringing" in by_css(other, ".alarm-status").text
        tap(other, by_css(other, ".alarm-cancel"))
        wait_until(lambda: server.state()["alarm"] is None, message="the alarm off")
        wait_until(lambda: by_css(driver, ".player-controls .alarm-button").text == "Alarm", message="the first client shows it off")
        assert not server.state()["paused"], "turning it off leaves the episode playing"
    finally:
        if other is not None:
            other.quit()
        context.__exit__(None, None, None)
