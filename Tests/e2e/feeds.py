"""A local feed server for the browser tests, and small builders for the feeds it serves.

`FeedServer` is Python's `http.server` on 127.0.0.1 with an ephemeral port, started by the test
that needs it. Each path has a body, a status and an optional delay; a test can change them while
Earshot is subscribed (a feed that goes 410, a slow feed). Byte bodies honour `Range`, so mpv can
seek in the audio it serves.
"""

import html
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEMO_AUDIO = REPO / "Public" / "demo" / "audio" / "02-browser.mp3"  # 66 s of speech
RSS_TYPE = "application/rss+xml; charset=utf-8"


@dataclass
class Route:
    body: bytes
    status: int = 200
    content_type: str = RSS_TYPE
    delay: float = 0.0


class FeedServer:
    """Serves `put` bodies on http://127.0.0.1:PORT/…; `close()` stops it."""

    def __init__(self):
        self.routes = {}
        self.hits = {}
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def do_HEAD(self):
                self.answer(head=True)

            def do_GET(self):
                self.answer(head=False)

            def answer(self, head):
                path = self.path.split("?")[0]
                with owner._lock:
                    route = owner.routes.get(path)
                    owner.hits[path] = owner.hits.get(path, 0) + 1
                if route is None:
                    route = Route(b"not here", status=404, content_type="text/plain")
                if route.delay:
                    time.sleep(route.delay)
                body, status, extra = route.body, route.status, []
                wanted = self.headers.get("Range", "")
                if status == 200 and wanted.startswith("bytes="):
                    first, _, last = wanted[6:].partition("-")
                    start = int(first or 0)
                    end = min(int(last) if last else len(body) - 1, len(body) - 1)
                    if start < len(body):
                        extra.append(("Content-Range", f"bytes {start}-{end}/{len(body)}"))
                        body, status = body[start:end + 1], 206
                self.send_response(status)
                self.send_header("Content-Type", route.content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Accept-Ranges", "bytes")
                for name, value in extra:
                    self.send_header(name, value)
                self.end_headers()
                if not head:
                    self.wfile.write(body)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # a client that hung up mid-answer (Earshot stopped, a cancelled fetch) is no failure

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def url(self, path):
        return self.base + path

    def put(self, path, body, status=200, content_type=RSS_TYPE, delay=0.0):
        """Serves `body` (str or bytes) at `path`; returns its URL."""
        data = body.encode("utf-8") if isinstance(body, str) else body
        with self._lock:
            self.routes[path] = Route(data, status, content_type, delay)
        return self.url(path)

    def set(self, path, **changes):
        """Changes a route's status, delay, body…"""
        with self._lock:
            for name, value in changes.items():
                setattr(self.routes[path], name, value)

    def put_audio(self, path="/audio.mp3"):
        """Serves the demo's longest MP3 (66 s) at `path`; returns its URL."""
        return self.put(path, DEMO_AUDIO.read_bytes(), content_type="audio/mpeg")

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def rss(title, items, channel_extra="", description="A feed served by the browser tests."):
    """An RSS 2.0 feed with the iTunes, Podcasting 2.0, Podlove chapters and content namespaces.
    `title` and `description` are escaped; `channel_extra` and item fields are raw XML."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:podcast="https://podcastindex.org/namespace/1.0"
     xmlns:psc="http://podlove.org/simple-chapters">
<channel>
<title>{html.escape(title)}</title>
<link>https://example.com/</link>
<description>{html.escape(description)}</description>
{channel_extra}
{"".join(items)}
</channel>
</rss>"""


def item(title, guid, enclosure, published="Mon, 02 Mar 2026 10:00:00 GMT", extra="", raw_title=False):
    """One `<item>`; `title` is escaped unless `raw_title`; `extra` is raw XML (description,
    content:encoded, chapters…)."""
    shown = title if raw_title else html.escape(title)
    return f"""<item>
<title>{shown}</title>
<guid isPermaLink="false">{html.escape(guid)}</guid>
<pubDate>{published}</pubDate>
<enclosure url="{html.escape(enclosure)}" type="audio/mpeg" length="267465"/>
<itunes:duration>66</itunes:duration>
{extra}
</item>"""


def simple_feed(title, audio_url, episodes=2):
    """A plain feed with `episodes` items."""
    return rss(title, [item(f"{title} — episode {n}", f"{title}-{n}", audio_url,
                            published=f"Mon, {n + 1:02d} Mar 2026 10:00:00 GMT",
                            extra=f"<description>Episode {n} of {html.escape(title)}.</description>")
                       for n in range(1, episodes + 1)])
