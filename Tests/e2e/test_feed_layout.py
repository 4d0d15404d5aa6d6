"""Screenshots of the feed pages at desktop and phone size — the library while Refresh all runs,
a podcast page whose feed is gone, an episode page with rich notes and chapters, the confirm
step — and the phone rules on each: no sideways scrolling, 44 px touch targets, nothing hidden
behind the mini-player."""

from conftest import (SCREENSHOTS, all_css, by_css, open_page, overflow, play_from_start, set_viewport,
                      small_targets, tap, wait_until)
from screens import match_baseline, rewind
from feeds import REPO, item, rss, simple_feed

SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}
TARGETS = (".podcast-actions button, .refresh-all, .opml-import, .opml-export, .add-feed button, "
           ".chapter-button, .chapter-link, .chip-link, .feed-warnings summary, .confirm-dialog button, "
           ".facts a, #mini-player button, #mini-player a")

NOTES = """
<p>In this episode we talk about <strong>listening on a phone</strong>, <em>media keys</em> and why a
podcast player should <a href="https://example.com/why">never run a feed's script</a>.</p>
<h2>What we covered</h2>
<ol><li>Subscribing by URL, and what happens when a feed moves</li>
<li>Refreshing politely: conditional GET, <b>ETag</b> and <i>Last-Modified</i></li>
<li>OPML, the format every podcast app can export</li></ol>
<blockquote><p>“The best podcast player is the one that gets out of the way.”</p></blockquote>
<p><img src="{image}" alt="A keyboard" width="640" height="360"></p>
<h3>Links</h3>
<ul><li><a href="https://example.com/spec">The RSS 2.0 specification</a></li>
<li><a href="mailto:show@example.com">Write to the show</a></li></ul>
"""


def rich_feed(audio, image):
    chapters = "".join(f'<psc:chapter start="{start}" title="{title}"/>' for start, title in (
        ("00:00:00", "Cold open"), ("00:00:08", "Subscribing and moving feeds"),
        ("00:00:21", "Refreshing politely: ETag and Last-Modified"), ("00:00:35", "OPML"),
        ("00:00:52", "Listener questions")))
    channel = """
<itunes:author>The Earshot Team</itunes:author>
<itunes:owner><itunes:name>Ada Owner</itunes:name><itunes:email>owner@example.com</itunes:email></itunes:owner>
<itunes:category text="Technology"><itunes:category text="Podcasting"/></itunes:category>
<itunes:category text="Education"/>
<itunes:explicit>false</itunes:explicit>
<podcast:funding url="https://example.com/support">Support the show</podcast:funding>"""
    extra = f"""
<content:encoded><![CDATA[{NOTES.format(image=image)}]]></content:encoded>
<itunes:season>1</itunes:season><itunes:episode>3</itunes:episode>
<psc:chapters version="1.2">{chapters}</psc:chapters>
<podcast:transcript url="https://example.com/t.vtt" type="text/vtt" language="en"/>
<podcast:person role="host" href="https://example.com/ada">Ada Host</podcast:person>
<podcast:person role="guest">Grace Guest</podcast:person>"""
    return rss("Rich Notes Weekly", [item("Feeds, politely", "rich-1", audio, extra=extra)], channel_extra=channel,
               description="A show about podcast feeds: how they work, how they break, and how a player keeps up.")


def content_bottom_clear(driver):
    """[last content bottom, mini-player top] after scrolling to the end of the page."""
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    return driver.execute_script("""
        const items = [...document.querySelectorAll('#view *')].filter((el) => el.getClientRects().length);
        const bottom = Math.max(...items.map((el) => el.getBoundingClientRect().bottom));
        return [bottom, document.getElementById('mini-player').getBoundingClientRect().top];""")


def check_phone(driver, page):
    scroll_width, inner = overflow(driver)
    assert scroll_width <= inner, f"{page} overflows sideways: {scroll_width} > {inner}"
    assert small_targets(driver, TARGETS) == [], page
    bottom, mini_top = content_bottom_clear(driver)
    assert bottom <= mini_top, f"{page}: content ends at {bottom}, the mini-player starts at {mini_top}"


def test_feed_pages_screenshots_and_phone_layout(own_server, driver, feed_server):
    server = own_server
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    audio = feed_server.put_audio("/layout/audio.mp3")
    image = feed_server.put("/layout/keyboard.jpg", (REPO / "Public/demo/artwork/episode-02.jpg").read_bytes(),
                            content_type="image/jpeg")
    rich = server.subscribe(feed_server.put("/layout/rich.xml", rich_feed(audio, image)))
    broken_path = "/layout/broken.xml"
    broken = server.subscribe(feed_server.put(broken_path, simple_feed("A Show That Went Away", audio, 3)))
    slow = [f"/layout/slow-{n}.xml" for n in range(4)]
    for n, path in enumerate(slow):
        server.subscribe(feed_server.put(path, simple_feed(f"Slow Show {n}", audio)))
        feed_server.set(path, delay=1.0)
    feed_server.set(broken_path, status=410, body=b"gone")
    status, _ = server.post_json(f"/api/podcasts/{broken['id']}/refresh", {})
    assert status == 202, status
    wait_until(lambda: server.get_json(f"/api/podcasts/{broken['id']}")["podcast"]["status"] == "gone", timeout=30,
               message="the broken feed to be marked gone")
    episode = server.get_json(f"/api/podcasts/{rich['id']}/episodes")["episodes"][0]

    open_page(driver, server, "/")
    play_from_start(driver, server, episode)
    try:
        for size, (width, height, mobile) in SIZES.items():
            set_viewport(driver, width, height, mobile)
            phone = size == "phone"

            rewind(driver, server)  # before each page with a screenshot: the same chapter every run
            open_page(driver, server, "/")
            wait_until(lambda: by_css(driver, "#mini-player").is_displayed(), message="the mini-player")
            wait_until(lambda: wait_refresh_idle(server), timeout=60, message="no refresh running")
            tap(driver, by_css(driver, ".refresh-all"))
            wait_until(lambda: by_css(driver, ".refresh-text").text.startswith("Refreshing"), message="refresh progress")
            driver.execute_script("window.scrollTo(0, 0)")
            match_baseline(driver, f"library-refresh-{size}")
            if phone:
                check_phone(driver, "library")
            # (test_refresh checks the words; here the run only has to end)
            wait_until(lambda: by_css(driver, ".refresh-status").get_attribute("data-state") in ("done", "failed"),
                       timeout=60, message="the refresh to end")

            rewind(driver, server)
            open_page(driver, server, f"/podcast/{broken['id']}")
            wait_until(lambda: by_css(driver, ".notice"), message="the gone notice")
            match_baseline(driver, f"podcast-error-{size}")
            if phone:
                check_phone(driver, "podcast page")

            rewind(driver, server)
            open_page(driver, server, f"/podcast/{rich['id']}")
            wait_until(lambda: by_css(driver, ".podcast-facts"), message="the podcast facts")
            match_baseline(driver, f"podcast-details-{size}")
            if phone:
                check_phone(driver, "podcast details")
                rewind(driver, server)
                tap(driver, by_css(driver, ".podcast-unsubscribe"))
                wait_until(lambda: by_css(driver, "dialog.confirm-dialog[open]"), message="the confirm step")
                match_baseline(driver, "unsubscribe-confirm-phone")
                assert small_targets(driver, ".confirm-dialog button") == []
                by_css(driver, ".confirm-cancel").click()

            rewind(driver, server)
            open_page(driver, server, f"/episode/{episode['id']}")
            wait_until(lambda: len(all_css(driver, ".chapter-button")) == 5, message="the chapters")
            wait_until(lambda: by_css(driver, ".rich-text img").get_attribute("naturalWidth") != "0", message="the notes image")
            match_baseline(driver, f"episode-notes-{size}")
            if phone:
                check_phone(driver, "episode page")
    finally:
        set_viewport(driver, 1280, 800)
    for name in ("library-refresh", "podcast-error", "podcast-details", "episode-notes"):
        for size in SIZES:
            assert (SCREENSHOTS / f"{name}-{size}.png").stat().st_size > 10_000


def wait_refresh_idle(server):
    return not server.get_json("/api/refresh")["refresh"]["running"]
