"""Refreshing from the UI against a server of its own (the result depends on every feed in the
library): Refresh all shows live progress and its result; a feed that went 410 or fails is
badged on its tile and explained on its page; Refresh on a podcast page refreshes that feed."""

import re

from conftest import all_css, by_css, open_page, record_texts, recorded_texts, tap, wait_until
from feeds import simple_feed

PROGRESS = re.compile(r"^Refreshing (\d+) of (\d+)…$")
FEEDS = 5
SLOW = 0.6  # seconds per feed response: the refresh lasts long enough to be seen


def test_refresh_all_shows_progress_and_marks_feeds_in_trouble(own_server, driver, feed_server):
    server = own_server
    audio = feed_server.put_audio("/refresh/audio.mp3")
    urls = [feed_server.put(f"/refresh/feed-{n}.xml", simple_feed(f"Refreshable {n}", audio)) for n in range(FEEDS)]
    podcasts = [server.subscribe(url) for url in urls]
    for path in (f"/refresh/feed-{n}.xml" for n in range(FEEDS)):
        feed_server.set(path, delay=SLOW)

    open_page(driver, server, "/")
    wait_until(lambda: len(all_css(driver, ".podcast-tile")) >= FEEDS, message="the tiles")
    assert all_css(driver, ".tile-badge") == []
    record_texts(driver, ".refresh-text")
    tap(driver, by_css(driver, ".refresh-all"))
    wait_for_text(driver, "Up to date", server)
    seen = [t for t in recorded_texts(driver) if t]
    progress = [PROGRESS.match(t) for t in seen if PROGRESS.match(t)]
    assert progress, f"no progress text was shown: {seen}"
    total = int(progress[0].group(2))
    assert total >= FEEDS and all(int(m.group(2)) == total and 1 <= int(m.group(1)) <= total for m in progress), seen
    assert seen[-1] == "Up to date" and all(PROGRESS.match(t) for t in seen[:-1]), seen
    assert all_css(driver, ".tile-badge") == []

    # One feed goes away for good, another starts failing.
    feed_server.set("/refresh/feed-3.xml", status=410, body=b"gone")
    feed_server.set("/refresh/feed-4.xml", status=500, body=b"oops")
    record_texts(driver, ".refresh-text")
    tap(driver, by_css(driver, ".refresh-all"))
    wait_for_text(driver, "2 feeds failed", server)
    assert any(PROGRESS.match(t) for t in recorded_texts(driver)), recorded_texts(driver)
    badge = lambda podcast: by_css(driver, f'.podcast-tile[href="/podcast/{podcast["id"]}"] .tile-badge').text  # noqa: E731
    wait_until(lambda: badge(podcasts[3]) == "Gone" and badge(podcasts[4]) == "Error", message="the badges")
    badged = {e.find_element("xpath", "ancestor::a").get_attribute("href").rsplit("/", 1)[1]
              for e in all_css(driver, ".tile-badge")}
    assert badged == {str(podcasts[3]["id"]), str(podcasts[4]["id"])}

    gone = server.get_json(f"/api/podcasts/{podcasts[3]['id']}")["podcast"]
    assert gone["status"] == "gone" and "410" in (gone["error"] or ""), gone
    tap(driver, by_css(driver, f'.podcast-tile[href="/podcast/{podcasts[3]["id"]}"]'))
    notice = wait_until(lambda: by_css(driver, ".notice").text, message="the notice on the gone feed's page")
    assert "This feed is gone (HTTP 410)." in notice and "Its episodes stay in your library." in notice, notice
    assert len(all_css(driver, ".episode-list .episode")) == 2, "a gone feed keeps its episodes"
    assert by_css(driver, ".podcast-refreshed").text == "Checked just now", by_css(driver, ".podcast-count").text

    # Refresh this feed, on its own page: the server answers again, the notice goes.
    feed_server.set("/refresh/feed-4.xml", status=200, body=simple_feed("Refreshable 4", audio).encode())
    open_page(driver, server, f"/podcast/{podcasts[4]['id']}")
    notice = wait_until(lambda: by_css(driver, ".notice").text, message="the failing feed's notice")
    assert "The last refresh failed (HTTP 500)." in notice, notice
    tap(driver, by_css(driver, ".podcast-refresh"))
    wait_until(lambda: not all_css(driver, ".notice"), timeout=30, message="the notice to go after Refresh")
    wait_until(lambda: by_css(driver, ".podcast-refresh").text == "Refresh", message="the button to be ready again")
    assert by_css(driver, ".podcast-refreshed").text == "Refreshed just now"


def wait_for_text(driver, text, server):
    """Waits for the refresh status line to say `text`; on failure, says what it showed and why."""
    try:
        wait_until(lambda: by_css(driver, ".refresh-text").text == text, timeout=60, message=repr(text))
    except AssertionError as error:
        troubled = [(p["title"], p["status"], p["error"]) for p in server.get_json("/api/podcasts")["podcasts"]
                    if p.get("status") != "ok"]
        raise AssertionError(f"{error}; the status line showed {recorded_texts(driver)}; feeds not ok: {troubled}") from None


def test_a_recovered_feed_shows_its_warnings_in_a_folded_note(server, driver, feed_server):
    audio = feed_server.put_audio("/recovered/audio.mp3")
    # A tag left open and the channel never closed: libxml2's recovery reads what it can.
    broken = (simple_feed("Broken But Readable", audio)
              .replace("<description>Episode 1", "<description><b>Episode 1", 1).replace("</channel>", ""))
    podcast = server.subscribe(feed_server.put("/recovered/feed.xml", broken))
    assert podcast["warnings"], podcast

    open_page(driver, server, f"/podcast/{podcast['id']}")
    note = wait_until(lambda: by_css(driver, ".feed-warnings"), message="the warnings note")
    assert note.get_attribute("open") is None, "the note should start folded"
    assert not all_css(driver, ".notice"), "a recovered feed is not an error"
    summary = note.find_element("css selector", "summary")
    assert summary.text == "This feed has 1 problem Earshot worked around"
    tap(driver, summary)
    items = [li.text for li in note.find_elements("css selector", "li")]
    assert items == podcast["warnings"], items
