"""Directory search from the add-podcast box: Popular for an empty box, results as a name is typed
(artwork through the server's cache), one tap to subscribe, the library and later searches knowing
it; a feed URL still subscribed with Enter; a directory that fails or is down shows its message and
nothing else breaks; a slow answer never overwrites a newer one; a Podcast Index key switches the
directory, the server signs its requests and the secret never comes back to the browser. Screenshots
of the results at desktop and phone size are compared with baselines.

The directories are `directory_fixture.DirectoryServer` on loopback (`--itunes-url`,
`--podcastindex-url`); the feeds the results point at are served by `feeds.FeedServer`.
"""

import hashlib
import json
import shutil
import tempfile
import time

import pytest
from selenium.webdriver.common.keys import Keys

from conftest import (all_css, by_css, launch, open_page, overflow, record_texts, recorded_texts, set_viewport,
                      small_targets, stop, tap, wait_until)
from directory_fixture import DirectoryServer, Listing
from feeds import simple_feed
import screens
from screens import match_baseline

PHONE_TARGETS = "#add-feed .add-feed-row input, #add-feed .add-feed-row button, #directory button, #directory a, #directory summary, #directory input"
KEY = "UXKCJ9PL7TESTKEY2QWE"
SECRET = "s3cret^Never+Shown/To~Browsers"


@pytest.fixture
def directory():
    serving = DirectoryServer()
    try:
        yield serving
    finally:
        serving.close()


@pytest.fixture
def searching(directory, monkeypatch):
    """An Earshot of the test's own whose directories are the fixture (no key in its environment)."""
    for name in ("EARSHOT_PODCASTINDEX_KEY", "EARSHOT_PODCASTINDEX_SECRET", "EARSHOT_ITUNES_URL", "EARSHOT_PODCASTINDEX_URL"):
        monkeypatch.delenv(name, raising=False)
    data = tempfile.mkdtemp(prefix="earshot-e2e-directory-")
    running = launch(0, data, args=("--itunes-url", directory.base, "--podcastindex-url", directory.base))
    try:
        yield running
    finally:
        stop(running.process)
        shutil.rmtree(data, ignore_errors=True)


def feed_for(feed_server, listing_title, slug, artwork):
    """A real feed for a directory listing, its artwork the listing's."""
    audio = feed_server.put_audio(f"/directory/{slug}.mp3")
    channel = f'<itunes:author>Earshot Tests</itunes:author><itunes:image href="{artwork}"/>'
    body = simple_feed(listing_title, audio, 2).replace("<link>https://example.com/</link>",
                                                        f"<link>https://example.com/</link>{channel}", 1)
    return feed_server.put(f"/directory/{slug}.xml", body)


def catalogue(directory, feed_server):
    """What the fixture directories list: three results for "linux" (the third one's feed is
    gone), a chart of seven, a slow and a fast term, and Podcast Index's own answers."""
    listings = {}

    def listing(key, id, title, author, episodes, genres, colour, itunes=(), index=(), feed=True):
        entry = directory.add(Listing(id, title, author, "", episodes, genres, colour), itunes, index)
        if feed:
            entry.feed_url = feed_for(feed_server, title, f"{key}-{directory.port}", entry.artwork)
        else:
            entry.feed_url = feed_server.url(f"/directory/{key}-{directory.port}-gone.xml")  # nothing there: 404
        listings[key] = entry
        return entry

    listing("unplugged", 101, "Linux Unplugged", "Jupiter Broadcasting", 560, ["Technology", "News"], (36, 94, 148), ["linux"])
    listing("latenight", 102, "Late Night Linux", "The Late Night Linux Family", 300, ["Technology"], (150, 60, 40), ["linux"])
    listing("archive", 103, "The Linux Archive", "Retired Hosts", 42, ["Technology", "History"], (90, 90, 90), ["linux"], feed=False)
    chart = [("briefing", "Morning Briefing", "Daily Newsroom", ["News", "Daily News"]),
             ("science", "Science Hour", "Lab Notes Media", ["Science"]),
             ("history", "The History Room", "Archive Audio", ["History"]),
             ("comedy", "Comedy Tonight", "Laugh Track", ["Comedy"]),
             ("stories", "True Stories", "Long Form", ["Society & Culture", "Documentary"]),
             ("money", "Money Matters", "Ledger Studio", ["Business", "Investing"]),
             ("garden", "Garden Talk", "Green Thumbs", ["Leisure", "Home & Garden"])]
    for n, (key, title, author, genres) in enumerate(chart):
        listing(key, 201 + n, title, author, 100 + 25 * n, genres, (40 + 28 * n, 120, 200 - 20 * n))
        directory.chart.append(201 + n)
    listing("slow", 301, "Slow Answer Show", "Molasses Media", 10, ["Technology"], (120, 100, 30), ["slow"])
    listing("fast", 302, "Fast Answer Show", "Quick Studio", 20, ["Technology"], (30, 140, 60), ["fast"])
    listing("index", 401, "Linux Index Weekly", "Open Index Radio", 75, ["Technology", "Open Source"], (100, 40, 140), index=["linux"])
    listing("trend1", 402, "Trending on the Index", "Index Charts", 12, ["News"], (160, 30, 90))
    listing("trend2", 403, "Open Source Hour", "Free Software Radio", 210, ["Technology"], (20, 110, 130))
    directory.trending.extend([402, 403])
    return listings


def open_box(driver, server, path="/"):
    """Loads the library and puts the cursor in the add-podcast box (which opens its panel)."""
    open_page(driver, server, path)
    box = by_css(driver, "#feed-url")
    tap(driver, box)
    wait_until(lambda: by_css(driver, "#directory").is_displayed(), message="the directory panel")
    return box


def empty_box(box):
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)


def shown_rows(driver):
    """The directory rows on screen: title, author, facts, genres, subscribed, error, artwork."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#directory .directory-result')].filter((row) => !row.hidden).map((row) => {
          const img = row.querySelector('img.art');
          const text = (selector) => row.querySelector(selector)?.textContent ?? null;
          return {title: text('.directory-name'), author: text('.directory-author'), facts: text('.directory-facts'),
                  genres: text('.directory-genres'), subscribed: row.classList.contains('is-subscribed'),
                  mark: text('.directory-subscribed'), error: row.querySelector('.directory-error').hidden ? '' : text('.directory-error'),
                  feedUrl: row.dataset.feedUrl, link: row.querySelector('a.directory-name')?.getAttribute('href') ?? null,
                  art: img ? {src: new URL(img.src).pathname, loaded: img.complete && img.naturalWidth > 0} : null};
        });""")


def panel_title(driver):
    return driver.execute_script("return document.querySelector('#directory .directory-title').textContent")


def status_text(driver):
    return driver.execute_script("return document.querySelector('#directory .directory-status').textContent")


def results_for(driver, term, count):
    """Waits for `count` result rows under "Results for “term”"; returns them."""
    return wait_until(lambda: panel_title(driver).lower() == f"results for “{term}”" and len(rows := shown_rows(driver)) == count
                      and not driver.execute_script("return document.querySelector('#directory .directory-list').hasAttribute('aria-busy')")
                      and rows, message=f"{count} results for {term!r}")


def row_of(driver, title):
    return next(row for row in all_css(driver, "#directory .directory-result")
                if row.find_element("css selector", ".directory-name").text == title)


def artwork_loaded(driver):
    """Every visible result's artwork: loaded, through the server's cache."""
    rows = shown_rows(driver)
    return rows and all(r["art"] and r["art"]["loaded"] and r["art"]["src"].startswith("/artwork/") for r in rows)


def test_typing_a_name_searches_as_you_type_and_one_tap_subscribes(searching, driver, directory, feed_server):
    server = searching
    listings = catalogue(directory, feed_server)
    set_viewport(driver, 1280, 800)
    box = open_box(driver, server)
    directory.clear_log()

    box.send_keys("linux")  # no Enter: the results come by themselves
    rows = results_for(driver, "linux", 3)
    assert directory.searched() == ["linux"], f"one search after the pause, not one per key: {directory.searched()}"
    assert [r["title"] for r in rows] == ["Linux Unplugged", "Late Night Linux", "The Linux Archive"]
    first = rows[0]
    assert first["author"] == "Jupiter Broadcasting"
    assert first["facts"] == "560 episodes"
    assert first["genres"] == "Technology · News"
    assert not any(r["subscribed"] for r in rows)
    assert status_text(driver) == "3 podcasts found"

    # A result whose feed is gone: the server's message in its row; the others are untouched.
    archive = listings["archive"]
    status, refused = server.post_json("/api/subscriptions", {"url": archive.feed_url})
    assert status == 502 and refused["error"], (status, refused)
    tap(driver, row_of(driver, "The Linux Archive").find_element("css selector", ".directory-subscribe"))
    wait_until(lambda: shown_rows(driver)[2]["error"], timeout=30, message="the failure in its row")
    rows = shown_rows(driver)
    assert rows[2]["error"] == refused["error"]
    assert row_of(driver, "The Linux Archive").find_element("css selector", ".directory-subscribe .button-label").text == "Subscribe"
    assert [r["error"] for r in rows[:2]] == ["", ""]
    assert by_css(driver, ".form-message").text == "", "a row's failure belongs to the row"

    # One tap subscribes.
    unplugged = listings["unplugged"]
    tap(driver, row_of(driver, "Linux Unplugged").find_element("css selector", ".directory-subscribe"))
    wait_until(lambda: shown_rows(driver)[0]["mark"] == "Subscribed", timeout=30, message="Subscribed on the row")
    podcast = server.podcast_by_feed(unplugged.feed_url)
    assert podcast and podcast["title"] == "Linux Unplugged", podcast
    wait_until(lambda: shown_rows(driver)[0]["link"] == f"/podcast/{podcast['id']}", message="the title to link to the podcast")
    assert [r["subscribed"] for r in shown_rows(driver)] == [True, False, False]
    # The library below shows it at once.
    wait_until(lambda: "Linux Unplugged" in [t.text for t in all_css(driver, ".podcast-tile-title")], message="the new tile")

    # The library, loaded afresh, has it.
    open_page(driver, server, "/")
    assert "Linux Unplugged" in [t.text for t in all_css(driver, ".podcast-tile-title")]

    # A second search marks it Subscribed (the server says so too).
    box = open_box(driver, server)
    box.send_keys("linux")
    rows = results_for(driver, "linux", 3)
    assert [(r["title"], r["mark"]) for r in rows] == [
        ("Linux Unplugged", "Subscribed"), ("Late Night Linux", None), ("The Linux Archive", None)]
    answer = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/directory/search?q=linux').then((r) => r.json()).then(done, (e) => done(String(e)));""")
    assert [(r["title"], r["subscribed"]) for r in answer["results"]] == [
        ("Linux Unplugged", True), ("Late Night Linux", False), ("The Linux Archive", False)]


def test_a_feed_url_still_subscribes_with_enter_and_the_results_work_by_keyboard(searching, driver, directory, feed_server):
    server = searching
    listings = catalogue(directory, feed_server)
    set_viewport(driver, 1280, 800)
    box = open_box(driver, server)
    directory.clear_log()

    url = feed_for(feed_server, "Pasted Feed Weekly", f"pasted-{directory.port}", listings["unplugged"].artwork)
    box.send_keys(url)
    wait_until(lambda: by_css(driver, ".add-feed-submit .button-label").text == "Add", message="the button to say Add")
    assert status_text(driver) == "Press Enter or Add to subscribe to this feed."
    box.send_keys(Keys.ENTER)
    message = wait_until(lambda: by_css(driver, ".form-message.is-success").text, timeout=30, message="the feed added")
    assert message == "Added “Pasted Feed Weekly”."
    assert server.podcast_by_feed(url)
    assert box.get_attribute("value") == ""
    assert directory.searched() == [], "a URL is not searched for"

    # Tab from the box reaches the results' buttons; the focus is visible; Enter subscribes.
    box.send_keys("linux")
    results_for(driver, "linux", 3)
    for _ in range(6):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        if "directory-subscribe" in (driver.switch_to.active_element.get_attribute("class") or ""):
            break
    focused = driver.switch_to.active_element
    assert focused.get_attribute("aria-label") == "Subscribe to Linux Unplugged"
    assert driver.execute_script("return getComputedStyle(arguments[0]).outlineStyle", focused) != "none", "no visible focus"
    focused.send_keys(Keys.TAB)
    focused = driver.switch_to.active_element
    assert focused.get_attribute("aria-label") == "Subscribe to Late Night Linux"
    focused.send_keys(Keys.ENTER)
    wait_until(lambda: shown_rows(driver)[1]["mark"] == "Subscribed", timeout=30, message="Enter to subscribe")
    assert server.podcast_by_feed(listings["latenight"].feed_url)
    # Focus stays on that row (its Subscribed mark, read out), not lost to the page.
    wait_until(lambda: driver.execute_script("""
        return document.activeElement.closest('.directory-result')?.dataset.feedUrl === arguments[0]""",
        listings["latenight"].feed_url), message="focus kept on the row")

    # Escape closes the panel and hands the focus back to the box.
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_until(lambda: not by_css(driver, "#directory").is_displayed(), message="Escape to close the panel")
    assert driver.switch_to.active_element.get_attribute("id") == "feed-url"
    # Typing opens it again.
    driver.switch_to.active_element.send_keys(" ")
    wait_until(lambda: by_css(driver, "#directory").is_displayed(), message="the panel back when typing")


def test_an_empty_box_shows_popular(searching, driver, directory, feed_server):
    server = searching
    catalogue(directory, feed_server)
    set_viewport(driver, 1280, 800)
    open_page(driver, server, "/")
    assert directory.requests == [], "opening the library asks no directory anything"
    open_box(driver, server)
    wait_until(lambda: panel_title(driver) == "Popular" and len(shown_rows(driver)) == 5, timeout=15, message="Popular")
    assert [r["title"] for r in shown_rows(driver)] == [
        "Morning Briefing", "Science Hour", "The History Room", "Comedy Tonight", "True Stories"]
    assert shown_rows(driver)[0]["facts"] == "100 episodes"
    assert shown_rows(driver)[0]["genres"] == "News · Daily News"
    # The chart, then one lookup of its podcasts' feeds.
    assert directory.asked("/us/rss/toppodcasts/limit=30/explicit=true/json")
    lookup = directory.asked("/lookup")
    assert lookup and lookup[0]["query"]["id"][0].split(",") == [str(n) for n in range(201, 208)], lookup
    more = by_css(driver, "#directory .directory-more")
    assert more.text == "Show all 7 popular podcasts"
    tap(driver, more)
    assert len(shown_rows(driver)) == 7
    assert not more.is_displayed()
    assert "directory-result" in driver.execute_script(
        "return document.activeElement.closest('.directory-result')?.className ?? ''"), "focus on the first revealed row"
    # Typing and clearing the box comes back to Popular.
    box = by_css(driver, "#feed-url")
    box.send_keys("linux")
    results_for(driver, "linux", 3)
    empty_box(box)
    wait_until(lambda: panel_title(driver) == "Popular" and len(shown_rows(driver)) == 5, message="Popular again")


def test_results_screenshots_at_desktop_and_phone_size(searching, driver, directory, feed_server, monkeypatch):
    server = searching
    catalogue(directory, feed_server)
    # These screenshots are about the add-podcast box: the header's own links and search are
    # compared by the layout tests, so they are masked here.
    monkeypatch.setitem(screens.MASKS, "header", ".app-header-inner > *")
    for size, (width, height, mobile) in {"desktop": (1280, 800, False), "phone": (390, 844, True)}.items():
        set_viewport(driver, width, height, mobile)
        box = open_box(driver, server)
        box.send_keys("linux")
        results_for(driver, "linux", 3)
        wait_until(lambda: artwork_loaded(driver), timeout=20, message="the artwork, through /artwork/…")
        served = [r["art"]["src"] for r in shown_rows(driver)]
        assert all(src.endswith("/96.jpg") for src in served), served
        driver.execute_script("window.scrollTo(0, 0)")
        match_baseline(driver, f"directory-results-{size}")
        if size == "phone":
            scroll_width, inner = overflow(driver)
            assert scroll_width <= inner, f"the results overflow sideways: {scroll_width} > {inner}"
            assert small_targets(driver, PHONE_TARGETS) == []
            # The settings, opened, on a phone.
            summary = by_css(driver, "#directory .directory-settings summary")
            tap(driver, summary)
            wait_until(lambda: by_css(driver, "#podcastindex-secret").is_displayed(), message="the settings open")
            driver.execute_script("document.querySelector('#directory .directory-foot').scrollIntoView({block: 'end'})")
            assert small_targets(driver, PHONE_TARGETS) == []
            assert overflow(driver)[0] <= overflow(driver)[1]
            match_baseline(driver, "directory-settings-phone")
    set_viewport(driver, 1280, 800)


def test_a_directory_that_fails_or_is_down_shows_its_message(searching, driver, directory, feed_server):
    server = searching
    catalogue(directory, feed_server)
    set_viewport(driver, 1280, 800)
    directory.status = 500
    status, body = server.get("/api/directory/search?q=linux")
    assert status == 502, (status, body)
    broken = json.loads(body)["error"]
    assert broken.startswith("The iTunes directory could not be searched"), broken

    box = open_box(driver, server)
    box.send_keys("linux")
    wait_until(lambda: status_text(driver) == broken, message="the server's message for a broken directory")
    assert "is-error" in by_css(driver, "#directory .directory-status").get_attribute("class")
    assert shown_rows(driver) == []

    # It comes back: the same search, asked again, works; so does the rest of the page.
    directory.status = 200
    box.send_keys(Keys.ENTER)
    results_for(driver, "linux", 3)

    # Stopped altogether: a refused connection, said as clearly.
    directory.stop()
    try:
        status, body = server.get("/api/directory/search?q=fast")
        assert status == 502, (status, body)
        down = json.loads(body)["error"]
        assert down.startswith("The iTunes directory could not be searched"), down
        empty_box(box)
        box.send_keys("fast")
        wait_until(lambda: status_text(driver) == down, timeout=15, message="the message for a directory that is down")
        # The rest of the box still works: a feed added by its URL, its tile in the library below.
        url = feed_for(feed_server, "Still Works Radio", f"still-{directory.port}", "https://example.com/none.png")
        empty_box(box)
        box.send_keys(url + Keys.ENTER)
        assert wait_until(lambda: by_css(driver, ".form-message.is-success").text, timeout=30,
                          message="a feed added by URL while the directory is down") == "Added “Still Works Radio”."
        wait_until(lambda: "Still Works Radio" in [t.text for t in all_css(driver, ".podcast-tile-title")], message="its tile")
    finally:
        directory.start()
    box.send_keys("fast")
    results_for(driver, "fast", 1)


def test_a_slow_answer_never_overwrites_a_newer_one(searching, driver, directory, feed_server):
    server = searching
    catalogue(directory, feed_server)
    set_viewport(driver, 1280, 800)
    directory.delays["slow"] = 3.0
    box = open_box(driver, server)
    record_texts(driver, "#directory .directory-list")
    box.send_keys("slow")
    wait_until(lambda: "slow" in directory.searched(), message="the slow search to reach the directory")
    empty_box(box)
    box.send_keys("fast")
    rows = results_for(driver, "fast", 1)
    assert rows[0]["title"] == "Fast Answer Show"
    slow = directory.asked("/search")[directory.searched().index("slow")]
    wait_until(lambda: slow["done"], timeout=10, message="the slow answer to be sent")
    time.sleep(1.0)  # time for it to reach the page, were it still wanted
    assert panel_title(driver) == "Results for “fast”"
    assert [r["title"] for r in shown_rows(driver)] == ["Fast Answer Show"]
    assert not any("Slow Answer Show" in text for text in recorded_texts(driver)), recorded_texts(driver)


def test_a_podcast_index_key_switches_the_directory_and_the_secret_stays_on_the_server(searching, driver, directory, feed_server):
    server = searching
    catalogue(directory, feed_server)
    set_viewport(driver, 1280, 800)
    open_page(driver, server, "/")
    # Every answer the page gets from now on, kept to look for the secret in.
    driver.execute_script("""
        window.__bodies = [];
        const original = window.fetch;
        window.fetch = async (...args) => {
          const response = await original(...args);
          response.clone().text().then((text) => window.__bodies.push([String(args[0]), text]), () => {});
          return response;
        };""")
    box = by_css(driver, "#feed-url")
    tap(driver, box)
    source = lambda: by_css(driver, "#directory .directory-source").text  # noqa: E731
    wait_until(lambda: source() == "Using Apple Podcasts (iTunes)", message="iTunes at first")
    wait_until(lambda: len(shown_rows(driver)) == 5, timeout=15, message="iTunes' Popular")

    tap(driver, by_css(driver, "#directory .directory-settings summary"))
    key, secret = by_css(driver, "#podcastindex-key"), by_css(driver, "#podcastindex-secret")
    assert secret.get_attribute("type") == "password"
    key.send_keys(KEY)
    secret.send_keys(SECRET)
    directory.clear_log()
    tap(driver, by_css(driver, "#directory .directory-save"))
    wait_until(lambda: source() == f"Using Podcast Index (key {KEY[:4]}…)", message="Podcast Index in use")
    assert by_css(driver, ".directory-settings-message").text == f"Saved. Using Podcast Index (key {KEY[:4]}…)."
    assert key.get_attribute("value") == "" and secret.get_attribute("value") == "", "the fields are emptied"

    # Popular is Podcast Index's trending now, and the request was signed.
    wait_until(lambda: [r["title"] for r in shown_rows(driver)] == ["Trending on the Index", "Open Source Hour"],
               timeout=15, message="Podcast Index's trending feeds")
    check_signed(directory.asked("/api/1.0/podcasts/trending"))
    box.send_keys("linux")
    rows = results_for(driver, "linux", 1)
    assert rows[0]["title"] == "Linux Index Weekly" and rows[0]["genres"] == "Technology · Open Source"
    check_signed(directory.asked("/api/1.0/search/byterm"))
    assert directory.asked("/search") == [], "iTunes is not asked once a key is saved"

    # The secret never reaches the browser: not in any answer the page received, nor in the
    # settings, the page or a search asked now.
    asked_now = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        Promise.all(['/api/directory/settings', '/api/directory/search?q=linux', '/api/directory/popular', '/']
          .map((path) => fetch(path).then((r) => r.text()))).then(done, (e) => done([String(e)]));""")
    bodies = driver.execute_script("return window.__bodies")
    assert any(path == "/api/directory/settings" for path, _ in bodies), [path for path, _ in bodies]
    for text in [*asked_now, *(body for _, body in bodies), driver.page_source]:
        assert SECRET not in text
        assert KEY not in text, "the key is shown by its first four characters only"
    settings = json.loads(asked_now[0])
    assert settings == {"provider": "podcastindex",
                        "podcastIndex": {"configured": True, "key": f"{KEY[:4]}…", "from": "settings"}}, settings

    # Kept by the server: a new page load says so, its secret field empty.
    box = open_box(driver, server)
    wait_until(lambda: source() == f"Using Podcast Index (key {KEY[:4]}…)", message="the saved key after a reload")
    tap(driver, by_css(driver, "#directory .directory-settings summary"))
    assert by_css(driver, "#podcastindex-secret").get_attribute("value") == ""
    assert by_css(driver, "#podcastindex-key").get_attribute("placeholder") == f"Saved: {KEY[:4]}…"

    # A key without its secret is refused with the server's words; nothing changes.
    by_css(driver, "#podcastindex-key").send_keys("ANOTHERKEY")
    tap(driver, by_css(driver, "#directory .directory-save"))
    assert wait_until(lambda: by_css(driver, ".directory-settings-message.is-error").text,
                      message="the refusal") == "Enter both the API key and the API secret."
    empty_box(by_css(driver, "#podcastindex-key"))

    # Clear: back to iTunes.
    tap(driver, by_css(driver, "#directory .directory-clear"))
    wait_until(lambda: source() == "Using Apple Podcasts (iTunes)", message="iTunes again after Clear")
    wait_until(lambda: [r["title"] for r in shown_rows(driver)][:1] == ["Morning Briefing"], timeout=15,
               message="iTunes' Popular again")
    assert not by_css(driver, "#directory .directory-clear").is_displayed()


def check_signed(requests):
    """Podcast Index's authentication: X-Auth-Key, X-Auth-Date (now, Unix seconds) and
    Authorization = SHA-1 of key + secret + date in hex, with a User-Agent."""
    assert requests, "Podcast Index was not asked"
    for request in requests:
        headers = request["headers"]
        assert headers.get("x-auth-key") == KEY, headers
        date = headers.get("x-auth-date", "")
        assert date.isdigit() and abs(int(date) - request["at"]) < 60, headers
        assert headers.get("authorization") == hashlib.sha1((KEY + SECRET + date).encode()).hexdigest(), headers
        assert headers.get("user-agent", "").startswith("Earshot"), headers
        assert SECRET not in json.dumps(request), "the secret itself is never sent"
