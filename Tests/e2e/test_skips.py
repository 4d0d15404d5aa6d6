"""A podcast's skips from its page (intro, outro, chapters by title): set in a fold under its
speed, kept by the server and shown on a second client; a skip the server makes is shown on every
page with Undo, which takes playback back."""

import time

from conftest import SCREENSHOTS, by_css, command, demo_episode, open_page, overflow, set_viewport, tap, wait_until
from test_queue import second_browser


def skips_of(server, podcast):
    return server.state()["settings"]["podcasts"].get(str(podcast))


def shot(browser, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def test_skips_set_on_the_podcast_page_act_and_undo(own_server, driver):
    server = own_server
    episode = demo_episode(server)
    podcast = episode["podcastId"]
    open_page(driver, server, f"/podcast/{podcast}")
    fold = wait_until(lambda: by_css(driver, ".podcast-skips"), message="the skips fold")
    assert by_css(driver, ".podcast-skips .skips-summary").text == "Off"
    tap(driver, by_css(driver, ".podcast-skips summary"))
    wait_until(lambda: fold.get_attribute("open") is not None, message="the fold opens")

    other = second_browser()
    try:
        open_page(other, server, f"/podcast/{podcast}")
        intro = by_css(driver, ".skip-intro-input")
        intro.clear()
        intro.send_keys("5")
        words = by_css(driver, ".skip-chapters-input")
        words.send_keys("Sponsor, ad , ")
        tap(driver, by_css(driver, ".skips-save"))
        wait_until(lambda: skips_of(server, podcast) == {"introSkip": 5, "outroSkip": 0, "skipChapters": ["Sponsor", "ad"]},
                   message="the server keeps the skips")
        wait_until(lambda: by_css(other, ".podcast-skips .skips-summary").text == "intro 5 s · chapters: Sponsor, ad",
                   message="the other page's summary")
        assert by_css(driver, ".podcast-skips .skips-summary").text == "intro 5 s · chapters: Sponsor, ad"

        # Out of range: the field refuses it (the form is not sent), nothing changes; the server
        # refuses it in words too.
        intro.clear()
        intro.send_keys("900")
        tap(driver, by_css(driver, ".skips-save"))
        assert driver.execute_script("return arguments[0].validity.rangeOverflow", intro)
        time.sleep(0.3)
        assert skips_of(server, podcast)["introSkip"] == 5
        reply = command(driver, "podcast.settings", podcast=podcast, introSkip=900)
        assert reply["type"] == "error" and "introSkip must be between 0 and 600 seconds" in reply["message"], reply
        intro.clear()
        intro.send_keys("5")

        # Playing a fresh episode skips its intro; every client says so; Undo goes back.
        assert command(driver, "play", episode=episode["id"])["type"] == "ack"
        notice = wait_until(lambda: (n := by_css(other, ".skip-notice")) and n.is_displayed() and n,
                            message="the skip notice on the other client")
        assert notice.text.startswith("Skipped the intro (5 s)"), notice.text
        wait_until(lambda: by_css(driver, ".skip-notice").is_displayed(), message="and here")
        assert server.state()["position"] >= 5
        for name, (width, height) in {"desktop": (1280, 800), "phone": (390, 844)}.items():
            set_viewport(driver, width, height, mobile=name == "phone")
            shot(driver, f"skips-{name}")
            scroll_width, inner = overflow(driver)
            assert scroll_width <= inner, f"the podcast page overflows at {name}"
        set_viewport(driver, 1280, 800)
        tap(other, by_css(other, ".skip-undo"))
        wait_until(lambda: server.state()["skipped"] is None and server.state()["position"] < 3,
                   message="undo: back to the start")
        wait_until(lambda: not by_css(driver, ".skip-notice").is_displayed(), message="the notice goes")

        # Cleared from the other page: off again everywhere.
        tap(other, by_css(other, ".podcast-skips summary"))
        other_intro = by_css(other, ".skip-intro-input")
        other_intro.clear()
        other_intro.send_keys("0")
        other_words = by_css(other, ".skip-chapters-input")
        other_words.clear()
        tap(other, by_css(other, ".skips-save"))
        wait_until(lambda: skips_of(server, podcast) is None, message="no skips: not listed")
        wait_until(lambda: by_css(driver, ".podcast-skips .skips-summary").text == "Off", message="Off here too")
    finally:
        other.quit()
        command(driver, "stop")
