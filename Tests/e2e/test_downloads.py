"""Offline episodes from the page: the download button and its ring on rows and the episode page,
the header's aggregate while anything downloads, and the Downloads view (stop, resume, retry,
delete), against a media server of the test's own that sends its audio slowly."""

import hashlib
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SCREENSHOTS, all_css, by_css, overflow, set_viewport, small_targets, tap, wait_until
from screens import match_baseline
from feeds import item, rss

KB = 1024


class MediaServer:
    """Serves byte bodies with a strong ETag, honouring Range and If-Range, at `rate` bytes per
    second (None: as fast as it can); `page` paths answer with an HTML page instead."""

    def __init__(self):
        self.bodies, self.rates, self.pages, self.ranges = {}, {}, set(), []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                path = self.path.split("?")[0]
                if path.endswith(".xml") and path in owner.bodies:
                    return self.send(200, owner.bodies[path], "application/rss+xml")
                if path in owner.pages:
                    return self.send(200, b"<!doctype html><title>Sign in</title><p>Please sign in.", "text/html")
                body = owner.bodies.get(path)
                if body is None:
                    return self.send(404, b"not here", "text/plain")
                etag = '"%s"' % hashlib.sha1(body).hexdigest()[:12]
                wanted, start, status, extra = self.headers.get("Range", ""), 0, 200, []
                owner.ranges.append((path, wanted))
                if wanted.startswith("bytes=") and self.headers.get("If-Range", etag) == etag:
                    start = int(wanted[6:].split("-")[0] or 0)
                    if start < len(body):
                        status = 206
                        extra.append(("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}"))
                self.send(status, body[start:], "audio/mpeg", [("ETag", etag)] + extra, rate=owner.rates.get(path))

            def send(self, status, body, content_type, extra=(), rate=None):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for name, value in extra:
                    self.send_header(name, value)
                self.end_headers()
                step = 16 * KB
                for offset in range(0, len(body), step):
                    self.wfile.write(body[offset:offset + step])
                    if rate:
                        time.sleep(step / rate)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # Earshot hung up (a stop, a shutdown): no failure

        self.httpd = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def url(self, path):
        return self.base + path

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def open_page(browser, server, path):
    """conftest's open_page with more patience: this test runs a download server beside Earshot,
    and on two busy cores a page has taken longer than 10 s to be ready."""
    browser.get(server.url + path)
    WebDriverWait(browser, 30).until(lambda b: b.execute_script("return document.body.dataset.ready === 'true'"))


def row_button(browser, episode_id):
    return by_css(browser, f'.episode[data-episode-id="{episode_id}"] .download-button')


def state_of(button):
    return button.get_attribute("data-state")


def ring_offset(button):
    return float(button.find_element(By.CSS_SELECTOR, ".ring-fill").get_attribute("stroke-dashoffset"))


def api_item(server, episode_id):
    items = server.get_json("/api/downloads")["items"]
    return next((i for i in items if i["episode"] == episode_id), None)


def view_row(browser, episode_id):
    return by_css(browser, f'.download-row[data-episode-id="{episode_id}"]')


def test_downloads_from_the_page(driver, own_server):
    server = own_server
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    media = MediaServer()
    rng = random.Random(6)
    try:
        slow = bytes(rng.getrandbits(8) for _ in range(1_600 * KB))
        quick = bytes(rng.getrandbits(8) for _ in range(200 * KB))
        media.bodies["/slow.mp3"], media.rates["/slow.mp3"] = slow, 200 * KB  # about 8 s
        media.bodies["/quick.mp3"] = quick
        media.pages.add("/walled.mp3")
        media.bodies["/feed.xml"] = rss("Offline Show", [
            item("Slow one", "slow", media.url("/slow.mp3"), published="Wed, 04 Mar 2026 10:00:00 GMT"),
            item("Walled one", "walled", media.url("/walled.mp3"), published="Tue, 03 Mar 2026 10:00:00 GMT"),
            item("Quick one", "quick", media.url("/quick.mp3"), published="Mon, 02 Mar 2026 10:00:00 GMT"),
        ]).encode()
        podcast = server.subscribe(media.url("/feed.xml"))
        episodes = {e["title"]: e for e in server.get_json(f"/api/podcasts/{podcast['id']}/episodes")["episodes"]}
        slow_id, walled_id, quick_id = (episodes[t]["id"] for t in ("Slow one", "Walled one", "Quick one"))

        set_viewport(driver, 1280, 800)
        open_page(driver, server, f"/podcast/{podcast['id']}")
        button = row_button(driver, slow_id)
        assert state_of(button) == "none"
        assert "Download Slow one" in button.get_attribute("aria-label")
        header = by_css(driver, ".header-downloads")
        assert not header.find_element(By.CSS_SELECTOR, ".header-downloads-progress").is_displayed()

        # Download: the ring fills, the header shows the aggregate.
        tap(driver, button)
        wait_until(lambda: state_of(row_button(driver, slow_id)) == "downloading", message="downloading")
        first = wait_until(lambda: (o := ring_offset(row_button(driver, slow_id))) < 95 and o, message="the ring to start filling")
        wait_until(lambda: ring_offset(row_button(driver, slow_id)) < first - 10, message="the ring to fill further")
        progress = by_css(driver, ".header-downloads-progress")
        wait_until(lambda: progress.is_displayed() and progress.text.startswith("0 of 1 downloaded, "),
                   message="the header aggregate")
        assert "is-running" in header.get_attribute("class")
        percent = int(progress.text.split(", ")[1].split(" ")[0])
        assert 0 <= percent < 100
        match_baseline(driver, "downloads-row-desktop")

        # Stop: paused, the partial file kept; the ring stays where it was.
        tap(driver, row_button(driver, slow_id))
        wait_until(lambda: state_of(row_button(driver, slow_id)) == "paused", message="paused")
        paused = api_item(server, slow_id)
        assert paused["state"] == "paused" and 0 < paused["bytes"] < len(slow)
        wait_until(lambda: not by_css(driver, ".header-downloads-progress").is_displayed(), message="the header to settle")

        # One that fails: the server sends a web page.
        tap(driver, row_button(driver, walled_id))
        wait_until(lambda: state_of(row_button(driver, walled_id)) == "failed", message="the walled episode to fail")
        assert "web page" in row_button(driver, walled_id).get_attribute("aria-label")
        tap(driver, row_button(driver, quick_id))
        wait_until(lambda: state_of(row_button(driver, quick_id)) == "done", message="the quick one to finish")

        # The Downloads view, reached from the header: paused, failed (with the reason), done.
        tap(driver, by_css(driver, ".header-downloads"))
        wait_until(lambda: driver.execute_script("return document.body.dataset.view") == "downloads", message="the Downloads view")
        wait_until(lambda: view_row(driver, slow_id).get_attribute("data-state") == "paused", message="the paused row")
        assert "Paused at" in view_row(driver, slow_id).find_element(By.CSS_SELECTOR, ".download-status").text
        failed = view_row(driver, walled_id)
        assert failed.find_element(By.XPATH, "ancestor::section").get_attribute("class").find("downloads-failed") >= 0
        assert "the server sent a web page, not audio" in failed.find_element(By.CSS_SELECTOR, ".download-error").text
        assert view_row(driver, quick_id).get_attribute("data-state") == "done"

        # Resume from the view: it continues from the partial file (a Range request from its size).
        tap(driver, view_row(driver, slow_id).find_element(By.CSS_SELECTOR, ".download-download"))
        wait_until(lambda: view_row(driver, slow_id).get_attribute("data-state") == "downloading", message="resumed")
        wait_until(lambda: by_css(driver, ".downloads-summary").is_displayed(), message="the view's summary")
        assert by_css(driver, ".downloads-summary").text.startswith("0 of 1 downloaded, ")
        assert ("/slow.mp3", f"bytes={paused['bytes']}-") in media.ranges or any(
            p == "/slow.mp3" and r.startswith("bytes=") and int(r[6:-1]) >= paused["bytes"] for p, r in media.ranges), media.ranges
        match_baseline(driver, "downloads-view-desktop")

        # Retry the failed one once the server behaves.
        media.pages.discard("/walled.mp3")
        media.bodies["/walled.mp3"] = quick[::-1]
        tap(driver, view_row(driver, walled_id).find_element(By.CSS_SELECTOR, ".download-retry"))
        wait_until(lambda: view_row(driver, walled_id).get_attribute("data-state") == "done", message="the retry to finish")

        # Stop from the view, then resume and let it finish quickly.
        tap(driver, view_row(driver, slow_id).find_element(By.CSS_SELECTOR, ".download-cancel"))
        wait_until(lambda: view_row(driver, slow_id).get_attribute("data-state") == "paused", message="stopped from the view")
        media.rates["/slow.mp3"] = None
        tap(driver, view_row(driver, slow_id).find_element(By.CSS_SELECTOR, ".download-download"))
        wait_until(lambda: view_row(driver, slow_id).get_attribute("data-state") == "done", timeout=20, message="the slow one done")
        assert api_item(server, slow_id)["bytes"] == len(slow)

        # Delete (with a confirm step): the row goes, the server forgets it.
        tap(driver, view_row(driver, quick_id).find_element(By.CSS_SELECTOR, ".download-delete"))
        tap(driver, by_css(driver, ".confirm-dialog .confirm-ok"))
        wait_until(lambda: not all_css(driver, f'.download-row[data-episode-id="{quick_id}"]'), message="the deleted row to go")
        assert api_item(server, quick_id) is None

        # The episode page's labelled button says so too.
        open_page(driver, server, f"/episode/{slow_id}")
        page_button = by_css(driver, ".episode-page .download-button")
        assert state_of(page_button) == "done" and page_button.text == "Downloaded"
        match_baseline(driver, "downloads-episode-desktop")
        open_page(driver, server, f"/episode/{quick_id}")
        assert by_css(driver, ".episode-page .download-button").text == "Download"

        # A phone: no sideways scrolling, every download control a full touch target.
        set_viewport(driver, 390, 844, mobile=True)
        media.rates["/quick.mp3"] = 40 * KB
        open_page(driver, server, f"/podcast/{podcast['id']}")
        tap(driver, row_button(driver, quick_id))
        wait_until(lambda: "is-running" in by_css(driver, ".header-downloads").get_attribute("class"), message="running on a phone")
        width, inner = overflow(driver)
        assert width <= inner, f"the podcast page scrolls sideways: {width} > {inner}"
        assert small_targets(driver, ".download-button, .header-downloads") == []
        match_baseline(driver, "downloads-row-phone")
        open_page(driver, server, "/downloads")
        wait_until(lambda: all_css(driver, ".download-row"), message="rows on a phone")
        width, inner = overflow(driver)
        assert width <= inner, f"the Downloads view scrolls sideways: {width} > {inner}"
        assert small_targets(driver, ".download-row button, .download-setting") == []
        match_baseline(driver, "downloads-view-phone")
    finally:
        set_viewport(driver, 1280, 800)
        media.close()


def test_download_settings_from_the_view(driver, own_server):
    server = own_server
    open_page(driver, server, "/downloads")
    concurrency = by_css(driver, "#download-concurrency")
    assert concurrency.get_attribute("value") == "2"
    tap(driver, concurrency)
    concurrency.find_element(By.CSS_SELECTOR, 'option[value="3"]').click()
    wait_until(lambda: server.get_json("/api/downloads")["settings"]["concurrency"] == 3, message="concurrency 3")
    cleanup = by_css(driver, "#download-cleanup")
    cleanup.find_element(By.CSS_SELECTOR, 'option[value="7"]').click()
    wait_until(lambda: server.get_json("/api/downloads")["settings"]["deletePlayedAfterDays"] == 7, message="cleanup 7 days")
    demo = next(p for p in server.get_json("/api/podcasts")["podcasts"] if p["title"] == "Earshot Demo")
    auto = by_css(driver, f"#download-auto-{demo['id']}")
    auto.find_element(By.CSS_SELECTOR, 'option[value="2"]').click()
    wait_until(lambda: server.get_json("/api/downloads")["settings"]["autoDownload"] == {str(demo["id"]): 2},
               message="auto-download the newest 2")
    # Another page load shows what the server keeps.
    open_page(driver, server, "/downloads")
    assert by_css(driver, "#download-concurrency").get_attribute("value") == "3"
    assert by_css(driver, "#download-cleanup").get_attribute("value") == "7"
    assert by_css(driver, f"#download-auto-{demo['id']}").get_attribute("value") == "2"
