"""Chapters in the page. The episode page of a feed with Podlove chapters, numbers, people and
transcripts: the details show, and a tap on a chapter makes the server play from that chapter.
The full player: the server's merged list (the demo's ID3 chapters; a Podcasting 2.0 JSON file
with images), the current chapter highlighted as it plays, a tap jumps, ticks on the scrubber,
`n`/`p` for the next/previous chapter, the mini-player naming the chapter playing; screenshots at
1280×800 and 390×844."""

import json

from selenium.webdriver.common.action_chains import ActionChains

from conftest import all_css, by_css, command, open_page, overflow, set_viewport, small_targets, tap, wait_until
from feeds import REPO, item, rss
from screens import match_baseline, rewind

CHAPTERS = [(0, "Welcome"), (20.5, "The middle part"), (40, "The last part")]


def chapter_feed(audio):
    chapters = "".join(
        f'<psc:chapter start="00:00:{int(start):02d}{".5" if start % 1 else ""}" title="{title}"'
        f'{" href=" + chr(34) + "https://example.com/chapter-link" + chr(34) if start == 40 else ""}/>'
        for start, title in CHAPTERS)
    extra = f"""
<content:encoded><![CDATA[<p>Notes with <strong>bold</strong> words.</p>]]></content:encoded>
<itunes:season>2</itunes:season>
<itunes:episode>5</itunes:episode>
<itunes:episodeType>bonus</itunes:episodeType>
<psc:chapters version="1.2">{chapters}</psc:chapters>
<podcast:transcript url="https://example.com/transcript.vtt" type="text/vtt" language="en"/>
<podcast:person role="host" href="https://example.com/ada">Ada Host</podcast:person>
<podcast:person role="guest">Grace Guest</podcast:person>"""
    return rss("Chaptered Show", [item("An episode with chapters", "chaptered-1", audio, extra=extra)])


def test_chapters_seek_the_server_and_details_show(server, driver, feed_server):
    audio = feed_server.put_audio("/chapters/audio.mp3")
    podcast = server.subscribe(feed_server.put("/chapters/feed.xml", chapter_feed(audio)))
    episode = server.get_json(f"/api/podcasts/{podcast['id']}/episodes")["episodes"][0]

    open_page(driver, server, f"/episode/{episode['id']}")
    command(driver, "stop")  # another episode may be loaded: the first tap must play this one
    rows = wait_until(lambda: all_css(driver, ".chapter-button"), message="the chapter list")
    shown = [(r.find_element("css selector", ".chapter-time").text, r.find_element("css selector", ".chapter-title").text)
             for r in rows]
    assert shown == [("0:00", "Welcome"), ("0:20", "The middle part"), ("0:40", "The last part")]
    link = by_css(driver, ".chapter-link")
    assert link.get_attribute("href") == "https://example.com/chapter-link"
    assert link.get_attribute("rel") == "noopener noreferrer" and link.get_attribute("target") == "_blank"

    facts = by_css(driver, ".episode-page .episode-facts").text
    for words in ("Season 2", "Episode 5", "Bonus"):
        assert words in facts, facts
    transcript = by_css(driver, '.episode-aside a[href="https://example.com/transcript.vtt"]')
    assert transcript.text.startswith("Transcript (WebVTT, en)")
    people = by_css(driver, ".episode-aside .people").text
    assert "Ada Host (host)" in people and "Grace Guest (guest)" in people, people

    def playing_near(target):
        state = server.state()
        return (state["episode"] and state["episode"]["id"] == episode["id"] and not state["paused"]
                and target - 0.5 <= state["position"] <= target + 6)

    # Not loaded: the tap plays the episode, then seeks to the chapter.
    tap(driver, rows[1])
    wait_until(lambda: playing_near(20.5), timeout=15, message="the server to play from 20.5 s")
    wait_until(lambda: "is-current" in all_css(driver, ".chapter")[1].get_attribute("class"),
               message="the second chapter marked current")
    # Loaded and playing: the tap seeks.
    tap(driver, all_css(driver, ".chapter-button")[2])
    wait_until(lambda: playing_near(40), timeout=10, message="the server to seek to 40 s")
    # Loaded but paused: the tap seeks and resumes.
    assert command(driver, "pause")["type"] == "ack"
    wait_until(lambda: server.state()["paused"], message="paused")
    tap(driver, all_css(driver, ".chapter-button")[0])
    wait_until(lambda: playing_near(0), timeout=10, message="the server to play from 0 s")
    command(driver, "stop")


DEMO_CHAPTERS = [("0:00", "Introduction"), ("0:12", "Keyboard shortcuts"), ("0:26", "The mini player"),
                 ("0:41", "The full player")]


def demo_with_chapters(server):
    """The demo's second episode: its MP3 carries ID3 CHAP chapters (scripts/make-demo.sh)."""
    episodes = server.get_json("/api/episodes?limit=100")["episodes"]
    return next(e for e in episodes if e["podcast"] == "Earshot Demo" and e["url"].endswith("02-browser.mp3"))


def player_rows(driver):
    return all_css(driver, ".player-chapters .chapter")


def shown_rows(driver):
    return [(r.find_element("css selector", ".chapter-time").text, r.find_element("css selector", ".chapter-title").text)
            for r in player_rows(driver)]


def current_row(driver):
    """The index of the highlighted row (-1: none); exactly one row may be highlighted."""
    flags = [("is-current" in r.get_attribute("class"), r.find_element("css selector", ".chapter-button").get_attribute("aria-current"))
             for r in player_rows(driver)]
    marked = [i for i, (current, aria) in enumerate(flags) if current]
    assert len(marked) <= 1, flags
    assert all((aria == "true") == current for current, aria in flags), flags
    return marked[0] if marked else -1


def press(driver, key):
    ActionChains(driver).send_keys(key).perform()


def server_at(server, episode, chapter, low, high):
    state = server.state()
    return (state["episode"] and state["episode"]["id"] == episode["id"] and state["chapter"] == chapter
            and low <= state["position"] <= high)


def shown_playing(driver, server):
    """The server plays and the page's play button says so (Pause)."""
    return (not server.state()["paused"]
            and by_css(driver, ".transport-toggle").get_attribute("aria-label") == "Pause")


# Back to here before each screenshot in the demo's third chapter (26.3 s to 41.4 s): the
# mini-player's line, the highlighted row and the stored position are the same every run.
IN_THIRD_CHAPTER = 27


def test_player_chapters_demo(own_server, driver):
    server = own_server  # a fresh library: the screenshots must not show what earlier tests left
    episode = demo_with_chapters(server)
    open_page(driver, server, "/player")
    assert command(driver, "play", episode=episode["id"])["type"] == "ack"
    assert command(driver, "seek", to=0)["type"] == "ack"
    wait_until(lambda: shown_rows(driver) == DEMO_CHAPTERS, message="the demo's four ID3 chapters in the player")
    starts = [c["start"] for c in server.state()["chapters"]]
    assert [round(s, 1) for s in starts] == [0, 12.2, 26.3, 41.4], starts

    # Ticks on the scrubber: one per chapter after the first, where the thumb would be at that time.
    def ticks():
        return driver.execute_script("""
            const input = document.querySelector('.scrubber-input').getBoundingClientRect();
            return [...document.querySelectorAll('.scrubber-mark')].map((m) => {
              const r = m.getBoundingClientRect();
              return {start: Number(m.dataset.start), x: r.left + r.width / 2 - input.left, width: input.width,
                      top: r.top - input.top, bottom: input.bottom - r.bottom};
            });""")
    marks = wait_until(lambda: len(ticks()) == 3 and ticks(), message="three chapter ticks on the scrubber")
    duration = server.state()["duration"]
    for mark, start in zip(marks, starts[1:]):
        assert abs(mark["start"] - start) < 0.001, (mark, start)
        expected = 10 + (mark["width"] - 20) * start / duration  # the thumb (20 px) travels inside the track
        assert abs(mark["x"] - expected) < 1.5, (mark, expected)
        assert mark["top"] > 0 and mark["bottom"] > 0, "a tick stays inside the bar's height"

    # The highlight follows playback: from the first chapter into the second without any click.
    wait_until(lambda: current_row(driver) == 0, message="the first chapter highlighted")
    assert command(driver, "seek", to=10.5)["type"] == "ack"
    wait_until(lambda: current_row(driver) == 1, timeout=8, message="the highlight to move on to the second chapter")
    assert server.state()["chapter"] == 1

    # A tap on a row jumps there (and plays when paused).
    assert command(driver, "pause")["type"] == "ack"
    wait_until(lambda: server.state()["paused"], message="paused")
    tap(driver, player_rows(driver)[2].find_element("css selector", ".chapter-button"))
    wait_until(lambda: server_at(server, episode, 2, 26.3, 29) and not server.state()["paused"], timeout=8,
               message="the server at the third chapter, playing")
    wait_until(lambda: current_row(driver) == 2, message="the third chapter highlighted")

    # n: the next chapter; p right after: back to the one before (less than 3 s in).
    driver.execute_script("document.activeElement.blur()")
    press(driver, "n")
    wait_until(lambda: server_at(server, episode, 3, 41.4, 44), timeout=8, message="n: the fourth chapter")
    wait_until(lambda: current_row(driver) == 3, message="the fourth chapter highlighted")
    press(driver, "p")
    wait_until(lambda: server_at(server, episode, 2, 26.3, 28.5), timeout=8, message="p: back to the third chapter")
    # More than 3 s in, p restarts the chapter.
    wait_until(lambda: server.state()["position"] > 30, timeout=8, message="4 s into the third chapter")
    press(driver, "p")
    wait_until(lambda: server_at(server, episode, 2, 26.3, 28.5), timeout=8, message="p: the third chapter restarted")
    assert current_row(driver) == 2

    # On any other page the mini-player names the chapter playing (in place of the podcast), and follows it.
    rewind(driver, server, to=IN_THIRD_CHAPTER)  # before the page load: the rows show this stored position
    open_page(driver, server, "/")
    mini_line = lambda: by_css(driver, "#mini-player .mini-podcast").text  # noqa: E731
    wait_until(lambda: mini_line() == DEMO_CHAPTERS[2][1], message="the mini-player names the third chapter")
    assert "is-chapter" in by_css(driver, "#mini-player .mini-podcast").get_attribute("class")
    match_baseline(driver, "mini-player-chapter-desktop")
    try:
        set_viewport(driver, 390, 844, mobile=True)
        rewind(driver, server, to=IN_THIRD_CHAPTER)
        wait_until(lambda: mini_line() == DEMO_CHAPTERS[2][1], message="the chapter at phone size")
        match_baseline(driver, "mini-player-chapter-phone")
    finally:
        set_viewport(driver, 1280, 800)
    assert command(driver, "chapter", index=3)["type"] == "ack"
    wait_until(lambda: mini_line() == DEMO_CHAPTERS[3][1], timeout=8, message="the mini-player follows to the fourth")
    assert command(driver, "chapter", index=2)["type"] == "ack"
    wait_until(lambda: server_at(server, episode, 2, 26.3, 29), timeout=8, message="back in the third chapter")
    open_page(driver, server, "/player")

    try:
        for size, (width, height) in {"desktop": (1280, 800), "phone": (390, 844)}.items():
            set_viewport(driver, width, height, mobile=size == "phone")
            rewind(driver, server, to=IN_THIRD_CHAPTER)
            wait_until(lambda: current_row(driver) == 2, message="the third chapter highlighted")
            driver.execute_script("window.scrollTo(0, 0)")
            rows = wait_until(lambda: player_rows(driver), message="the list after resizing")
            if size == "desktop":  # beside the controls, the whole list in view
                controls = by_css(driver, ".player-body").rect
                chapters = by_css(driver, ".player-chapters").rect
                assert chapters["x"] >= controls["x"] + controls["width"], (controls, chapters)
                assert rows[-1].rect["y"] + rows[-1].rect["height"] <= height
            else:  # below the controls
                assert by_css(driver, ".player-chapters").rect["y"] > by_css(driver, ".transport").rect["y"]
            page_width, window_width = overflow(driver)
            assert page_width <= window_width, f"{size}: the page scrolls sideways"
            assert not small_targets(driver, ".player-chapters button, .player-chapters a"), small_targets(driver, ".player-chapters button")
            match_baseline(driver, f"player-chapters-{size}")
            if size == "phone":
                tap(driver, player_rows(driver)[3])
                wait_until(lambda: server_at(server, episode, 3, 41.4, 50) and current_row(driver) == 3, timeout=8,
                           message="the tapped fourth chapter playing and highlighted")
                match_baseline(driver, "player-chapters-phone-list")
    finally:
        set_viewport(driver, 1280, 800)
    command(driver, "stop")


ARTWORK_JPG = (REPO / "Public" / "demo" / "artwork" / "episode-02.jpg").read_bytes()


def test_player_chapters_json_with_images(own_server, driver, feed_server):
    """A Podcasting 2.0 chapters file beats the MP3's own ID3 chapters and brings images and links."""
    server = own_server  # a fresh library and settings: the player's screenshots must not show what earlier tests left
    audio = feed_server.put_audio("/json-chapters/audio.mp3")
    image = feed_server.put("/json-chapters/art.jpg", ARTWORK_JPG, content_type="image/jpeg")
    chapters = {"version": "1.2.0", "chapters": [
        {"startTime": 0, "title": "Cold open", "img": image},
        {"startTime": 8, "title": "Artwork only", "toc": False, "img": image},
        {"startTime": 20, "title": "The interview", "url": "https://example.com/interview"},
        {"startTime": 45, "title": "Listener mail", "img": image, "url": "https://example.com/mail"},
    ]}
    chapters_url = feed_server.put("/json-chapters/chapters.json", json.dumps(chapters), content_type="application/json+chapters")
    feed = rss("JSON Chapters Show", [item("An episode with a chapters file", "json-chapters-1", audio,
               extra=f'<podcast:chapters url="{chapters_url}" type="application/json+chapters"/>')])
    podcast = server.subscribe(feed_server.put("/json-chapters/feed.xml", feed))
    episode = server.get_json(f"/api/podcasts/{podcast['id']}/episodes")["episodes"][0]

    open_page(driver, server, "/player")
    assert command(driver, "play", episode=episode["id"])["type"] == "ack"
    assert command(driver, "pause")["type"] == "ack"
    wait_until(lambda: shown_rows(driver) == [("0:00", "Cold open"), ("0:20", "The interview"), ("0:45", "Listener mail")],
               timeout=15, message="the JSON chapters (not the MP3's) in the player")
    images = all_css(driver, ".player-chapters .chapter-image")
    assert len(images) == 3, "every row has an image box when any chapter has an image"
    assert [i.tag_name for i in images] == ["img", "span", "img"]
    wait_until(lambda: all(driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", i)
                           for i in images if i.tag_name == "img"), message="the chapter images loaded")
    links = [a.get_attribute("href") for a in all_css(driver, ".player-chapters .chapter-link")]
    assert links == ["https://example.com/interview", "https://example.com/mail"]
    assert len(all_css(driver, ".scrubber-mark")) == 2
    assert feed_server.hits.get("/json-chapters/chapters.json") == 1

    try:
        for size, (width, height) in {"desktop": (1280, 800), "phone": (390, 844)}.items():
            set_viewport(driver, width, height, mobile=size == "phone")
            rows = player_rows(driver)
            tap(driver, rows[-1])
            wait_until(lambda: current_row(driver) == 2, timeout=8, message="the tapped chapter highlighted")
            # The tap plays (the episode was paused): the screenshot shows it playing.
            wait_until(lambda: server_at(server, episode, 2, 45, 60) and shown_playing(driver, server), timeout=8,
                       message="the tapped chapter playing")
            match_baseline(driver, f"player-chapters-images-{size}")
            assert command(driver, "pause")["type"] == "ack"
            wait_until(lambda: by_css(driver, ".transport-toggle").get_attribute("aria-label") == "Play",
                       message="the page to show it paused")
    finally:
        set_viewport(driver, 1280, 800)
    command(driver, "stop")
