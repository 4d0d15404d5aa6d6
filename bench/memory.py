#!/usr/bin/env python3
"""`make bench`: the server's memory (idle, and while it subscribes a 60,000-item feed), and how fast
it writes JSON (`earshot parse --json`, and every list endpoint with that podcast subscribed).

    .build/bench/venv/bin/python bench/memory.py [--earshot PATH] [--items N] [--runs N] [--quick]

The binary is `--earshot`, else env EARSHOT_BIN, else .build/release/earshot. Everything is on
127.0.0.1; the server runs `serve --port 0 --data TMP --no-demo --audio-output null --no-mpris
--refresh-interval 0` with XDG_CONFIG_HOME inside TMP (a developer's earshot.conf changes nothing).

Memory is read from /proc/PID/smaps_rollup: `Private_Dirty` (pages the process itself wrote: its
heap, stacks, the relocated data of the libraries it maps — what it allocated) is budgeted; `Rss`
(everything resident, the shared libraries' code included) and `Anonymous` are shown beside it.
- the page cache is written back first (sync): a binary just linked is dirty there, and its mapped
  dirty pages would count as the server's Private_Dirty (measured: 4–5 MB more on a debug build).
- idle: after "Earshot is serving", once it has settled (at least 3 s, then until two samples 1 s
  apart differ by less than 64 KiB, at most 15 s). Budget: Private_Dirty ≤ 15 MB.
- subscribing: the feed (bench/make_feed.py --lean: 60,000 items of about 650 bytes, about 39 MB,
  cached in .build/bench/; the full generator's 3.2 KB items would not fit under the 50 MiB a
  subscription may fetch) is served by a thread of this process; `POST /api/subscriptions` is
  timed while another thread reads smaps_rollup every 20 ms, the maximum kept. Budget: peak
  Private_Dirty ≤ 80 MB. Shown beside: the same 3 s after (what it keeps), and the peak while a
  refresh brings 1,000 new items (which fills the Inbox for the list endpoints).

JSON writing (MB = 10^6 bytes):
- `earshot parse --json FEED`: the wall time of the whole process (start-up, reading and parsing the
  feed, encoding, writing to a pipe this process drains), best of N; MB/s = JSON bytes / that time.
  Budget: ≥ 50 MB/s and < 1 s. Shown beside: `earshot parse FEED --timing` (the parse alone, in
  process), `earshot --version` (start-up), and the JSON rate over what is left of the wall time
  once those are taken off (the encoder's own rate, estimated); peak RSS by /usr/bin/time.
- every list endpoint of docs/protocol.md with that podcast subscribed (a playlist of 1,000 of its
  episodes made first): the time from sending the request to the last byte (first byte: the headers
  in), best of N after a warm-up, on a fresh loopback connection; MB/s = body bytes / time. Budget
  ≥ 50 MB/s, judged on bodies of 100 KB and more (smaller ones measure latency, not writing).
  "server peak MB": the highest Private_Dirty while the requests ran (20 ms samples).
- linearity: cost per byte (time / bytes) of another answer ÷ that of a 1,000-episode page
  (`/api/episodes` caps `limit` at 1,000: `limit=10000` is asked anyway and shows what it returns;
  `/api/podcasts/{id}/episodes` stops at 500 episodes; so the whole list is what a client gets by
  paging: every page of 1,000 following `more`, summed), and pages at offset 59,000 and in the
  middle of the list (30,500 of 61,000) ÷ the page at 0; these in interleaved rounds, best of N each, so a slow spell of the shared machine
  lands on all alike. Criterion (ours): ≤ 1.5 = linear. Both ways of paging are measured: `after`
  the last episode of the page before (keyset, what the web UI does) and `offset` (for clients that
  count: the page right after the one a client read last starts where that one ended; any other
  offset is walked to in the sort's index, from the nearer end of the list when its length is
  counted (no filter: `episode_counts`), then it is the keyset page after the episode found: that
  walk grows with the distance to the nearer end, and the page in the middle measures the longest).

The tables are printed and written to .build/bench/memory.md. Exit status 0 when everything was
measured (a budget missed is a ✗ in the table), 1 when the bench itself could not run.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CACHE = os.path.join(ROOT, ".build", "bench")
OUT = os.path.join(CACHE, "memory.md")
sys.path.insert(0, HERE)
import make_feed  # noqa: E402
# The loopback file server of the host tests (Range, HEAD, `put_prefix`), not a copy of it.
sys.path.insert(0, os.path.join(ROOT, "Tests", "host"))
from hostserver import FileServer  # noqa: E402,F401  (bench/soak.py imports it from here too)

SERVING = re.compile(r"Earshot is serving on http://127\.0\.0\.1:(\d+)/")
GNU_TIME = "/usr/bin/time"
MB = 1e6
MIB = 1024 * 1024

BUDGET_IDLE_MB = 15
BUDGET_SUBSCRIBE_MB = 80
BUDGET_JSON_MBS = 50
BUDGET_PARSE_JSON_S = 1.0
JUDGED_BYTES = 100_000
LINEAR = 1.5
FEED_ITEMS = 60_000
NEW_ITEMS = 1_000
# The offset farthest from both ends of the list the linearity rounds page through (all items, after the refresh).
MIDDLE = (FEED_ITEMS + NEW_ITEMS) // 2
FETCH_CAP = 50 * MIB  # FeedFetcher's default maximumBytes


def default_binary():
    named = os.environ.get("EARSHOT_BIN") or os.path.join(".build", "release", "earshot")
    return named if os.path.isabs(named) else os.path.join(ROOT, named)


def ok(flag):
    return "✓" if flag else "✗"


# ------------------------------------------------------------------------------ /proc

def smaps(pid):
    """{field: kB} of /proc/PID/smaps_rollup (Rss, Private_Dirty, Anonymous, …); {} when it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            text = f.read()
    except (FileNotFoundError, ProcessLookupError):
        return {}
    fields = {}
    for line in text.splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name.strip()] = int(parts[0])
    return fields


def memory_mb(pid):
    """(Private_Dirty, Rss, Anonymous) in MB (10^6 bytes)."""
    fields = smaps(pid)
    return tuple(fields.get(k, 0) * 1024 / MB for k in ("Private_Dirty", "Rss", "Anonymous"))


def threads_and_files(pid):
    try:
        files = len(os.listdir(f"/proc/{pid}/fd"))
        threads = len(os.listdir(f"/proc/{pid}/task"))
    except FileNotFoundError:
        return 0, 0
    return threads, files


class Sampler:
    """Reads smaps_rollup every `interval` s on a thread of its own while in a `with` block; keeps
    the maxima of Private_Dirty and Rss (MB)."""

    def __init__(self, pid, interval=0.02):
        self.pid, self.interval = pid, interval
        self.peak_dirty = self.peak_rss = 0.0
        self.samples = 0
        self._stop = threading.Event()

    def _run(self):
        while True:
            self.take()
            if self._stop.wait(self.interval):
                break
        self.take()

    def take(self):
        dirty, rss, _ = memory_mb(self.pid)
        self.peak_dirty, self.peak_rss = max(self.peak_dirty, dirty), max(self.peak_rss, rss)
        self.samples += 1

    def __enter__(self):
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(10)


# ------------------------------------------------------------------------------ the server

class Server:
    """`earshot serve` on an ephemeral loopback port with a temporary data folder."""

    def __init__(self, binary, timeout=60, extra=()):
        self.data = tempfile.mkdtemp(prefix="earshot-bench-")
        # A binary just linked is dirty in the page cache, and its mapped dirty pages count as the
        # process's Private_Dirty (4–5 MB more, until the kernel writes them back): write them first.
        os.sync()
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(self.data, "config"))
        argv = [binary, "serve", "--port", "0", "--data", self.data, "--no-demo", "--audio-output", "null",
                "--no-mpris", "--refresh-interval", "0", "--web-root", ROOT, *extra]
        self.output = []
        self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, bufsize=1, start_new_session=True)
        self.pid = self.process.pid
        found, where = threading.Event(), {}

        def drain():  # keep reading so the server never blocks on a full pipe
            for line in self.process.stdout:
                self.output.append(line.rstrip("\n"))
                del self.output[:-200]
                match = SERVING.search(line)
                if match and not found.is_set():
                    where["port"] = int(match.group(1))
                    found.set()

        threading.Thread(target=drain, daemon=True).start()
        deadline = time.monotonic() + timeout
        while not found.wait(0.05):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("earshot serve did not announce its URL; output:\n" + "\n".join(self.output[-30:]))
        self.started = time.monotonic()
        self.port = where["port"]
        self.origin = f"http://127.0.0.1:{self.port}"

    def alive(self):
        return self.process.poll() is None

    def request(self, method, path, body=None, timeout=60):
        """(status, body bytes, seconds to the headers, seconds to the last byte) on a fresh connection."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            start = time.perf_counter()
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            first = time.perf_counter()
            payload = response.read()
            last = time.perf_counter()
            return response.status, payload, first - start, last - start
        finally:
            connection.close()

    def json(self, method, path, body=None, timeout=60, expect=(200, 201, 202)):
        status, payload, _, _ = self.request(method, path, body, timeout)
        if status not in expect:
            raise RuntimeError(f"{method} {path}: {status} {payload[:300]!r}")
        return json.loads(payload) if payload else None

    def wait_refreshed(self, timeout):
        """Waits until `GET /api/refresh` says no refresh runs; returns its RefreshStatus."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.json("GET", "/api/refresh")["refresh"]
            if not status["running"]:
                return status
            time.sleep(0.1)
        raise RuntimeError(f"the refresh did not end within {timeout} s")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        shutil.rmtree(self.data, ignore_errors=True)


class Socket:
    """A websocket-client connection to /ws with the Origin the server demands; `command` sends one
    command and waits for its `ack` (raises on `error`). Messages other than answers are dropped."""

    def __init__(self, server, timeout=30):
        import websocket  # websocket-client (scripts/bench-setup.sh puts it in the bench venv)
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{server.port}/ws", origin=server.origin,
                                              timeout=timeout, skip_utf8_validation=True)
        self.next_id = 0

    def command(self, cmd, timeout=120, **args):
        self.next_id += 1
        ident = f"m{self.next_id}"
        self.ws.send(json.dumps({"id": ident, "cmd": cmd, **args}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            raw = self.ws.recv()
            if ident not in raw:
                continue
            reply = json.loads(raw)
            if reply.get("id") == ident and reply.get("type") in ("ack", "error"):
                if reply["type"] == "error":
                    raise RuntimeError(f"{cmd}: {reply.get('message')}")
                return reply
        raise RuntimeError(f"{cmd}: no answer within {timeout} s")

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass


def settle(pid, minimum=3.0, maximum=15.0, tolerance_kb=64, since=None):
    """Waits until the process's Private_Dirty is steady (see the module notes); returns
    (Private_Dirty, Rss, Anonymous) in MB and the seconds waited."""
    start = since if since is not None else time.monotonic()
    time.sleep(max(0.0, start + minimum - time.monotonic()))
    previous = smaps(pid).get("Private_Dirty", 0)
    while time.monotonic() - start < maximum:
        time.sleep(1.0)
        current = smaps(pid).get("Private_Dirty", 0)
        if abs(current - previous) < tolerance_kb:
            break
        previous = current
    return memory_mb(pid), time.monotonic() - start


# ------------------------------------------------------------------------------ the growing feed

def newer_items(count, older, seed):
    """`count` lean items newer than an `older`-item make_feed feed (numbers older+1 …, newest first)."""
    import random
    rng = random.Random(seed)
    writer = make_feed.Writer(rng)
    return "".join(make_feed.lean_item(rng, writer, -k, older) for k in range(count, 0, -1)).encode()


def with_items_before(feed, items):
    """The feed's bytes with `items` inserted before its first <item>."""
    cut = feed.index(b"<item>")
    return feed[:cut] + items + feed[cut:]


# ------------------------------------------------------------------------------ measurements

def measure_server(binary, feed_path, runs):
    results = {"endpoints": []}
    feed = open(feed_path, "rb").read()
    files = FileServer()
    server = Server(binary)
    try:
        pid = server.pid
        (dirty, rss, anon), waited = settle(pid, since=server.started)
        results["idle"] = {"dirty": dirty, "rss": rss, "anon": anon, "waited": waited}
        results["idle_threads"] = threads_and_files(pid)
        print(f"memory: idle after {waited:.1f} s: Private_Dirty {dirty:.1f} MB, Rss {rss:.1f} MB", file=sys.stderr)

        url = files.put("/feed.xml", feed, "application/rss+xml")
        with Sampler(pid) as sampler:
            start = time.perf_counter()
            status, payload, _, _ = server.request("POST", "/api/subscriptions", {"url": url}, timeout=1800)
            elapsed = time.perf_counter() - start
        if status not in (200, 201):
            raise RuntimeError(f"subscribing failed: {status} {payload[:300]!r}")
        podcast = json.loads(payload)["podcast"]
        results["subscribe"] = {"seconds": elapsed, "dirty": sampler.peak_dirty, "rss": sampler.peak_rss,
                                "samples": sampler.samples, "episodes": podcast["episodeCount"]}
        print(f"memory: subscribed {podcast['episodeCount']} episodes in {elapsed:.1f} s, peak Private_Dirty "
              f"{sampler.peak_dirty:.1f} MB ({sampler.samples} samples)", file=sys.stderr)
        (dirty, rss, anon), _ = settle(pid)
        results["after_subscribe"] = {"dirty": dirty, "rss": rss, "anon": anon}

        # A refresh bringing NEW_ITEMS new episodes: they enter the Inbox.
        files.put("/feed.xml", with_items_before(feed, newer_items(NEW_ITEMS, FEED_ITEMS, seed=61)), "application/rss+xml")
        with Sampler(pid) as sampler:
            start = time.perf_counter()
            server.json("POST", "/api/refresh", {})
            refreshed = server.wait_refreshed(1800)
            elapsed = time.perf_counter() - start
        if refreshed.get("failed"):
            raise RuntimeError(f"the refresh failed: {refreshed}")
        (dirty, rss, anon), _ = settle(pid)
        results["refresh"] = {"seconds": elapsed, "dirty": sampler.peak_dirty, "rss": sampler.peak_rss,
                              "after_dirty": dirty, "after_rss": rss}
        print(f"memory: refresh (+{NEW_ITEMS} items) in {elapsed:.1f} s, peak Private_Dirty {sampler.peak_dirty:.1f} MB",
              file=sys.stderr)

        pid_podcast = podcast["id"]
        first_page = server.json("GET", f"/api/episodes?podcast={pid_podcast}&limit=1000")["episodes"]
        socket = Socket(server)
        try:
            socket.command("playlist.create", name="Bench 1000", episodes=[e["id"] for e in first_page])
        finally:
            socket.close()
        playlist = server.json("GET", "/api/playlists")["playlists"][0]["id"]
        search_word = "kernel"

        p = pid_podcast
        # The episode a keyset page deep in the list starts after: the one at offset 59,000 - 1.
        deep_anchor = server.json("GET", f"/api/episodes?podcast={p}&offset={FEED_ITEMS - 1001}&limit=1")["episodes"][0]["id"]
        endpoints = [
            # (label, path, group) — group "page" rows take part in the linearity table
            ("podcasts", "/api/podcasts", None),
            ("episodes, limit=100 (the default page)", f"/api/episodes?podcast={p}&limit=100", "page"),
            ("episodes, limit=1000", f"/api/episodes?podcast={p}&limit=1000", "page"),
            ("episodes, limit=10000 (capped by the server)", f"/api/episodes?podcast={p}&limit=10000", "page"),
            (f"episodes, offset={FEED_ITEMS - 1000}, limit=1000", f"/api/episodes?podcast={p}&offset={FEED_ITEMS - 1000}&limit=1000", "offset"),
            (f"episodes after the {FEED_ITEMS - 1000:,}th (keyset), limit=1000", f"/api/episodes?podcast={p}&after={deep_anchor}&limit=1000", "after"),
            ("episodes, sort=oldest, limit=1000", f"/api/episodes?podcast={p}&sort=oldest&limit=1000", None),
            ("episodes, sort=shortest, limit=1000", f"/api/episodes?podcast={p}&sort=shortest&limit=1000", None),
            ("episodes, sort=longest, limit=1000", f"/api/episodes?podcast={p}&sort=longest&limit=1000", None),
            ("episodes, filter=unplayed, limit=1000", f"/api/episodes?podcast={p}&filter=unplayed&limit=1000", None),
            ("episodes, all podcasts, limit=1000", "/api/episodes?limit=1000", None),
            ("podcast with its episodes", f"/api/podcasts/{p}/episodes", None),
            ("inbox (default page)", "/api/inbox", None),
            ("inbox, limit=1000", "/api/inbox?limit=1000", None),
            (f"search q={search_word}, limit=100", f"/api/search?q={search_word}&limit=100", None),
            ("search q=sec* (prefix), limit=100", "/api/search?q=sec*&limit=100", None),
            ("playlists", "/api/playlists", None),
            ("playlist of 1,000 episodes", f"/api/playlists/{playlist}", None),
            ("downloads", "/api/downloads", None),
            ("state", "/api/state", None),
            ("the page `/` (HTML, for context)", "/", "context"),
        ]
        for label, path, group in endpoints:
            count = runs
            server.request("GET", path, timeout=600)  # warm-up
            best = None
            with Sampler(pid) as sampler:
                for _ in range(count):
                    status, body, first, last = server.request("GET", path, timeout=600)
                    if status != 200:
                        raise RuntimeError(f"GET {path}: {status} {body[:300]!r}")
                    if best is None or last < best[2]:
                        best = (len(body), first, last, body)
            size, first, last, body = best
            items = None
            if body[:1] == b"{":
                decoded = json.loads(body)
                items = sum(len(v) for v in decoded.values() if isinstance(v, list))
            results["endpoints"].append({"label": label, "path": path, "group": group, "bytes": size, "first": first,
                                         "last": last, "items": items, "peak": sampler.peak_dirty, "runs": count})
            print(f"memory: GET {path}: {size / MB:.2f} MB in {last * 1000:.1f} ms", file=sys.stderr)
        # Linearity, in interleaved rounds (a slow spell of the shared machine lands on all alike): the
        # first page of 1,000, the page at the end, and the whole list as a client gets it (pages of
        # 1,000 following `more`, summed); the best of each.
        first_path = f"/api/episodes?podcast={p}&limit=1000"
        deep_path = f"/api/episodes?podcast={p}&offset={FEED_ITEMS - 1000}&limit=1000"
        deep_after_path = f"/api/episodes?podcast={p}&after={deep_anchor}&limit=1000"
        # The middle of the list: the offset farthest from both ends, the longest walk to a jump's anchor.
        middle_path = f"/api/episodes?podcast={p}&offset={MIDDLE}&limit=1000"
        best = {"page": None, "deep": None, "deep_after": None, "middle": None, "all": None, "all_offset": None}
        with Sampler(pid) as sampler:
            for _ in range(runs):
                for key, path in (("page", first_path), ("deep", deep_path), ("deep_after", deep_after_path),
                                  ("middle", middle_path)):
                    status, body, first, last = server.request("GET", path, timeout=600)
                    if status != 200:
                        raise RuntimeError(f"GET {path}: {status} {body[:300]!r}")
                    if best[key] is None or last < best[key]["last"]:
                        best[key] = {"bytes": len(body), "items": len(json.loads(body)["episodes"]), "last": last}
                for key, keyset in (("all", True), ("all_offset", False)):
                    walked = walk_all(server, p, keyset)
                    if best[key] is None or walked["last"] < best[key]["last"]:
                        best[key] = walked
        results["linearity"] = best
        results["paged"] = [
            dict(best["all"], peak=sampler.peak_dirty, first=float("nan"), group=None,
                 label=f"all episodes, {best['all']['pages']} pages of 1,000 following `after` (summed; as the web UI pages)",
                 path=f"/api/episodes?podcast={p}&after=…&limit=1000"),
            dict(best["all_offset"], peak=sampler.peak_dirty, first=float("nan"), group=None,
                 label=f"all episodes, {best['all_offset']['pages']} pages of 1,000 by offset (summed)",
                 path=f"/api/episodes?podcast={p}&offset=…&limit=1000")]
        walked = best["all"]
        print(f"memory: all {walked['items']} episodes in {walked['pages']} pages: {walked['bytes'] / MB:.1f} MB "
              f"in {walked['last']:.2f} s", file=sys.stderr)
        results["end"] = memory_mb(pid)
        results["end_threads"] = threads_and_files(pid)
        if not server.alive():
            raise RuntimeError("the server exited")
    finally:
        server.stop()
        files.close()
    return results


def walk_all(server, podcast, keyset=True):
    """Every episode of the podcast as a client gets them: pages of 1,000 following `more`, each
    `after` the last one of the page before (keyset) or at the count so far (offset); the sums of
    bytes, items and seconds."""
    total_bytes, total_items, pages, offset, elapsed, last_id = 0, 0, 0, 0, 0.0, None
    while True:
        if keyset and last_id is not None:
            path = f"/api/episodes?podcast={podcast}&after={last_id}&limit=1000"
        else:
            path = f"/api/episodes?podcast={podcast}&offset={offset}&limit=1000"
        status, body, _, last = server.request("GET", path, timeout=600)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body[:300]!r}")
        page = json.loads(body)
        total_bytes, total_items, pages, elapsed = total_bytes + len(body), total_items + len(page["episodes"]), \
            pages + 1, elapsed + last
        offset += len(page["episodes"])
        if page["episodes"]:
            last_id = page["episodes"][-1]["id"]
        if not page["more"] or not page["episodes"]:
            return {"bytes": total_bytes, "items": total_items, "pages": pages, "last": elapsed}


def timed(command, stdout_bytes=True):
    """Runs `command`; (wall seconds, bytes written to stdout). stdout is drained in 1 MiB reads."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    count = 0
    while True:
        chunk = process.stdout.read1(MIB) if stdout_bytes else process.stdout.read(MIB)
        if not chunk:
            break
        count += len(chunk)
    error = process.stderr.read()
    process.wait()
    elapsed = time.perf_counter() - start
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {process.returncode}: {error[-500:]!r}")
    return elapsed, count


def measure_parse(binary, feed_path, runs):
    json_runs = [timed([binary, "parse", feed_path, "--json"]) for _ in range(runs)]
    wall = min(t for t, _ in json_runs)
    size = json_runs[0][1]
    starts = [timed([binary, "--version"])[0] for _ in range(runs)]
    result = subprocess.run([binary, "parse", feed_path, "--timing", "--repeat", str(runs)],
                            capture_output=True, text=True, check=True)
    fields = dict(part.split("=", 1) for part in result.stdout.split() if "=" in part)
    parse_s = float(fields["parse_ms"]) / 1000
    peak = None
    if os.access(GNU_TIME, os.X_OK):
        with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
            subprocess.run([GNU_TIME, "-q", "-o", rss.name, "-f", "%M", binary, "parse", feed_path, "--json"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            peak = int(rss.read().split()[-1]) * 1024 / MB
    return {"wall": wall, "walls": [t for t, _ in json_runs], "bytes": size, "startup": min(starts),
            "parse": parse_s, "items": int(fields.get("items", -1)), "peak": peak}


# ------------------------------------------------------------------------------ report

def report(binary, feed_path, server, parse, runs):
    feed_mb = os.path.getsize(feed_path) / MB
    shown_binary = os.path.relpath(binary, ROOT) if binary.startswith(ROOT + os.sep) else binary
    idle, sub = server["idle"], server["subscribe"]
    after, refresh = server["after_subscribe"], server["refresh"]
    lines = [
        f"## Server memory (bench/memory.py) — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores",
        "",
        f"Binary: `{shown_binary}`. Feed: `{os.path.basename(feed_path)}` ({feed_mb:.1f} MB, "
        f"{FEED_ITEMS:,} items) served on loopback. MB = 10^6 bytes, from /proc/PID/smaps_rollup.",
        "",
        "| when | Private_Dirty MB | Rss MB | Anonymous MB | budget (Private_Dirty) | within |",
        "| --- | ---: | ---: | ---: | --- | :---: |",
        f"| idle after start (settled after {idle['waited']:.1f} s) | {idle['dirty']:.1f} | {idle['rss']:.1f} | "
        f"{idle['anon']:.1f} | ≤ {BUDGET_IDLE_MB} MB | {ok(idle['dirty'] <= BUDGET_IDLE_MB)} |",
        f"| peak while subscribing {sub['episodes']:,} episodes ({sub['seconds']:.1f} s, {sub['samples']} samples "
        f"every 20 ms) | {sub['dirty']:.1f} | {sub['rss']:.1f} (peak) | – | ≤ {BUDGET_SUBSCRIBE_MB} MB | "
        f"{ok(sub['dirty'] <= BUDGET_SUBSCRIBE_MB)} |",
        f"| settled after subscribing (kept) | {after['dirty']:.1f} | {after['rss']:.1f} | {after['anon']:.1f} | – | |",
        f"| peak while a refresh brings {NEW_ITEMS:,} new items ({refresh['seconds']:.1f} s) | {refresh['dirty']:.1f} | "
        f"{refresh['rss']:.1f} (peak) | – | – | |",
        f"| settled after that refresh | {refresh['after_dirty']:.1f} | {refresh['after_rss']:.1f} | – | – | |",
        f"| after every list endpoint below | {server['end'][0]:.1f} | {server['end'][1]:.1f} | {server['end'][2]:.1f} | – | |",
        "",
        f"Threads / open files: {server['idle_threads'][0]} / {server['idle_threads'][1]} idle, "
        f"{server['end_threads'][0]} / {server['end_threads'][1]} at the end.",
        "",
    ]
    encode_s = parse["wall"] - parse["parse"] - parse["startup"]
    peak = "–" if parse["peak"] is None else f"{parse['peak']:.1f} MB"
    json_mb = parse["bytes"] / MB
    rate = json_mb / parse["wall"]
    lines += [
        "## JSON writing",
        "",
        "| `earshot parse --json` on the feed | value | budget | within |",
        "| --- | ---: | --- | :---: |",
        f"| JSON written | {json_mb:.1f} MB ({parse['items']:,} items; feed {feed_mb:.1f} MB) | | |",
        f"| wall time, whole process (best of {len(parse['walls'])}: {', '.join(f'{t:.2f}' for t in parse['walls'])} s) | "
        f"{parse['wall']:.2f} s | < {BUDGET_PARSE_JSON_S:g} s | {ok(parse['wall'] < BUDGET_PARSE_JSON_S)} |",
        f"| JSON MB/s over the wall time | {rate:.1f} | ≥ {BUDGET_JSON_MBS} MB/s | {ok(rate >= BUDGET_JSON_MBS)} |",
        f"| of which: start-up (`earshot --version`) | {parse['startup'] * 1000:.0f} ms | | |",
        f"| of which: parsing (`earshot parse --timing`, in process) | {parse['parse'] * 1000:.0f} ms | | |",
        f"| the rest (reading for --json, mapping, encoding, writing): JSON MB/s over it | "
        f"{encode_s * 1000:.0f} ms → {json_mb / encode_s if encode_s > 0 else float('inf'):.1f} MB/s | | |",
        f"| peak RSS of the process (/usr/bin/time) | {peak} | | |",
        "",
        f"| list endpoint, {FEED_ITEMS + NEW_ITEMS:,} episodes subscribed | items | bytes | first byte ms | ms | MB/s | "
        f"server peak MB | budget | within |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | :---: |",
    ]
    for e in server["endpoints"] + server["paged"]:
        rate = e["bytes"] / MB / e["last"] if e["last"] > 0 else 0
        # The page `/` is HTML rendered from templates, not a JSON list: shown beside them, not judged by their budget.
        context = e["group"] == "context"
        judged = e["bytes"] >= JUDGED_BYTES and not context
        budget = "n/a (HTML, not a JSON list)" if context else \
            f"≥ {BUDGET_JSON_MBS} MB/s" if judged else f"n/a (< {JUDGED_BYTES // 1000} KB)"
        items = "–" if e["items"] is None else f"{e['items']:,}"
        first = "–" if e["first"] != e["first"] else f"{e['first'] * 1000:.1f}"
        lines.append(f"| {e['label']} `{e['path']}` | {items} | "
                     f"{e['bytes']:,} | {first} | {e['last'] * 1000:.1f} | {rate:.1f} | {e['peak']:.1f} | "
                     f"{budget} | {ok(rate >= BUDGET_JSON_MBS) if judged else ''} |")
    by_path = {e["label"]: e for e in server["endpoints"]}
    linearity = server["linearity"]
    page, deep, walked = linearity["page"], linearity["deep"], linearity["all"]
    deep_after, walked_offset, middle = linearity["deep_after"], linearity["all_offset"], linearity["middle"]
    per_byte = lambda e: e["last"] / e["bytes"]  # noqa: E731
    capped = by_path["episodes, limit=10000 (capped by the server)"]
    lines += [
        "",
        f"| linearity (interleaved rounds, best of {runs}; ratio ÷ the first 1,000-episode page: {page['bytes']:,} bytes "
        f"in {page['last'] * 1000:.1f} ms) | items | bytes | ms | ratio | criterion | within |",
        "| --- | ---: | ---: | ---: | ---: | --- | :---: |",
    ]
    for name, e, ratio in (
            ("limit=10000 (capped by the server; from the table above): cost per byte", capped,
             per_byte(capped) / per_byte(by_path["episodes, limit=1000"])),
            (f"all of them: {walked['pages']} pages of limit=1000 following `more`, each `after` the last (summed): cost per byte",
             walked, per_byte(walked) / per_byte(page)),
            (f"the page after the {FEED_ITEMS - 1000:,}th episode (keyset) vs the first page: time", deep_after,
             deep_after["last"] / page["last"]),
            (f"all of them by offset: {walked_offset['pages']} pages (summed; each starts where the one before ended): cost per byte", walked_offset,
             per_byte(walked_offset) / per_byte(page)),
            (f"the page at offset {FEED_ITEMS - 1000:,} vs offset 0: time (a jump: the rows between it and the nearer "
             "end of the list are walked in the sort's index, their fields unread, then it is the keyset page)",
             deep, deep["last"] / page["last"]),
            (f"the page at offset {MIDDLE:,}, the middle of the list (the longest walk, from either end) vs offset 0: time",
             middle, middle["last"] / page["last"])):
        lines.append(f"| {name} | {e['items']:,} | {e['bytes']:,} | {e['last'] * 1000:.1f} | {ratio:.2f} | "
                     f"≤ {LINEAR} = linear | {ok(ratio <= LINEAR)} |")
    lines += [
        "",
        f"HTTP: best of {runs} after a warm-up, each on a fresh "
        "loopback connection; ms = request sent → last byte, first byte = headers in; MB/s = body bytes / ms. "
        f"Budgets on bodies ≥ {JUDGED_BYTES // 1000} KB only. Linearity criterion (≤ {LINEAR}) is the bench's own. "
        "\"server peak MB\": the server's highest Private_Dirty during those requests.",
    ]
    return "\n".join(lines) + "\n"


def main():
    global FEED_ITEMS, MIDDLE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--earshot", default=default_binary(), help="the earshot binary (default: env EARSHOT_BIN, "
                        "else .build/release/earshot)")
    parser.add_argument("--items", type=int, default=FEED_ITEMS, help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=5, help="runs per timing (best counts)")
    parser.add_argument("--quick", action="store_true", help="2 runs per timing")
    args = parser.parse_args()
    FEED_ITEMS = args.items
    MIDDLE = (FEED_ITEMS + NEW_ITEMS) // 2
    if args.quick:
        args.runs = 2
    binary = os.path.abspath(args.earshot)
    if not os.access(binary, os.X_OK):
        sys.exit(f"no earshot binary at {binary} (make release, or set EARSHOT_BIN)")
    try:
        import websocket  # noqa: F401
    except ImportError:
        sys.exit(f"websocket-client is not importable by {sys.executable}: run scripts/bench-setup.sh and use "
                 ".build/bench/venv/bin/python")
    feed_path = make_feed.ensure(CACHE, FEED_ITEMS, lean=True)
    if os.path.getsize(feed_path) + NEW_ITEMS * 1000 > FETCH_CAP:
        sys.exit(f"{feed_path} is too large for a subscription ({os.path.getsize(feed_path) / MIB:.1f} MiB)")
    started = time.monotonic()
    try:
        server = measure_server(binary, feed_path, args.runs)
        print("memory: earshot parse --json …", file=sys.stderr)
        parse = measure_parse(binary, feed_path, max(3, args.runs // 2 + 1))
    except RuntimeError as error:
        print(f"bench/memory.py: {error}", file=sys.stderr)
        return 1
    text = report(binary, feed_path, server, parse, args.runs)
    text += f"\n(measured in {time.monotonic() - started:.0f} s)\n"
    print(text)
    os.makedirs(CACHE, exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as out:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
