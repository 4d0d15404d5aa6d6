#!/usr/bin/env python3
"""`make bench`: how fast Earshot downloads an episode, against curl fetching the same file.

    .build/bench/venv/bin/python bench/downloads.py [--earshot PATH] [--mb N] [--runs N] [--quick]

A Python file in the bench's own language rather than a Swift executable: it measures the real
`earshot serve` (release build) from outside, the way a listener's click reaches it, and curl is a
process all the same.

Setup: one file of N MB of random bytes (default 256, cached in .build/bench/downloads/), served on
127.0.0.1 by a threaded HTTP server in this process that answers with `sendfile(2)` (zero-copy, the
GIL released), so the server is never what limits either client. A fresh `earshot serve` (no demo,
`--audio-output null`, its data folder beside curl's, on the same file system) is subscribed to a
feed of four episodes whose enclosures all name that file under four addresses, and set to run four
downloads at once.

A sample (best of `--runs`, alternating the tools so neither gets a warmer cache):
- one: Earshot — from sending `download` over the WebSocket until the finished file is in place
  (written to a partial file, fsync'd, checked, renamed, the folder fsync'd: everything that makes
  the download safe counts); the entry is then deleted for the next run. curl — the wall time of
  `curl -s -o FILE URL`.
- four: the same with four episodes at once, until all four files are in place; curl: four processes.
Before each sample the bench calls sync(2), so neither tool pays for the other's write-back.
- curl + fsync: curl, then `sync --data` on its files: the same durability as Earshot's, to show
  what the disk's write-back costs (on a slow disk, most of the gap to plain curl).
MB/s = bytes / seconds. Budget (issue 6): Earshot ≥ 80 % of plain curl in both. The table is
printed and written to .build/bench/downloads.md; `--folder /dev/shm` measures the network path
alone (fsync is free on tmpfs).
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from clients import Client, start_serving  # noqa: E402  (the bench's WebSocket client, its server start)

CACHE = os.path.join(ROOT, ".build", "bench", "downloads")
OUT = os.path.join(ROOT, ".build", "bench", "downloads.md")
BUDGET = 0.80
EPISODES = 4


# ------------------------------------------------------------------------------ the media server

def serve(media_path):
    """A threaded server: `/feed.xml` is `pages["feed"]` (set once the address is known);
    `/episode-N.mp3` is the media file, by sendfile. Returns (server, base URL, pages)."""
    size = os.path.getsize(media_path)
    pages = {"feed": ""}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path == "/feed.xml":
                body = pages["feed"].encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/rss+xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            if not self.path.startswith("/episode-"):
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.send_header("Content-Length", str(size))
            self.send_header("ETag", '"bench-1"')
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.flush()
            with open(media_path, "rb") as media:
                self.connection.sendfile(media, 0, size)
            self.close_connection = True

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            pass

    httpd = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}", pages


def media_file(megabytes):
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, f"episode-{megabytes}MB.mp3")
    if not os.path.exists(path) or os.path.getsize(path) != megabytes * 1_000_000:
        with open(path + ".tmp", "wb") as out:
            for _ in range(megabytes):
                out.write(os.urandom(1_000_000))
        os.replace(path + ".tmp", path)
    return path


def feed_for(base):
    items = "".join(
        f'<item><guid>bench-{n}</guid><title>Episode {n}</title><pubDate>Mon, 0{n + 1} Mar 2026 10:00:00 GMT</pubDate>'
        f'<enclosure url="{base}/episode-{n}.mp3" type="audio/mpeg" length="0"/></item>'
        for n in range(EPISODES))
    return f'<?xml version="1.0"?><rss version="2.0"><channel><title>Bench</title>{items}</channel></rss>'


# ------------------------------------------------------------------------------ earshot

class Earshot:
    def __init__(self, binary, data):
        self.data = data
        self.process, self.port = start_serving(
            [binary, "serve", "--port", "0", "--data", data, "--audio-output", "null", "--no-demo",
             "--refresh-interval", "0"], 20)
        self.ws = Client(0, self.port)
        self.next_id = 1

    def http(self, method, path, body=None):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def command(self, cmd, **args):
        """Sends a command and waits for its reply; raises on an error."""
        ident = self.next_id
        self.next_id += 1
        self.ws.send({"id": ident, "cmd": cmd, **args})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for payload in self.ws.read():
                reply = json.loads(payload)
                if reply.get("id") == ident:
                    if reply["type"] == "error":
                        raise RuntimeError(f"{cmd}: {reply['message']}")
                    return
            time.sleep(0.002)
        raise RuntimeError(f"{cmd}: no reply")

    def drain(self):
        """Reads (and drops) the `downloads` messages that piled up, so the socket never backs up."""
        try:
            self.ws.read()
        except RuntimeError:
            pass

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def timed_earshot(earshot, episodes, files):
    """Seconds from sending `download` for each episode until all their files are in place."""
    start = time.perf_counter()
    for episode in episodes:
        earshot.command("download", episode=episode)
    pending = set(files)
    while pending:
        pending = {path for path in pending if not os.path.exists(path)}
        earshot.drain()
        time.sleep(0.005)  # a coarser poll would blur the time; a finer one costs the server CPU
    elapsed = time.perf_counter() - start
    for episode in episodes:
        earshot.command("download.delete", episode=episode)
    return elapsed


def timed_curl(urls, folder, durable=False):
    """Seconds for curl to fetch `urls` at once; `durable`: and then `sync --data` the files (what
    Earshot's fsync does), to show what durability costs on this disk."""
    start = time.perf_counter()
    paths = [os.path.join(folder, f"curl-{n}.mp3") for n in range(len(urls))]
    processes = [subprocess.Popen(["curl", "-s", "-f", "-o", path, url]) for path, url in zip(paths, urls)]
    for process in processes:
        if process.wait() != 0:
            raise RuntimeError("curl failed")
    if durable:
        subprocess.run(["sync", "--data", *paths], check=True)
    elapsed = time.perf_counter() - start
    for n in range(len(urls)):
        os.remove(os.path.join(folder, f"curl-{n}.mp3"))
    return elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--earshot", default=os.path.join(ROOT, ".build", "release", "earshot"))
    parser.add_argument("--mb", type=int, default=256, help="size of the episode file in MB")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="64 MB, 3 runs")
    parser.add_argument("--folder", default=os.path.join(ROOT, ".build", "bench"),
                        help="where both tools write (default: .build/bench, the build's file system)")
    args = parser.parse_args()
    if args.quick:
        args.mb, args.runs = 64, 3
    if not shutil.which("curl"):
        sys.exit("curl is missing (scripts/bench-setup.sh installs it)")

    media = media_file(args.mb)
    size = os.path.getsize(media)
    httpd, base, pages = serve(media)
    pages["feed"] = feed_for(base)  # the feed names the address it is served from
    # Both tools write beside each other, on the file system `make bench` builds on.
    work = tempfile.mkdtemp(prefix="earshot-bench-downloads-", dir=args.folder)
    earshot = Earshot(args.earshot, os.path.join(work, "earshot"))
    try:
        podcast = earshot.http("POST", "/api/subscriptions", {"url": f"{base}/feed.xml"})["podcast"]
        episodes = sorted(earshot.http("GET", f"/api/podcasts/{podcast['id']}/episodes")["episodes"], key=lambda e: e["guid"])
        ids = [e["id"] for e in episodes]
        earshot.command("download.settings", concurrency=EPISODES)
        folder = os.path.join(earshot.data, "downloads", str(podcast["id"]))
        files = [os.path.join(folder, f"{i}.mp3") for i in ids]
        urls = [e["url"] for e in episodes]
        curl_folder = os.path.join(work, "curl")
        os.makedirs(curl_folder)

        results = []
        for name, count in (("one download", 1), ("four at once", EPISODES)):
            timed_earshot(earshot, ids[:count], files[:count])  # warm-up
            timed_curl(urls[:count], curl_folder)
            mine, theirs, durable = [], [], []
            for _ in range(args.runs):
                # Each sample starts with nothing left to write back from the one before.
                os.sync()
                mine.append(timed_earshot(earshot, ids[:count], files[:count]))
                os.sync()
                theirs.append(timed_curl(urls[:count], curl_folder))
                os.sync()
                durable.append(timed_curl(urls[:count], curl_folder, durable=True))
            megabytes = size * count / 1e6
            results.append((name, megabytes, megabytes / min(theirs), megabytes / min(durable), megabytes / min(mine)))
    finally:
        earshot.stop()
        httpd.shutdown()
        shutil.rmtree(work, ignore_errors=True)

    lines = [
        f"Downloads on loopback: a {size / 1e6:.0f} MB file, best of {args.runs} runs (bench/downloads.py)",
        "",
        "| case | MB | curl MB/s | curl + fsync MB/s | Earshot MB/s | Earshot / curl | Earshot / (curl + fsync) | budget |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    ok = True
    for name, megabytes, curl_rate, durable_rate, earshot_rate in results:
        ratio = earshot_rate / curl_rate
        ok = ok and ratio >= BUDGET
        lines.append(f"| {name} | {megabytes:.0f} | {curl_rate:.0f} | {durable_rate:.0f} | {earshot_rate:.0f} | "
                     f"{ratio * 100:.0f} % | {earshot_rate / durable_rate * 100:.0f} % | "
                     f"{'ok' if ratio >= BUDGET else 'MISSED'} (Earshot / curl ≥ {BUDGET * 100:.0f} %) |")
    lines += ["", "Earshot's time includes what makes a download safe: fsync of the file, the size and HTML "
              "checks, the atomic rename and the fsync of its folder. curl: `curl -s -o FILE URL`; "
              "curl + fsync: the same, then `sync --data` on the files (the durability Earshot pays for). "
              "The budget is against plain curl."]
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as out:
        out.write(text)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
