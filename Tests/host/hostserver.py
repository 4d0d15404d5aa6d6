"""The real earshot server for the host tests, a WebSocket client to drive it, and a loopback
file server for the feeds and audio the tests make up.

    server = launch(env=sound.env)          # EARSHOT_BIN serve --port 0 --data TMP --no-demo
    try:                                    #   --audio-output pulse --no-mpris --web-root REPO
        client = server.socket()
        client.command("play", episode=3)
        arrival, state = client.wait_for(lambda m: m["type"] == "state" and not m["paused"])
    finally:
        server.stop()

- `launch(args=(), env=None, data=None, *, demo=False, mpris=False, audio_output="pulse",
  web_root=REPO)` starts the binary named by env `EARSHOT_BIN` (default `.build/debug/earshot`
  under the repository), waits for "Earshot is serving on http://127.0.0.1:PORT/" and returns a
  `Server` (`.url`, `.port`, `.data`, `.process`, `.output`, `.stop()`, `.get_json(path)`,
  `.post_json(path, body)`, `.socket()`). `env` is added to this process's environment
  (`PULSE_SERVER`, `DBUS_SESSION_BUS_ADDRESS`, …); `XDG_CONFIG_HOME` points into the data folder
  unless `env` names one, so a developer's own earshot.conf never changes a test. `data=None`
  makes a temporary data folder that `stop()` removes; a folder passed in is left alone (start
  a second server on it to test a restart). `demo=True` lets the server subscribe its bundled
  demo podcast on first start; `mpris=True` lets it register on the session bus.
- `Server` is also a context manager (`with launch(...) as server:`) that stops it.
- `Client` (`server.socket()`) is websocket-client on `/ws` with the Origin the server demands
  (`http://127.0.0.1:PORT`). A reader thread keeps every message with its arrival time
  (`time.monotonic()`), so a test can ask what came when *after the fact*: `wait_for(predicate,
  timeout, after=t)` returns the first (arrival, message) received after monotonic time `t`
  that satisfies the predicate, waiting for it when it has not come yet. `command(cmd, **args)`
  sends `{"cmd", "id", …}` and returns the server's `ack` (raises `CommandError` on `error`);
  `state` is the latest `state` message with later `time` messages folded in.
- `FileServer` serves bytes on http://127.0.0.1:PORT/… from a thread (with `Range`, so mpv can
  seek), and `tone_feed()` writes the RSS of a podcast whose episodes are files on it. Every
  request it gets is kept in `requests` (`Request`: arrival, path, `Range`, `If-Range`,
  `User-Agent`, and the `generation` the test had set then). `FileServer(validators=True)` also
  sends a strong `ETag` and a `Last-Modified`, honours `If-Range` and `If-None-Match` and answers
  416 past the end, as a real server does (what a download needs to resume); `put(..., rate=B)`
  sends that body at about B bytes a second, so a client can be caught mid-transfer.
- `Server.kill()` is SIGKILL (a crash: nothing saved on the way out); `stop()` is SIGTERM.
"""

import collections
import contextlib
import hashlib
import html
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import websocket

REPO = Path(__file__).resolve().parents[2]
SERVING = re.compile(r"Earshot is serving on (http://127\.0\.0\.1:(\d+))/?\s*$")
START_TIMEOUT = 20


def binary():
    """The earshot binary under test: env EARSHOT_BIN (relative paths from the repository),
    default .build/debug/earshot."""
    named = Path(os.environ.get("EARSHOT_BIN") or ".build/debug/earshot")
    return named if named.is_absolute() else REPO / named


class ServerError(RuntimeError):
    pass


class CommandError(AssertionError):
    """The server answered a command with `{"type": "error"}`."""

    def __init__(self, cmd, reply):
        super().__init__(f"{cmd}: {reply.get('message')}")
        self.reply = reply


class Server:
    """A running earshot (see `launch`)."""

    def __init__(self, url, port, data, process, output, own_data):
        self.url, self.port, self.data, self.process, self.output = url, port, data, process, output
        self._own_data = own_data
        self._clients = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self, timeout=10):
        """Closes this harness's sockets, sends SIGTERM, kills after `timeout` s; removes the data
        folder when `launch` made it. Returns the exit status. Safe to call twice."""
        for client in list(self._clients):
            client.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self._own_data:
            shutil.rmtree(self.data, ignore_errors=True)
        return self.process.returncode

    def kill(self, timeout=10):
        """SIGKILL at once (a crash: nothing is saved on the way out), waits for the process and
        closes this harness's sockets. The data folder is left as the crash left it, even when
        `launch` made it (`stop()` removes that). Returns the exit status (-9). Safe to call twice."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=timeout)
        for client in list(self._clients):
            client.close()
        return self.process.returncode

    def log(self, lines=40):
        return "\n".join(self.output[-lines:])

    # -- HTTP -----------------------------------------------------------------------------------

    def get(self, path, timeout=10):
        """GET `path`: (status, body bytes)."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def get_json(self, path):
        """GET `path`, asserting 200; the decoded JSON."""
        status, body = self.get(path)
        assert status == 200, f"GET {path}: {status} {body[:200]!r}"
        return json.loads(body)

    def post_json(self, path, body, timeout=60):
        """POST `body` as JSON: (status, decoded answer or None)."""
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        return status, (json.loads(raw) if raw else None)

    def state(self):
        return self.get_json("/api/state")

    def subscribe(self, feed_url):
        """Subscribes through `POST /api/subscriptions`; returns the Podcast."""
        status, body = self.post_json("/api/subscriptions", {"url": feed_url})
        assert status in (200, 201), f"subscribe {feed_url}: {status} {body}"
        return body["podcast"]

    def episodes(self, podcast_id, sort="oldest"):
        """The podcast's episodes (oldest first by default)."""
        return self.get_json(f"/api/episodes?podcast={podcast_id}&sort={sort}&limit=1000")["episodes"]

    # -- WebSocket ------------------------------------------------------------------------------

    def socket(self, timeout=10):
        """A new connected `Client`; closed by `stop()` if the test does not close it."""
        client = Client(self, timeout)
        self._clients.append(client)
        return client


def launch(args=(), env=None, data=None, *, demo=False, mpris=False, snapcast=False, audio_output="pulse",
           web_root=REPO, timeout=START_TIMEOUT):
    """Starts `EARSHOT_BIN serve --port 0 --data DATA [--no-demo] --audio-output OUTPUT
    [--no-mpris] --web-root WEB_ROOT ARGS…` and returns the `Server` once it announced its URL."""
    path = binary()
    if not path.exists():
        raise ServerError(f"earshot binary not found at {path} (build it, or set EARSHOT_BIN)")
    own_data = data is None
    data = Path(tempfile.mkdtemp(prefix="earshot-host-")) if own_data else Path(data)
    argv = [str(path), "serve", "--port", "0", "--data", str(data)]
    if not demo:
        argv.append("--no-demo")
    if audio_output:
        argv += ["--audio-output", audio_output]
    if not mpris:
        argv.append("--no-mpris")
    # No snapserver of its own unless the test is about rooms (Tests/host/test_rooms.py): servers
    # of other tests must not fight over Snapcast's ports.
    if not snapcast:
        argv.append("--no-snapcast")
    if web_root:
        argv += ["--web-root", str(web_root)]
    argv += list(args)
    environment = dict(os.environ)
    environment["XDG_CONFIG_HOME"] = str(data / "config")
    environment.update(env or {})
    process = subprocess.Popen(argv, cwd=REPO, env=environment, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
                               start_new_session=True)
    output, found, where = [], threading.Event(), {}

    def drain():  # keep reading so the server never blocks on a full pipe
        for line in process.stdout:
            output.append(line.rstrip("\n"))
            match = SERVING.search(line)
            if match and not found.is_set():
                where.update(url=match.group(1), port=int(match.group(2)))
                found.set()

    threading.Thread(target=drain, daemon=True).start()
    deadline = time.monotonic() + timeout
    while not found.wait(0.05):
        if process.poll() is not None or time.monotonic() > deadline:
            server = Server("", 0, data, process, output, own_data)
            server.stop()
            raise ServerError(f"earshot did not announce its URL (exit {process.returncode}); output:\n"
                              + "\n".join(output[-40:]))
    return Server(where["url"], where["port"], data, process, output, own_data)


class Client:
    """One WebSocket connection to the server's `/ws`, every message kept with its arrival
    time (see the module notes)."""

    def __init__(self, server, timeout=10):
        self.server = server
        self.messages = []  # (arrival monotonic, message dict), in arrival order
        self._cond = threading.Condition()
        self._next_id = 1
        self._closed = False
        ws_url = server.url.replace("http://", "ws://", 1) + "/ws"
        self.ws = websocket.create_connection(ws_url, origin=server.url, timeout=timeout)
        self.ws.settimeout(None)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        while True:
            try:
                raw = self.ws.recv()
            except Exception:  # closed (by us or the server)
                break
            now = time.monotonic()
            if not raw:
                continue
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            with self._cond:
                self.messages.append((now, message))
                self._cond.notify_all()
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        self._reader.join(timeout=5)
        if self in self.server._clients:
            self.server._clients.remove(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- sending --------------------------------------------------------------------------------

    def send(self, cmd, **args):
        """Sends a command without waiting: returns (id, monotonic time just before sending)."""
        with self._cond:
            ident = f"t{self._next_id}"
            self._next_id += 1
        frame = json.dumps({"cmd": cmd, "id": ident, **args})
        sent = time.monotonic()
        self.ws.send(frame)
        return ident, sent

    def command(self, cmd, timeout=10, **args):
        """Sends a command and waits for its answer: the `ack` message; `CommandError` on
        `error`."""
        ident, sent = self.send(cmd, **args)
        _, reply = self.wait_for(lambda m: m.get("id") == ident and m.get("type") in ("ack", "error"),
                                 timeout=timeout, after=sent - 1, types=None,
                                 what=f"the answer to {cmd}")
        if reply["type"] == "error":
            raise CommandError(cmd, reply)
        return reply

    # -- receiving ------------------------------------------------------------------------------

    def wait_for(self, predicate, timeout=10, after=None, types=("state", "time"), what=None):
        """The first (arrival, message) with `message["type"]` in `types` (None: any type) that
        arrived after monotonic time `after` (None: any time) and satisfies `predicate`, waiting
        up to `timeout` s for it. AssertionError (naming `what` and the last state) when none
        comes."""
        deadline = time.monotonic() + timeout
        checked = 0
        with self._cond:
            while True:
                for index in range(checked, len(self.messages)):
                    arrival, message = self.messages[index]
                    if after is not None and arrival <= after:
                        continue
                    if types is not None and message.get("type") not in types:
                        continue
                    if predicate(message):
                        return arrival, message
                checked = len(self.messages)
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    break
                self._cond.wait(left)
        last = self.state
        summary = {k: last.get(k) for k in ("paused", "position", "rate", "volume", "muted", "notice",
                                            "resumeOffer", "output", "error")} if last else None
        if last:
            summary["outputs"] = [o.get("name") for o in last.get("outputs", [])]
        # The server's last log lines say what it was doing (a restarted mpv, a stalled device
        # list): a rare timeout is then diagnosable from the run's output alone.
        raise AssertionError(f"timed out after {timeout} s waiting for {what or 'a matching message'}"
                             f"{' (socket closed)' if self._closed else ''}; last state: {summary}\n"
                             f"server log (last lines):\n{self.server.log(15)}")

    def wait_state(self, predicate, timeout=10, after=None, what=None):
        """`wait_for` on `state` messages only."""
        return self.wait_for(predicate, timeout, after, types=("state",), what=what)

    def received(self, types=("state", "time"), after=None, before=None):
        """A copy of the (arrival, message) pairs of `types` between `after` and `before`."""
        with self._cond:
            return [(t, m) for t, m in self.messages
                    if (types is None or m.get("type") in types)
                    and (after is None or t > after) and (before is None or t <= before)]

    @property
    def state(self):
        """The latest `state` with the `time` messages after it folded in (None before any)."""
        with self._cond:
            current = None
            for _, message in self.messages:
                if message.get("type") == "state":
                    current = dict(message)
                elif message.get("type") == "time" and current is not None:
                    current.update({k: message[k] for k in ("position", "duration", "rate", "paused") if k in message})
            return current


# -- feeds and files on loopback ------------------------------------------------------------------

Request = collections.namedtuple("Request", "time path range if_range agent generation")


class FileServer:
    """Serves `put` bodies on http://127.0.0.1:PORT/… (a thread of its own); honours `Range`.
    With `tls` (an `ssl.SSLContext` holding the server's certificate) it is https://….
    With `validators` every answer carries a strong `ETag` (of the body) and a `Last-Modified`;
    `If-Range` that matches neither gets the whole body (200), `If-None-Match` that matches gets
    304, and a `Range` starting at or past the end gets 416 (`Content-Range: bytes */SIZE`).
    Every request is appended to `requests` (`Request`s; `generation` is whatever the test last
    set, e.g. which run of a server it is). `close()` stops it."""

    LAST_MODIFIED = "Mon, 02 Mar 2026 10:00:00 GMT"

    def __init__(self, tls=None, validators=False):
        self.routes = {}
        self.prefixes = {}  # path prefix -> (body, type) for every path under it (`put_prefix`)
        self.hits = {}
        self.rates = {}  # path -> bytes a second (`put(..., rate=)`); absent: as fast as it goes
        self.etags = {}  # path -> strong ETag of its body (sent with `validators`)
        self.requests = []
        self.generation = None
        lock = self._lock = threading.Lock()
        routes, hits, rates, etags, requests = self.routes, self.hits, self.rates, self.etags, self.requests
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def setup(self):
                if hasattr(self.request, "do_handshake"):  # TLS: here, in this connection's thread
                    self.request.settimeout(10)
                    self.request.do_handshake()
                super().setup()

            def do_HEAD(self):
                self.answer(head=True)

            def do_GET(self):
                self.answer(head=False)

            def answer(self, head):
                path = self.path.split("?")[0]
                wanted = self.headers.get("Range", "")
                with lock:
                    route = routes.get(path)
                    if route is None:
                        route = next((v for k, v in owner.prefixes.items() if path.startswith(k)), None)
                    hits[path] = hits.get(path, 0) + 1
                    rate, etag = rates.get(path), etags.get(path)
                    requests.append(Request(time.monotonic(), path, self.headers.get("Range"),
                                            self.headers.get("If-Range"), self.headers.get("User-Agent"),
                                            owner.generation))
                if route is None:
                    body, status, kind = b"not here", 404, "text/plain"
                else:
                    body, kind = route
                    status = 200
                extra = []
                if validators and status == 200:
                    extra += [("ETag", etag), ("Last-Modified", FileServer.LAST_MODIFIED)]
                    if_range = self.headers.get("If-Range")
                    if if_range is not None and if_range not in (etag, FileServer.LAST_MODIFIED):
                        wanted = ""  # the file changed (as far as the client can tell): all of it
                    if self.headers.get("If-None-Match") == etag:
                        status, body = 304, b""
                if status == 200 and wanted.startswith("bytes="):
                    first, _, last = wanted[6:].partition("-")
                    start = int(first or 0)
                    end = min(int(last) if last else len(body) - 1, len(body) - 1)
                    if start < len(body):
                        extra.append(("Content-Range", f"bytes {start}-{end}/{len(body)}"))
                        body, status = body[start:end + 1], 206
                    elif validators:
                        extra.append(("Content-Range", f"bytes */{len(body)}"))
                        body, status = b"", 416
                self.send_response(status)
                if status != 304:
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(body)))
                self.send_header("Accept-Ranges", "bytes")
                for name, value in extra:
                    self.send_header(name, value)
                self.end_headers()
                if not head:
                    try:
                        self.send_body(body, rate)
                    except (BrokenPipeError, ConnectionResetError):
                        pass

            def send_body(self, body, rate):
                if not rate:
                    self.wfile.write(body)
                    return
                view, began = memoryview(body), time.monotonic()
                piece = max(1024, int(rate / 20))  # about 20 writes a second
                for offset in range(0, len(view), piece):
                    self.wfile.write(view[offset:offset + piece])
                    ahead = began + (offset + piece) / rate - time.monotonic()
                    if ahead > 0:
                        time.sleep(ahead)

        class Quiet(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # a client that hung up mid-answer is no failure

        self.httpd = Quiet(("127.0.0.1", 0), Handler)
        if tls is not None:  # each handshake happens in the handler's thread, so a refused one stalls nothing
            self.httpd.socket = tls.wrap_socket(self.httpd.socket, server_side=True, do_handshake_on_connect=False)
        scheme = "https" if tls is not None else "http"
        self.base = f"{scheme}://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def put(self, path, body, content_type="application/octet-stream", rate=None):
        """Serves `body` (bytes or str) at `path` (at about `rate` bytes a second when given);
        returns its URL."""
        data = body.encode() if isinstance(body, str) else bytes(body)
        etag = '"' + hashlib.sha1(data).hexdigest() + '"'
        with self._lock:
            self.routes[path] = (data, content_type)
            self.etags[path] = etag
            if rate:
                self.rates[path] = rate
            else:
                self.rates.pop(path, None)
        return self.base + path

    def put_prefix(self, prefix, body, content_type="application/octet-stream"):
        """Serves `body` at every path under `prefix` that has no `put` of its own (many enclosures
        of one file)."""
        data = body.encode() if isinstance(body, str) else bytes(body)
        with self._lock:
            self.prefixes[prefix] = (data, content_type)

    def set_rate(self, path, rate):
        """From the next request on, `path` is sent at about `rate` bytes a second (None: at full speed)."""
        with self._lock:
            if rate:
                self.rates[path] = rate
            else:
                self.rates.pop(path, None)

    def requests_for(self, path):
        """A copy of the `Request`s for `path`, in arrival order."""
        with self._lock:
            return [r for r in self.requests if r.path == path]

    def put_file(self, path, file, content_type="audio/wav"):
        return self.put(path, Path(file).read_bytes(), content_type)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def tone_feed(files, title, episodes, path="/feed.xml"):
    """Puts an RSS feed at `path` of `files` (a FileServer) and returns its URL. `episodes`:
    [(episode title, audio URL, seconds)] or (…, seconds, chapters URL) for Podcasting 2.0
    chapters, the first the oldest."""
    items = []
    for number, (name, url, seconds, *more) in enumerate(episodes, start=1):
        chapters = f'<podcast:chapters url="{html.escape(more[0])}" type="application/json+chapters"/>' if more else ""
        items.append(f"""<item>{chapters}
<title>{html.escape(name)}</title>
<guid isPermaLink="false">{html.escape(title)}-{number}</guid>
<pubDate>Mon, {number:02d} Mar 2026 10:00:00 GMT</pubDate>
<enclosure url="{html.escape(url)}" type="audio/wav" length="{int(seconds * 88200 + 44)}"/>
<itunes:duration>{int(seconds)}</itunes:duration>
</item>""")
    feed = f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel>
<title>{html.escape(title)}</title>
<link>https://example.com/</link>
<description>Tones for the host tests.</description>
{"".join(items)}
</channel>
</rss>"""
    return files.put(path, feed, "application/rss+xml; charset=utf-8")


@contextlib.contextmanager
def running(args=(), env=None, data=None, **options):
    """`launch(...)` as a context manager that stops the server afterwards, whatever happened."""
    server = launch(args, env, data, **options)
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def tone_podcast(title, tones):
    """A podcast of tones on a loopback FileServer: `tones` is [(episode title, file name, Hz,
    seconds)], the first the oldest; yields the FileServer, its feed's URL in `.feed`. The WAV
    files are written by `audio.write_tone` into a temporary folder, removed after."""
    import audio  # the host tests' own module, beside this one
    folder = Path(tempfile.mkdtemp(prefix="earshot-tones-"))
    files = FileServer()
    try:
        episodes = []
        for name, file, hertz, seconds in tones:
            path = audio.write_tone(folder / file, hertz, seconds)
            episodes.append((name, files.put_file("/" + file, path), seconds))
        files.feed = tone_feed(files, title, episodes)
        yield files
    finally:
        files.close()
        shutil.rmtree(folder, ignore_errors=True)



def wait(condition, timeout=5, what="condition", interval=0.05):
    """Polls `condition()` until it returns something truthy (returned), or fails after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")
