"""The episode page of a feed with Podlove chapters, numbers, people and transcripts: the details
show, and a tap on a chapter makes the server play from that chapter."""

from conftest import all_css, by_css, command, open_page, tap, wait_until
from feeds import item, rss

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
