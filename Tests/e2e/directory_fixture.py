"""A loopback stand-in for the podcast directories Earshot searches, for the browser tests.

`DirectoryServer` answers, on http://127.0.0.1:PORT, in the shapes the real services document:
- Apple's iTunes Search API: `GET /search?media=podcast&entity=podcast&limit=30&term=…`
  (`{"resultCount", "results": [{"wrapperType": "track", "kind": "podcast", …}]}`), the legacy top
  podcasts chart `GET /us/rss/toppodcasts/limit=30/explicit=true/json` (`{"feed": {"entry": […]}}`,
  podcasts named by id only) and `GET /lookup?entity=podcast&id=1,2` (the search shape, with feeds);
- Podcast Index: `GET /api/1.0/search/byterm?max=30&q=…` and `GET /api/1.0/podcasts/trending?max=30`
  (`{"status": "true", "feeds": […]}`);
- `GET /art/<id>.png`: each podcast's artwork, a 600 px PNG of its own colour.

Earshot is pointed at it with `--itunes-url` and `--podcastindex-url`. Every request is recorded
with its headers (`requests`), so a test sees what was asked, with which term and signature.
A test can make one term slow (`delays`), make every directory answer fail (`status`), or stop
the server and start it again on the same port (`stop()`, `start()`).
"""

import io
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from PIL import Image, ImageDraw


@dataclass
class Listing:
    """One podcast as a directory lists it."""
    id: int
    title: str
    author: str
    feed_url: str
    episodes: int
    genres: list = field(default_factory=list)
    colour: tuple = (11, 122, 112)
    artwork: str = ""  # set by DirectoryServer.add

    def itunes(self):
        """The iTunes Search API's result object (as recorded from the real service, trimmed)."""
        return {
            "wrapperType": "track", "kind": "podcast",
            "collectionId": self.id, "trackId": self.id,
            "artistName": self.author, "collectionName": self.title, "trackName": self.title,
            "collectionCensoredName": self.title, "trackCensoredName": self.title,
            "feedUrl": self.feed_url,
            "collectionViewUrl": f"https://podcasts.apple.com/us/podcast/id{self.id}",
            "artworkUrl30": self.artwork, "artworkUrl60": self.artwork, "artworkUrl100": self.artwork,
            "artworkUrl600": self.artwork,
            "collectionPrice": 0.0, "trackPrice": 0.0, "collectionExplicitness": "notExplicit",
            "trackExplicitness": "cleaned", "trackCount": self.episodes, "country": "USA",
            "currency": "USD", "primaryGenreName": self.genres[0] if self.genres else "Podcasts",
            "contentAdvisoryRating": "Clean", "releaseDate": "2026-03-02T10:00:00Z",
            "genreIds": [str(1300 + n) for n, _ in enumerate(self.genres)] + ["26"],
            "genres": [*self.genres, "Podcasts"],
        }

    def chart_entry(self):
        """An entry of the legacy iTunes RSS chart: names and images, an id, no feed."""
        return {
            "im:name": {"label": self.title},
            "im:image": [{"label": self.artwork, "attributes": {"height": h}} for h in ("55", "60", "170")],
            "summary": {"label": f"{self.title}, a podcast by {self.author}."},
            "im:price": {"label": "Get", "attributes": {"amount": "0", "currency": "USD"}},
            "im:contentType": {"attributes": {"term": "Podcast", "label": "Podcast"}},
            "rights": {"label": f"© {self.author}"},
            "title": {"label": f"{self.title} - {self.author}"},
            "link": {"attributes": {"rel": "alternate", "type": "text/html",
                                    "href": f"https://podcasts.apple.com/us/podcast/id{self.id}"}},
            "id": {"label": f"https://podcasts.apple.com/us/podcast/id{self.id}", "attributes": {"im:id": str(self.id)}},
            "im:artist": {"label": self.author},
            "category": {"attributes": {"im:id": "1318", "term": self.genres[0] if self.genres else "Podcasts",
                                        "label": self.genres[0] if self.genres else "Podcasts"}},
            "im:releaseDate": {"label": "2026-03-02T10:00:00-07:00", "attributes": {"label": "March 2, 2026"}},
        }

    def podcast_index(self):
        """A Podcast Index feed object."""
        return {
            "id": self.id, "podcastGuid": f"00000000-0000-4000-8000-{self.id:012d}",
            "title": self.title, "url": self.feed_url, "originalUrl": self.feed_url,
            "link": "https://example.com/", "description": f"{self.title}, a podcast by {self.author}.",
            "author": self.author, "ownerName": self.author, "image": self.artwork, "artwork": self.artwork,
            "lastUpdateTime": 1772445600, "lastCrawlTime": 1772445600, "lastParseTime": 1772445600,
            "itunesId": None, "language": "en", "explicit": False, "type": 0, "medium": "podcast",
            "dead": 0, "episodeCount": self.episodes, "locked": 0,
            "categories": {str(100 + n): name for n, name in enumerate(self.genres)},
        }


class DirectoryServer:
    """The directories on one loopback port; `close()` stops it for good."""

    def __init__(self):
        self.listings = {}          # id → Listing
        self.itunes_terms = {}      # search term (lower case) → [listing id]
        self.index_terms = {}       # the same for Podcast Index
        self.chart = []             # iTunes' top podcasts, ids in chart order
        self.trending = []          # Podcast Index's trending, ids
        self.delays = {}            # term → seconds to wait before answering it
        self.status = 200           # every directory answer's status (artwork is always served)
        self.requests = []          # [{"path", "query", "headers", "at", "done"}]
        self._lock = threading.Lock()
        self._art = {}
        self.port = 0
        self.httpd = None
        self.start()

    # What it lists

    def add(self, listing, itunes_terms=(), index_terms=()):
        """Lists `listing` (its artwork served here) under each search term; returns it."""
        listing.artwork = f"{self.base}/art/{listing.id}.png"
        with self._lock:
            self.listings[listing.id] = listing
            for term in itunes_terms:
                self.itunes_terms.setdefault(term.lower(), []).append(listing.id)
            for term in index_terms:
                self.index_terms.setdefault(term.lower(), []).append(listing.id)
        return listing

    def searched(self, path="/search", key="term"):
        """The terms asked of `path` so far, in order."""
        with self._lock:
            return [r["query"].get(key, [""])[0] for r in self.requests if r["path"] == path]

    def asked(self, path):
        """The recorded requests to `path`."""
        with self._lock:
            return [r for r in self.requests if r["path"] == path]

    def clear_log(self):
        with self._lock:
            self.requests.clear()

    # Running

    def start(self):
        """Listens (again, on the same port after `stop()`)."""
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                parts = urlsplit(self.path)
                record = {"path": parts.path, "query": parse_qs(parts.query),
                          "headers": {k.lower(): v for k, v in self.headers.items()}, "at": time.time(), "done": None}
                with owner._lock:
                    owner.requests.append(record)
                status, body, kind = owner._answer(parts.path, record["query"])
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                record["done"] = time.time()

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            allow_reuse_address = True

            def handle_error(self, request, client_address):
                pass

        self.httpd = Server(("127.0.0.1", self.port), Handler)
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        """Stops listening: connections are refused until `start()`."""
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None

    close = stop

    # Answers

    def _answer(self, path, query):
        if path.startswith("/art/") and path.endswith(".png"):
            try:
                listing = self.listings[int(path[5:-4])]
            except (ValueError, KeyError):
                return 404, b"no such picture", "text/plain"
            return 200, self._png(listing), "image/png"
        routes = {
            "/search": lambda: self._itunes(self._found(self.itunes_terms, query.get("term", [""])[0])),
            "/lookup": lambda: self._itunes(self._ids(query.get("id", [""])[0])),
            "/us/rss/toppodcasts/limit=30/explicit=true/json": self._chart,
            "/api/1.0/search/byterm": lambda: self._index(self._found(self.index_terms, query.get("q", [""])[0])),
            "/api/1.0/podcasts/trending": lambda: self._index([self.listings[i] for i in self.trending]),
        }
        if path not in routes:
            return 404, b'{"errorMessage":"Invalid value","errors":["Invalid value"]}', "text/javascript; charset=utf-8"
        term = query.get("term", query.get("q", [""]))[0]
        delay = self.delays.get(term.lower(), 0)
        if delay:
            time.sleep(delay)
        if self.status != 200:
            return self.status, b"<html><body><h1>500 Internal Server Error</h1></body></html>", "text/html"
        return 200, json.dumps(routes[path]()).encode(), "text/javascript; charset=utf-8"

    def _found(self, terms, term):
        return [self.listings[i] for i in terms.get(term.strip().lower(), [])]

    def _ids(self, text):
        wanted = [int(part) for part in text.split(",") if part.strip().isdigit()]
        return [self.listings[i] for i in wanted if i in self.listings]

    @staticmethod
    def _itunes(listings):
        return {"resultCount": len(listings), "results": [listing.itunes() for listing in listings]}

    def _chart(self):
        entries = [self.listings[i].chart_entry() for i in self.chart]
        return {"feed": {"author": {"name": {"label": "iTunes Store"}, "uri": {"label": "http://www.apple.com/itunes/"}},
                         "entry": entries, "updated": {"label": "2026-03-02T10:00:00-07:00"},
                         "rights": {"label": "Copyright 2008 Apple Inc."},
                         "title": {"label": "iTunes Store: Top Podcasts"}, "icon": {"label": "http://itunes.apple.com/favicon.ico"},
                         "id": {"label": "https://itunes.apple.com/us/rss/toppodcasts/limit=30/explicit=true/json"}}}

    @staticmethod
    def _index(listings):
        return {"status": "true", "feeds": [listing.podcast_index() for listing in listings],
                "count": len(listings), "description": "Found matching feeds"}

    def _png(self, listing):
        if listing.id not in self._art:
            image = Image.new("RGB", (600, 600), listing.colour)
            draw = ImageDraw.Draw(image)
            draw.ellipse((150, 150, 450, 450), fill=(255, 255, 255))
            draw.ellipse((240, 240, 360, 360), fill=listing.colour)
            out = io.BytesIO()
            image.save(out, format="PNG")
            self._art[listing.id] = out.getvalue()
        return self._art[listing.id]
