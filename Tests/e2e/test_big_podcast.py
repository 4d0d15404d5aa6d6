"""A podcast of 60,000 episodes open in a real browser (issue 15: the web UI stays responsive with it).

The feed is `bench/make_feed.py --lean --items 60000` (38.5 MB, the same generator as `make bench`),
served on loopback and subscribed by the real binary. The test opens its podcast page and records
when the page painted first and when the first episode row showed (figures printed and written to
TEST_OUTPUT/big-podcast.txt, as `make bench` reports speed: no timed assertion here). What it asserts:
the newest episode first, only a page's worth of rows in the DOM (not 60,000), scrolling bringing
the next pages in order, and a tap on a row far down still playing that episode."""

import http.server
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from functools import partial
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import REPO, SCREENSHOTS, all_css, open_page, private_server, set_viewport, wait_until

ITEMS = 60_000
MAX_ROWS = 400  # the most episode rows the page may hold at once (as test_lists.py)


@pytest.fixture(scope="module")
def big_feed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("big-feed")
    subprocess.run([sys.executable, str(REPO / "bench" / "make_feed.py"), "--lean", "--items", str(ITEMS),
                    "--out", str(folder / "feed.xml")], check=True, capture_output=True, timeout=300)
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/feed.xml"
    finally:
        httpd.shutdown()


@pytest.fixture(scope="module")
def big_server(big_feed):
    with private_server("earshot-e2e-big-") as running:
        request = urllib.request.Request(running.url + "/api/subscriptions", method="POST",
                                         data=json.dumps({"url": big_feed}).encode(),
                                         headers={"Content-Type": "application/json"})
        started = time.monotonic()
        with urllib.request.urlopen(request, timeout=300) as response:
            running.podcast = json.loads(response.read())["podcast"]
        running.subscribe_seconds = time.monotonic() - started
        yield running


def rows(driver):
    return driver.execute_script("""
      return [...document.querySelectorAll('.view .paged-list .episode')].filter(li => !li.hidden)
        .map(li => [Number(li.getAttribute('aria-posinset')), li.querySelector('.episode-title').textContent]);""")


def test_a_podcast_of_60000_episodes_opens_and_scrolls(big_server, driver):
    podcast = big_server.podcast
    assert podcast["episodeCount"] == ITEMS, podcast
    set_viewport(driver, 1280, 800)
    open_page(driver, big_server, f"/podcast/{podcast['id']}")
    first_row_ms = wait_until(lambda: driver.execute_script(
        "return document.querySelector('.view .paged-list .episode') ? performance.now() : null"),
        timeout=60, interval=0.02, message="the first episode row")
    paint = driver.execute_script(
        "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null")
    api = driver.execute_script("""
      return performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname.startsWith('/api/'))
        .map(e => `${new URL(e.name).pathname}${new URL(e.name).search} ${Math.round(e.startTime)}→${Math.round(e.responseEnd)} ms`);""")
    shown = rows(driver)
    assert shown[0][0] == 1 and shown[0][1].startswith(f"{ITEMS}:"), shown[:2]  # newest first
    assert len(shown) <= MAX_ROWS, f"{len(shown)} rows in the DOM"
    driver.save_screenshot(str(SCREENSHOTS / "big-podcast-desktop.png"))

    # For comparison: the bundled demo podcast's page (a handful of episodes), the same way.
    open_page(driver, big_server, "/podcast/1")
    small_row_ms = wait_until(lambda: driver.execute_script(
        "return document.querySelector('.view .paged-list .episode') ? performance.now() : null"),
        timeout=60, interval=0.02, message="the demo's first episode row")
    open_page(driver, big_server, f"/podcast/{podcast['id']}")
    wait_until(lambda: rows(driver), timeout=60, message="the big podcast's rows again")

    # Scrolling brings the next pages, in order, and never piles the rows up.
    most = len(shown)
    for _ in range(6):
        last = max(position for position, _ in rows(driver))
        driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        wait_until(lambda: max(position for position, _ in rows(driver)) > last, timeout=20,
                   message=f"the rows after {last}")
        most = max(most, len(rows(driver)))
    positions = [position for position, _ in rows(driver)]
    assert positions == sorted(positions) and len(set(positions)) == len(positions), positions[:20]
    assert max(positions) >= 500 and most <= MAX_ROWS, (max(positions), most)

    # A row far down still answers a tap at once: it plays on the server.
    row = driver.execute_script("""
      const rows = [...document.querySelectorAll('.view .paged-list .episode')].filter(li => !li.hidden);
      const li = rows[rows.length - 5]; li.scrollIntoView({block: 'center'});
      return [li.getAttribute('aria-posinset'), li.querySelector('button[data-action="play"]').dataset.episodeId];""")
    driver.find_element(By.CSS_SELECTOR, f'.view button[data-action="play"][data-episode-id="{row[1]}"]').click()
    wait_until(lambda: (big_server.get_json("/api/state").get("episode") or {}).get("id") == int(row[1]),
               timeout=15, message="the tapped episode playing")

    set_viewport(driver, 390, 844, mobile=True)
    try:
        open_page(driver, big_server, f"/podcast/{podcast['id']}")
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".view .paged-list .episode"), timeout=60,
                   message="the phone's first row")
        driver.save_screenshot(str(SCREENSHOTS / "big-podcast-phone.png"))
    finally:
        set_viewport(driver, 1280, 800)

    report = (f"podcast of {ITEMS} episodes: subscribed in {big_server.subscribe_seconds:.1f} s (debug build); "
              f"podcast page: first contentful paint {paint if paint is None else round(paint)} ms, "
              f"first episode row {round(first_row_ms)} ms after navigation (the demo podcast's page: {round(small_row_ms)} ms); at most {most} rows in the DOM; "
              f"requests: {'; '.join(api)}")
    print(report)
    SCREENSHOTS.parent.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS.parent / "big-podcast.txt").write_text(report + "\n")
