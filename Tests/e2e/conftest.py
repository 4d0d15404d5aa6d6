"""Browser tests for the Earshot web client: a real server, a real headless Chromium.

The server is the real binary (env EARSHOT_BIN, default .build/debug/earshot), started on a
free port with a fresh data directory and no audio output; it subscribes the bundled demo
podcast on first start.
"""

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("TEST_OUTPUT") or REPO / "test-output") / "screenshots"
SERVING = re.compile(r"Earshot is serving on (http://\S+?)/?\s*$")
START_TIMEOUT = 20


class Server:
    """A running earshot process and how to reach it."""

    def __init__(self, url, process, output):
        self.url = url.rstrip("/")
        self.process = process
        self.output = output  # lines the server printed, for failure messages

    def get(self, path):
        """GET `path`; returns (status, body text)."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8")

    def get_json(self, path):
        status, body = self.get(path)
        assert status == 200, f"GET {path}: {status} {body[:200]}"
        return json.loads(body)

    def post_json(self, path, payload):
        """POST JSON; returns (status, decoded body)."""
        request = urllib.request.Request(
            self.url + path, data=json.dumps(payload).encode(), method="POST",
            headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def state(self):
        return self.get_json("/api/state")

    def subscribe(self, feed_url):
        """Subscribes through the API; returns the Podcast."""
        status, body = self.post_json("/api/subscriptions", {"url": feed_url})
        assert status in (200, 201), f"subscribe {feed_url}: {status} {body}"
        return body["podcast"]

    def podcast_by_feed(self, feed_url):
        """The subscribed Podcast whose feedUrl is `feed_url`, or None."""
        podcasts = self.get_json("/api/podcasts")["podcasts"]
        return next((p for p in podcasts if p["feedUrl"] == feed_url), None)


def launch(port=0, data=None, args=(), snapcast=False):
    """Starts the real server (`serve --port PORT --data DATA --audio-output null`, then `args`)
    and waits until it prints its URL."""
    binary = Path(os.environ.get("EARSHOT_BIN", REPO / ".build" / "debug" / "earshot"))
    if not binary.exists():
        pytest.fail(f"earshot binary not found at {binary} (build it, or set EARSHOT_BIN)")
    process = subprocess.Popen(
        # --no-snapcast: no snapserver per test server, but where the test is about the rooms.
        [str(binary), "serve", "--port", str(port), "--data", str(data), "--audio-output", "null",
         *([] if snapcast else ["--no-snapcast"]), *args],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    output, found = [], threading.Event()
    url = {}

    def drain():  # keep reading so the server never blocks on a full pipe
        for line in process.stdout:
            output.append(line.rstrip("\n"))
            match = SERVING.search(line)
            if match and not found.is_set():
                url["value"] = match.group(1)
                found.set()

    threading.Thread(target=drain, daemon=True).start()
    if not found.wait(START_TIMEOUT):
        stop(process)
        pytest.fail("server did not announce its URL within 20 s; output:\n" + "\n".join(output[-40:]))
    return Server(url["value"], process, output)


@pytest.fixture(scope="session")
def feed_server():
    """A local feed server (127.0.0.1, ephemeral port) for the whole session."""
    from feeds import FeedServer
    serving = FeedServer()
    try:
        yield serving
    finally:
        serving.close()


@contextlib.contextmanager
def private_server(prefix):
    """A server on a fresh data folder of its own, stopped and its folder removed afterwards."""
    data = tempfile.mkdtemp(prefix=prefix)
    running = launch(0, data)
    try:
        yield running
    finally:
        stop(running.process)
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture
def own_server():
    """A server of the test's own (fresh library): for tests whose result depends on every feed
    in the library, such as Refresh all."""
    with private_server("earshot-e2e-own-") as running:
        yield running


@pytest.fixture(scope="session")
def server():
    data = tempfile.mkdtemp(prefix="earshot-e2e-")
    running = launch(0, data)
    try:
        yield running
    finally:
        stop(running.process)
        shutil.rmtree(data, ignore_errors=True)


def stop(process):
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def driver():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--autoplay-policy=no-user-gesture-required", "--window-size=1280,800"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    browser.set_script_timeout(15)
    set_viewport(browser, 1280, 800)
    yield browser
    browser.quit()


@pytest.fixture(autouse=True)
def no_script_errors(request):
    """Fails a test whose page threw an uncaught JavaScript exception."""
    yield
    if "driver" not in request.fixturenames:
        return
    browser = request.getfixturevalue("driver")
    errors = [entry["message"] for entry in browser.get_log("browser")
              if entry["level"] == "SEVERE" and "Uncaught" in entry["message"]]
    assert not errors, "JavaScript errors:\n" + "\n".join(errors)


def set_viewport(browser, width, height, mobile=False):
    """Emulates a viewport of exactly width×height CSS pixels."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def wait_until(condition, timeout=10, interval=0.1, message="condition"):
    """Polls `condition()` until it returns something truthy; returns that value."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # a node replaced mid-read: try again
            last_error = error
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {message}" + (f" (last error: {last_error})" if last_error else ""))


def command(browser, cmd, **args):
    """Sends one command over a fresh WebSocket from the page (same origin); returns the reply."""
    return browser.execute_async_script("""
        const [message, done] = [arguments[0], arguments[arguments.length - 1]];
        const ws = new WebSocket(`ws://${location.host}/ws`);
        ws.onopen = () => ws.send(JSON.stringify(message));
        ws.onmessage = (event) => {
          const reply = JSON.parse(event.data);
          if (reply.id === message.id) { ws.close(); done(reply); }
        };
        ws.onerror = () => done({type: 'error', message: 'socket error'});
    """, {"id": "e2e", "cmd": cmd, **args})


def open_page(browser, server, path="/"):
    """Loads `path` and waits for the client to take over (the router marks the view)."""
    browser.get(server.url + path)
    WebDriverWait(browser, 10).until(
        lambda b: b.execute_script("return document.body.dataset.ready === 'true'"))


def demo_episode(server):
    """The longest demo episode (tests need time to scrub and skip)."""
    episodes = server.get_json("/api/episodes?limit=100")["episodes"]
    demo = [e for e in episodes if e["podcast"] == "Earshot Demo"]
    assert len(demo) >= 3, f"expected the demo podcast's episodes, got {[e['title'] for e in episodes]}"
    return max(demo, key=lambda e: e["duration"])


def play_from_start(browser, server, episode):
    """Plays `episode` from 0 s and waits until the server reports it playing."""
    reply = command(browser, "play", episode=episode["id"])
    assert reply["type"] == "ack", reply
    assert command(browser, "seek", to=0)["type"] == "ack"
    wait_until(lambda: (s := server.state())["episode"] and s["episode"]["id"] == episode["id"]
               and not s["paused"] and s["position"] < 10, message="the episode to play from the start")


def by_css(browser, selector):
    return browser.find_element(By.CSS_SELECTOR, selector)


def all_css(browser, selector):
    return browser.find_elements(By.CSS_SELECTOR, selector)


def record_texts(browser, selector):
    """Records every text `selector` shows from now on (in window.__texts), so a test sees
    short-lived states such as progress."""
    browser.execute_script("""
        const el = document.querySelector(arguments[0]);
        window.__texts = [el.textContent];
        new MutationObserver(() => {
          if (window.__texts[window.__texts.length - 1] !== el.textContent) window.__texts.push(el.textContent);
        }).observe(el, {subtree: true, childList: true, characterData: true});
    """, selector)


def recorded_texts(browser):
    return browser.execute_script("return window.__texts")


def tap(browser, element):
    """Scrolls `element` to the middle of the screen (clear of the fixed bars), then clicks it."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


MIN_TARGET = 44


def overflow(driver):
    return driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")


def small_targets(driver, selector, minimum=MIN_TARGET):
    """Visible buttons/links/fields under `selector` smaller than 44 px (tall, or wide for buttons)."""
    return driver.execute_script("""
        const small = [];
        for (const el of document.querySelectorAll(arguments[0])) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;  // not shown
          const tooShort = r.height < arguments[1] - 0.5;
          const tooNarrow = el.tagName === 'BUTTON' && r.width < arguments[1] - 0.5;
          if (tooShort || tooNarrow) small.push(`${el.tagName} ${el.className} ${el.getAttribute('aria-label') || el.textContent.trim()}: ${r.width}x${r.height}`);
        }
        return small;
    """, selector, minimum)
