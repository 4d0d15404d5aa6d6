"""Long episode lists and the Inbox, in a real browser against a podcast of 2,500 episodes.

A loopback feed ("The Long Archive") has 2,500 items, every one with its own length and date, in
neither order. The expected order of every filter and sort is computed here from that feed data
(and from what the test did: marked played, listened to part of), never read from the server.

- filters and sorts on the podcast page, the URL's query and localStorage keeping them (reload,
  Back, coming back by a link), the empty state, screenshots of a filtered page;
- paging as you scroll: every episode once, in order, the DOM never holding more than a few
  hundred rows, a `library` refetch keeping the row on screen in place, "Load more" by keyboard;
- the Inbox: a new subscription's newest, three episodes a refresh brought (with the badge),
  Dismiss / Queue / Play each taking one out (focus moving on), a second browser following,
  Clear Inbox with its confirm, the "New" mark in lists, screenshots.
"""

import html
import time
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import (all_css, by_css, command, open_page, private_server, set_viewport, small_targets, tap,
                      wait_until)
from feeds import rss
from screens import match_baseline

COUNT = 2500
MAX_ROWS = 400  # the most episode rows the page may hold at once
BASE = datetime(2019, 1, 7, 6, 0, tzinfo=timezone.utc)
TOPICS = ("Tides", "A long conversation about the history of lighthouses and the people who kept them",
          "Bread", "Why the night sky is dark, and other questions children ask", "Knots",
          "Field recordings from a rainy week in the hills", "Maps", "Letters")
SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}


def archive_episode(n):
    """Item n (1…COUNT): a length and a date of its own (two permutations of 0…COUNT-1), so every
    sort has one right answer; titles of one and of two lines."""
    return {"guid": f"archive-{n:04d}", "title": f"{n:04d} · {TOPICS[n % len(TOPICS)]}",
            "duration": 300 + (n * 7919) % COUNT * 2,
            "published": BASE + timedelta(hours=12 * ((n * 3571) % COUNT))}


NEW_ITEMS = [{"guid": f"fresh-{n}", "title": f"Fresh news, part {n}", "duration": 1201 + n * 62,  # odd: no tie
              "published": datetime(2025, 3, n, 9, 0, tzinfo=timezone.utc)} for n in (1, 2, 3)]


def archive_feed(episodes, audio):
    items = [f"""<item><title>{html.escape(e['title'])}</title><guid isPermaLink="false">{e['guid']}</guid>
<pubDate>{format_datetime(e['published'], usegmt=True)}</pubDate>
<enclosure url="{html.escape(audio)}" type="audio/mpeg" length="267465"/>
<itunes:duration>{e['duration']}</itunes:duration></item>""" for e in episodes]
    return rss("The Long Archive", items, description="Thousands of episodes, served by the browser tests.")


def ordered(episodes, sort):
    key = {"newest": lambda e: -e["published"].timestamp(), "oldest": lambda e: e["published"].timestamp(),
           "shortest": lambda e: e["duration"], "longest": lambda e: -e["duration"]}[sort]
    return [e["title"] for e in sorted(episodes, key=key)]


class Archive:
    """The subscribed archive: the feed's episodes (by guid), their ids, what the tests did to them."""

    def __init__(self, server, feed_server):
        self.server = server
        self.feed_server = feed_server
        self.audio = feed_server.put_audio("/lists/audio.mp3")
        self.episodes = [archive_episode(n) for n in range(1, COUNT + 1)]
        self.path = "/lists/archive.xml"
        self.url = feed_server.put(self.path, archive_feed(self.episodes, self.audio))
        self.podcast = server.subscribe(self.url)
        self.played, self.begun = set(), set()  # guids
        self.ids = {}

    def id_of(self, guid):
        """The server's id of an episode (looked up by guid: the order is never taken from it)."""
        if not self.ids:
            offset = 0
            while True:
                page = self.server.get_json(f"/api/episodes?podcast={self.podcast['id']}&offset={offset}&limit=1000")
                self.ids.update({e["guid"]: e["id"] for e in page["episodes"]})
                offset += len(page["episodes"])
                if not page["more"]:
                    break
        return self.ids[guid]

    def expected(self, filter_="", sort="newest"):
        chosen = [e for e in self.episodes if {
            "": True, "unplayed": e["guid"] not in self.played,
            "inprogress": e["guid"] in self.begun and e["guid"] not in self.played,
            "played": e["guid"] in self.played}[filter_]]
        return ordered(chosen, sort)

    def newest(self, index):
        return next(e for e in self.episodes if e["title"] == self.expected()[index])


@pytest.fixture(scope="module")
def lists_server():
    with private_server("earshot-e2e-lists-") as running:
        yield running


@pytest.fixture(scope="module")
def archive(lists_server, feed_server):
    return Archive(lists_server, feed_server)


@pytest.fixture
def second_browser():
    """Another browser (another client of the server), as a phone beside the desktop would be."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,800"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    browser.set_script_timeout(15)
    set_viewport(browser, 1280, 800)
    try:
        yield browser
    finally:
        browser.quit()


# --- reading the page ---------------------------------------------------------------------------

def settled(driver):
    """The view's list has its answer (no fetch under way)."""
    return driver.execute_script("""
        const list = document.querySelector('.view .paged-list');
        return Boolean(list) && list.getAttribute('aria-busy') === 'false' && list.dataset.state !== 'loading';""")


def wait_settled(driver, message="the list to load"):
    wait_until(lambda: settled(driver), timeout=15, message=message)


def rows(driver):
    """[(position, title)] of the rows in the DOM, in DOM order (visible rows only)."""
    return driver.execute_script("""
        return [...document.querySelectorAll('.view .paged-list .episode')].filter(li => !li.hidden)
          .map(li => [Number(li.getAttribute('aria-posinset')), li.querySelector('.episode-title').textContent]);""")


def assert_rows_match(driver, expected, what):
    shown = rows(driver)
    assert shown, f"{what}: no rows"
    positions = [p for p, _ in shown]
    assert positions == list(range(positions[0], positions[0] + len(positions))), f"{what}: rows out of order {positions[:20]}"
    wrong = [(p, t, expected[p - 1] if p <= len(expected) else None) for p, t in shown
             if p > len(expected) or expected[p - 1] != t]
    assert not wrong, f"{what}: rows differ from the feed's order (position, shown, expected): {wrong[:5]}"
    return shown


def choose_filter(driver, label):
    chip = next(c for c in all_css(driver, ".view .list-controls .chip") if c.text == label)
    tap(driver, chip)
    wait_until(lambda: chip.find_element(By.CSS_SELECTOR, "input").is_selected(), message=f"the {label} chip chosen")
    wait_settled(driver, f"the {label} list")


def choose_sort(driver, value):
    driver.execute_script("""
        const select = document.querySelector('.view .sort-select');
        select.value = arguments[0];
        select.dispatchEvent(new Event('change', {bubbles: true}));""", value)
    wait_settled(driver, f"the list sorted {value}")


def current_choice(driver):
    return driver.execute_script("""
        const chip = document.querySelector('.view .chip-input:checked');
        return [chip ? chip.value : null, document.querySelector('.view .sort-select').value, location.search];""")


def listen_partly(driver, server, episode_id, to=20):
    """Plays `episode_id`, seeks to `to` s and pauses there: it is in progress."""
    assert command(driver, "play", episode=episode_id)["type"] == "ack"
    wait_until(lambda: (s := server.state())["episode"] and s["episode"]["id"] == episode_id and not s["paused"],
               timeout=20, message="the episode to play")
    assert command(driver, "seek", to=to)["type"] == "ack"
    assert command(driver, "pause")["type"] == "ack"
    wait_until(lambda: abs(server.get_json(f"/api/episodes/{episode_id}")["episode"]["position"] - to) < 3,
               timeout=15, message="the position saved")


def stop_playing(driver, server):
    command(driver, "stop")
    wait_until(lambda: server.state()["episode"] is None or server.state()["paused"], message="playback stopped")


# --- filters and sorts --------------------------------------------------------------------------

def test_filters_and_sorts_on_a_podcast_page(lists_server, archive, driver):
    server = lists_server
    set_viewport(driver, 1280, 800)
    podcast = f"/podcast/{archive.podcast['id']}"
    open_page(driver, server, "/")

    # Marked played (one on a later page too) and listened to in part, through the socket.
    for index in (3, 10, 57, 140, 2000):
        episode = archive.newest(index)
        assert command(driver, "mark", episode=archive.id_of(episode["guid"]), played=True)["type"] == "ack"
        archive.played.add(episode["guid"])
    for index in (5, 1200):
        episode = archive.newest(index)
        listen_partly(driver, server, archive.id_of(episode["guid"]))
        archive.begun.add(episode["guid"])
    stop_playing(driver, server)

    open_page(driver, server, podcast)
    wait_settled(driver)
    assert current_choice(driver) == ["", "newest", ""]
    assert_rows_match(driver, archive.expected(), "All, newest")
    assert small_targets(driver, ".view .list-controls .chip, .view .sort-select") == []

    choose_filter(driver, "Unplayed")
    assert current_choice(driver) == ["unplayed", "newest", "?filter=unplayed"]
    shown = assert_rows_match(driver, archive.expected("unplayed"), "Unplayed")
    assert shown[0][0] == 1 and len(shown) >= 20
    assert all(t not in {e["title"] for e in archive.episodes if e["guid"] in archive.played} for _, t in shown)

    choose_filter(driver, "In progress")
    shown = assert_rows_match(driver, archive.expected("inprogress"), "In progress")
    assert len(shown) == 2 and by_css(driver, ".view .paged-list").get_attribute("data-state") == "complete"
    assert len(all_css(driver, ".view .paged-list .episode-progress")) == 2, "in progress rows show how far"

    choose_filter(driver, "Played")
    shown = assert_rows_match(driver, archive.expected("played"), "Played")
    assert len(shown) == 5
    assert all("Played" in row.text for row in all_css(driver, ".view .paged-list .episode"))

    choose_filter(driver, "Downloaded")
    empty = wait_until(lambda: by_css(driver, ".view .paged-list .empty").text, message="the empty state")
    assert empty == "No downloaded episodes."
    assert not all_css(driver, ".view .paged-list .episode")

    # Every sort, on all episodes and on the played ones.
    choose_filter(driver, "All")
    for sort in ("oldest", "shortest", "longest", "newest"):
        choose_sort(driver, sort)
        assert_rows_match(driver, archive.expected("", sort), f"All, {sort}")
        assert current_choice(driver)[1] == sort
    choose_filter(driver, "Played")
    for sort in ("oldest", "shortest", "longest"):
        choose_sort(driver, sort)
        assert_rows_match(driver, archive.expected("played", sort), f"Played, {sort}")
    assert current_choice(driver) == ["played", "longest", "?filter=played&sort=longest"]

    # Reload keeps it (the URL), so does Back from an episode, and a link to the page without a
    # query (this view's last choice, kept in localStorage, is shown in the URL again).
    driver.refresh()
    wait_until(lambda: driver.execute_script("return document.body.dataset.ready === 'true'"), message="reloaded")
    wait_settled(driver)
    assert current_choice(driver) == ["played", "longest", "?filter=played&sort=longest"]
    assert_rows_match(driver, archive.expected("played", "longest"), "after reload")

    tap(driver, all_css(driver, ".view .paged-list .episode-title")[0])
    wait_until(lambda: driver.execute_script("return location.pathname.startsWith('/episode/')"), message="the episode page")
    driver.back()
    wait_until(lambda: driver.execute_script("return location.pathname") == podcast, message="back on the podcast")
    wait_settled(driver)
    assert current_choice(driver) == ["played", "longest", "?filter=played&sort=longest"]

    tap(driver, by_css(driver, ".brand"))
    wait_until(lambda: driver.execute_script("return document.body.dataset.view") == "library", message="the library")
    driver.execute_script("document.querySelector(arguments[0]).click()", f'a.podcast-tile[href="{podcast}"]')
    wait_until(lambda: driver.execute_script("return location.pathname") == podcast, message="the podcast by its tile")
    wait_settled(driver)
    assert current_choice(driver) == ["played", "longest", "?filter=played&sort=longest"]

    # The library's own list remembers its own choice, apart from the podcast page's.
    open_page(driver, server, "/")
    wait_settled(driver)
    assert current_choice(driver) == ["", "newest", ""]

    # Screenshots: unplayed, oldest first (the feed's first dates: nothing there was marked).
    for size, (width, height, mobile) in SIZES.items():
        set_viewport(driver, width, height, mobile)
        open_page(driver, server, f"{podcast}?filter=unplayed&sort=oldest")
        wait_settled(driver)
        assert_rows_match(driver, archive.expected("unplayed", "oldest"), f"unplayed, oldest ({size})")
        if mobile:
            assert small_targets(driver, ".view .list-controls .chip, .view .sort-select, .view .paged-list button") == []
            assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
            driver.execute_script("document.querySelector('.view .list-controls').scrollIntoView({block: 'start'})")
        match_baseline(driver, f"lists-podcast-filtered-{size}")
    set_viewport(driver, 1280, 800)


# --- paging and windowing -----------------------------------------------------------------------

RECORD = """
    const list = document.querySelector('.view .paged-list');
    const seen = window.__seen = {titles: {}, clashes: [], disorder: [], most: 0, samples: 0};
    const record = () => {
      seen.samples += 1;
      const all = document.querySelectorAll('.episode');
      seen.most = Math.max(seen.most, all.length);
      let last = 0;
      for (const li of list.querySelectorAll('.episode')) {
        const at = Number(li.getAttribute('aria-posinset'));
        const title = li.querySelector('.episode-title').textContent;
        if (seen.titles[at] !== undefined && seen.titles[at] !== title) seen.clashes.push([at, seen.titles[at], title]);
        seen.titles[at] = title;
        if (at <= last) seen.disorder.push([last, at]);
        last = at;
      }
    };
    new MutationObserver(record).observe(list, {childList: true, subtree: true});
    window.addEventListener('scroll', record, {passive: true});
    record();
"""


def scroll_to_the_end(driver, limit=400):
    """Scrolls to the bottom again and again until the list says it has everything."""
    for _ in range(limit):
        state = driver.execute_script("""
            window.scrollTo(0, document.documentElement.scrollHeight);
            return document.querySelector('.view .paged-list').dataset.state;""")
        if state == "complete":
            return
        time.sleep(0.05)
    raise AssertionError("the list never said it was complete")


def first_row_on_screen(driver):
    return driver.execute_script("""
        const top = document.querySelector('.app-header').getBoundingClientRect().bottom;
        const li = [...document.querySelectorAll('.view .paged-list .episode')].find(li => li.getBoundingClientRect().bottom > top);
        return li && [li.querySelector('.episode-title').textContent, li.getBoundingClientRect().top];""")


def test_scrolling_loads_every_page_once_with_few_rows_in_the_dom(lists_server, archive, driver):
    server = lists_server
    set_viewport(driver, 1280, 800)
    podcast = f"/podcast/{archive.podcast['id']}"
    for filter_, sort in (("", "newest"), ("unplayed", "shortest")):
        query = "?" + "&".join(part for part in (f"filter={filter_}" if filter_ else "", f"sort={sort}") if part)
        open_page(driver, server, podcast + query)
        wait_settled(driver)
        expected = archive.expected(filter_, sort)
        assert len(rows(driver)) <= 100, "one page at first"
        driver.execute_script(RECORD)
        driver.execute_script("performance.clearResourceTimings(); performance.setResourceTimingBufferSize(1000)")
        scroll_to_the_end(driver)
        seen = driver.execute_script("return window.__seen")
        pages = driver.execute_script("""
            return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/api/episodes?'));""")
        assert len(pages) >= len(expected) // 100 - 1, f"{query}: {len(pages)} page requests"
        assert all("after=" in page and "offset=" not in page for page in pages), \
            f"{query}: a page not asked after the last episode (keyset): {[p for p in pages if 'after=' not in p][:2]}"
        titles = seen["titles"]
        assert len(titles) == len(expected), f"{query}: {len(titles)} of {len(expected)} episodes appeared"
        in_order = [titles[str(n)] for n in range(1, len(expected) + 1)]
        assert in_order == expected, f"{query}: not the feed's order"
        assert len(set(in_order)) == len(in_order), f"{query}: an episode appeared twice"
        assert not seen["clashes"], f"{query}: a position showed two episodes: {seen['clashes'][:3]}"
        assert not seen["disorder"], f"{query}: rows out of order in the DOM: {seen['disorder'][:3]}"
        assert seen["samples"] > 20
        assert seen["most"] <= MAX_ROWS, f"{query}: the DOM held {seen['most']} rows at once"
        assert by_css(driver, ".view .list-status").text == f"All {len(expected):,} episodes"
        rendered = rows(driver)
        assert rendered[-1] == [len(expected), expected[-1]], "the last row at the end"

    # Back up through the whole list: the rows come back (spacers become rows), in order, and the
    # DOM stays small.
    driver.execute_script("window.__seen.titles = {}")
    for _ in range(400):
        at_top = driver.execute_script("window.scrollBy(0, -2.5 * window.innerHeight); return window.scrollY === 0")
        time.sleep(0.02)
        if at_top:
            break
    wait_until(lambda: rows(driver) and rows(driver)[0][0] == 1, message="the first row back at the top")
    seen = driver.execute_script("return window.__seen")
    assert seen["most"] <= MAX_ROWS and not seen["clashes"] and not seen["disorder"]
    assert len(seen["titles"]) > 1000, "scrolling up drew the rows again"
    assert_rows_match(driver, archive.expected("unplayed", "shortest"), "back at the top")

    # A `library` message while deep in the list that changes it: everything is fetched again and
    # redrawn, and the row on screen stays where it was. (Marking an episode as it already is changes
    # nothing this list shows: the page then keeps its rows, so the change must be a real one — here
    # the oldest episode, unplayed, is marked played and leaves this "unplayed" list.)
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight * 0.6)")
    time.sleep(0.3)
    title, top = first_row_on_screen(driver)
    driver.execute_script("window.__list = document.querySelector('.view .paged-list ol')")
    far = archive.newest(COUNT - 1)
    assert far["guid"] not in archive.played and far["title"] != title
    assert command(driver, "mark", episode=archive.id_of(far["guid"]), played=True)["type"] == "ack"
    archive.played.add(far["guid"])
    wait_until(lambda: driver.execute_script("return document.querySelector('.view .paged-list ol') !== window.__list"),
               message="the refetch")
    wait_settled(driver)
    time.sleep(0.3)
    again, top_again = first_row_on_screen(driver)
    assert again == title and abs(top_again - top) <= 2, f"the row on screen moved: {title!r} at {top} → {again!r} at {top_again}"

    # Back from an episode deep in the list lands on the same row: the history entry kept how
    # much was loaded and how tall it was.
    title, top = first_row_on_screen(driver)
    link = driver.execute_script("""
        const top = document.querySelector('.app-header').getBoundingClientRect().bottom;
        return [...document.querySelectorAll('.view .paged-list .episode')]
          .find(li => li.getBoundingClientRect().bottom > top).querySelector('.episode-title');""")
    driver.execute_script("arguments[0].click()", link)
    wait_until(lambda: driver.execute_script("return document.body.dataset.view") == "episode", message="the episode page")
    driver.back()
    wait_until(lambda: driver.execute_script("return document.body.dataset.view") == "podcast", message="back")
    wait_settled(driver)
    wait_until(lambda: first_row_on_screen(driver), message="rows on screen")
    time.sleep(0.3)
    again, top_again = first_row_on_screen(driver)
    assert again == title and abs(top_again - top) <= 2, f"Back landed elsewhere: {title!r} at {top} → {again!r} at {top_again}"

    # "Load more" by keyboard: the next page arrives and focus moves to its first row.
    open_page(driver, server, podcast + "?sort=newest")  # All (a query naming either overrides the stored one)
    wait_settled(driver)
    before = int(by_css(driver, ".view .paged-list").get_attribute("data-loaded"))
    assert before == 100
    driver.execute_script("document.querySelector('.view .list-more').focus({preventScroll: true})")
    more = by_css(driver, ".view .list-more")
    assert more.text == "Load more" and more.get_attribute("type") == "button"
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_until(lambda: driver.execute_script(
        "return document.activeElement.closest('.episode')?.getAttribute('aria-posinset')") == str(before + 1),
        message="focus on the first new row")
    wait_settled(driver)
    assert_rows_match(driver, archive.expected(), "after Load more")


# --- the Inbox ----------------------------------------------------------------------------------

def inbox_titles(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('.view .inbox-item')].filter(li => !li.hidden)
          .map(li => li.querySelector('.episode-title').textContent);""")


def badge(driver):
    return driver.execute_script("""
        const badge = document.querySelector('.header-inbox .header-badge');
        return badge.hidden ? '' : badge.textContent;""")


def server_inbox(server):
    return [e["title"] for e in server.get_json("/api/inbox?limit=1000")["episodes"]]


def open_inbox(driver, server):
    """The Inbox by its header link (as a listener gets there)."""
    open_page(driver, server, "/")
    tap(driver, by_css(driver, ".header-inbox"))
    wait_until(lambda: driver.execute_script("return document.body.dataset.view") == "inbox", message="the Inbox view")
    wait_settled(driver, "the Inbox")


def inbox_button(driver, title, kind):
    row = next(li for li in all_css(driver, ".view .inbox-item")
               if li.find_element(By.CSS_SELECTOR, ".episode-title").text == title)
    return row.find_element(By.CSS_SELECTOR, f".inbox-{kind}")


def test_inbox(lists_server, archive, feed_server, driver, second_browser):
    server = lists_server
    other = second_browser
    set_viewport(driver, 1280, 800)
    open_page(driver, server, "/")
    newest = archive.expected()[0]
    # A new subscription brings its newest episode alone; the demo podcast's newest is there too.
    inbox = server_inbox(server)
    assert newest in inbox and len([t for t in inbox if t.startswith(tuple("0123456789"))]) == 1, inbox
    for episode in server.get_json("/api/inbox")["episodes"]:
        if episode["title"] != newest:
            assert command(driver, "inbox.dismiss", episode=episode["id"])["type"] == "ack"
    wait_until(lambda: server_inbox(server) == [newest], message="only the archive's newest in the Inbox")

    open_inbox(driver, server)
    assert inbox_titles(driver) == [newest]
    wait_until(lambda: badge(driver) == "1", message="the badge says 1")
    assert by_css(driver, ".header-inbox").get_attribute("aria-label") == "Inbox, 1 new episode"
    open_inbox(other, server)
    assert inbox_titles(other) == [newest]

    # The feed gains three episodes; a refresh brings them into the Inbox (newest first).
    archive.episodes += NEW_ITEMS
    feed_server.put(archive.path, archive_feed(archive.episodes, archive.audio))
    status, body = server.post_json(f"/api/podcasts/{archive.podcast['id']}/refresh", {})
    assert status == 202, (status, body)
    fresh = [e["title"] for e in sorted(NEW_ITEMS, key=lambda e: e["published"], reverse=True)]
    expected = fresh + [newest]
    for browser in (driver, other):
        wait_until(lambda: inbox_titles(browser) == expected, timeout=20, message="the new episodes in the Inbox")
        wait_until(lambda: badge(browser) == "4", message="the badge says 4")
    assert by_css(driver, ".inbox-summary").text == "4 new episodes"
    assert by_css(driver, ".header-inbox").get_attribute("aria-label") == "Inbox, 4 new episodes"

    # Every action is a labelled button of 44 px, on a phone too; the screenshots.
    for title in expected:
        for kind, verb in (("play", "Play"), ("queue", "Queue"), ("dismiss", "Dismiss")):
            button = inbox_button(driver, title, kind)
            assert button.get_attribute("aria-label") == f"{verb} {title}" and button.text == verb
    ActionChains(driver).move_to_element(by_css(driver, ".view h1")).perform()  # no hover on the header link
    for size, (width, height, mobile) in SIZES.items():
        set_viewport(driver, width, height, mobile)
        wait_until(lambda: driver.execute_script("return window.innerWidth") == width, message="the viewport")
        assert small_targets(driver, ".view .inbox-item button, .inbox-clear, .header-inbox") == []
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        driver.execute_script("window.scrollTo(0, 0)")
        match_baseline(driver, f"lists-inbox-{size}")
    set_viewport(driver, 1280, 800)

    # "New" on the podcast page's rows of Inbox episodes (other browser), and nowhere else.
    open_page(other, server, f"/podcast/{archive.podcast['id']}?sort=newest")
    wait_settled(other)
    marked = other.execute_script("""
        return [...document.querySelectorAll('.view .episode')].filter(li => li.querySelector('.new-mark'))
          .map(li => li.querySelector('.episode-title').textContent);""")
    assert marked == expected
    open_inbox(other, server)

    # Dismiss, by keyboard: the row leaves, focus moves to the next row's Dismiss.
    gone = expected[0]
    dismiss = inbox_button(driver, gone, "dismiss")
    driver.execute_script("arguments[0].focus()", dismiss)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_until(lambda: gone not in inbox_titles(driver), message="the dismissed row to leave")
    assert driver.execute_script("return document.activeElement.getAttribute('aria-label')") == f"Dismiss {expected[1]}"
    wait_until(lambda: gone not in server_inbox(server), message="the server to drop it")
    for browser in (driver, other):
        wait_until(lambda: inbox_titles(browser) == expected[1:], message="both Inboxes without it")
        wait_until(lambda: badge(browser) == "3", message="the badge says 3")
    assert driver.execute_script("return document.activeElement.getAttribute('aria-label')") == f"Dismiss {expected[1]}", \
        "focus kept through the refetch"

    # Queue: it leaves the Inbox and is in Up Next.
    queued = expected[1]
    tap(driver, inbox_button(driver, queued, "queue"))
    for browser in (driver, other):
        wait_until(lambda: inbox_titles(browser) == expected[2:], message="both Inboxes without the queued one")
    queued_id = next(e["id"] for e in server.get_json(f"/api/episodes?podcast={archive.podcast['id']}&limit=10")["episodes"]
                     if e["title"] == queued)
    assert queued_id in server.state()["queue"]
    tap(other, by_css(other, '.header-link[href="/queue"]'))
    wait_until(lambda: queued in other.find_element(By.CSS_SELECTOR, ".queue-list").text, message="the Queue view lists it")
    open_inbox(other, server)

    # Play: it starts and leaves (the other browser learns it from the player's state).
    played = expected[2]
    tap(driver, inbox_button(driver, played, "play"))
    wait_until(lambda: (s := server.state())["episode"] and s["episode"]["title"] == played, timeout=20,
               message="the episode to play")
    for browser in (driver, other):
        wait_until(lambda: inbox_titles(browser) == expected[3:], message="both Inboxes without the playing one")
        wait_until(lambda: badge(browser) == "1", message="the badge says 1")
    wait_until(lambda: server_inbox(server) == expected[3:], message="the server's Inbox without it")
    stop_playing(driver, server)

    # Clear Inbox, after a confirm (Cancel first: nothing happens).
    tap(driver, by_css(driver, ".inbox-clear"))
    dialog = wait_until(lambda: by_css(driver, "dialog.confirm-dialog[open]"), message="the confirm")
    assert "Clear the Inbox?" in dialog.text
    dialog.find_element(By.CSS_SELECTOR, ".confirm-cancel").click()
    assert server_inbox(server) == expected[3:]
    tap(driver, by_css(driver, ".inbox-clear"))
    wait_until(lambda: by_css(driver, "dialog.confirm-dialog[open]"), message="the confirm").find_element(
        By.CSS_SELECTOR, ".confirm-ok").click()
    for browser in (driver, other):
        wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, ".view .paged-list .empty"), message="the empty Inbox")
        assert browser.find_element(By.CSS_SELECTOR, ".view .paged-list .empty").text.startswith("Your Inbox is empty.")
        wait_until(lambda: badge(browser) == "", message="no badge")
        assert not browser.find_element(By.CSS_SELECTOR, ".inbox-clear").is_displayed()
    assert server_inbox(server) == []
    assert by_css(driver, ".header-inbox").get_attribute("aria-label") is None

    # No row of the podcast page says New now.
    open_page(driver, server, f"/podcast/{archive.podcast['id']}")
    wait_settled(driver)
    assert not all_css(driver, ".view .new-mark")


def test_inbox_page_loads_by_its_address(lists_server, driver):
    """A reload of /inbox (or a bookmark) must get the app's page, as every other view's address does."""
    status, _ = lists_server.get("/inbox")
    assert status == 200, f"GET /inbox answered {status}: the server has no page route for /inbox"
    open_page(driver, lists_server, "/inbox")
    wait_settled(driver, "the Inbox")
    assert driver.execute_script("return document.body.dataset.view") == "inbox"
