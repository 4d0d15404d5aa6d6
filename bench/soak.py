#!/usr/bin/env python3
"""`make bench`: a soak — many clients, refreshes and downloads for a long while — and what it does
to the server's memory, its clients and its latency.

    .build/bench/venv/bin/python bench/soak.py [--minutes M] [--clients N] [--earshot PATH]

M: `--minutes`, else env SOAK_MINUTES, else 60 (`SOAK_MINUTES=2 make bench` for a short one).
The binary: `--earshot`, else env EARSHOT_BIN, else .build/release/earshot. Everything is on
127.0.0.1 and stops by itself: the load runs M minutes, every wait has a timeout, the server and
the loopback file server are stopped at the end whatever happened.

Setup: `earshot serve` as bench/memory.py starts it (no demo, `--audio-output null`, no MPRIS, no
periodic refresh, its own data and config folders), subscribed to a feed served by a thread of this
process: bench/make_feed.py's generator (300 items with full show notes, about 1 MB) whose
enclosures point at this process: the newest episode is a 3-minute tone (8 kHz WAV), every other a
20-second one. That episode plays (repeat one, so it never ends) from the start. Every other https
address in the feed is rewritten to this process too, and `itunes:duration` is left out: a tone
shorter than the feed's duration would end "long before the episode's end", count as a dropped
connection (EarlyEnd), be marked failed and move the queue on — every queued episode in turn.

During the run:
- N (default 50) WebSocket clients (websocket-client, with the Origin the server demands, all read
  by one thread of this process over epoll) each send a command every second, staggered over the
  second, in turn from: `ping`, `seek` (random position), `skip` (±15/30 s), `toggle`,
  `queue.add`/`queue.remove` (each client adds and removes an episode of its own), `rate`
  (0.75–2), `volume` (0–100). Every one but `ping` changes state and is broadcast to all. A
  command's latency is from handing it to the kernel to reading its `ack` (or `error`).
- every 30 s: the feed grows by 5 episodes and `POST /api/refresh` runs; when it is done, one
  browser-like refetch (`GET /api/inbox`, `GET /api/episodes?limit=100`).
- downloads all along, from another connection: two episodes (`download`), until both are done,
  then `download.delete` both, a second's pause, the next two (cycling over 20 episodes).
- /proc/PID/smaps_rollup (Rss, Private_Dirty), threads, open files and CPU time every second.

Report (printed, and written to .build/bench/soak.md):
- memory after the warm-up (the median of the 10 s after min(2 min, 20 % of the run)) vs at the
  end (the median of the load's last 10 s): budget, growth < 5 MB, for Rss and Private_Dirty; the
  least-squares trend after the warm-up in MB/hour beside it.
- clients dropped (the server closed the socket, or it failed): budget 0; commands left unanswered
  for 10 s: budget 0; every client is asked for a `ping` at the end.
- p99 latency of the commands sent in the first window vs the load's last window (the pings at the
  end apart), window = min(10 min, 20 % of the run): "unchanged" = last ≤ 1.5 × first.
Exit status 0 when the soak ran (a budget missed is a ✗ in the table), 1 when it could not.

To find what a growth comes from (not used by `make bench`): `--no-refresh`, `--no-downloads`,
`--no-play`, `--mix ping,seek,…` (the clients' commands), `--items N` (the feed starts with N
episodes: a short run at the size an hour's run ends with), `--out FILE` (instead of soak.md),
`--samples-out FILE.json` (every latency and memory sample, the last `state` message).
"""

import argparse
import heapq
import io
import json
import math
import os
import random
import re
import selectors
import statistics
import struct
import sys
import threading
import time
import urllib.parse
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import make_feed  # noqa: E402
from memory import CACHE, FileServer, Server, default_binary, memory_mb, ok, threads_and_files  # noqa: E402

OUT = os.path.join(CACHE, "soak.md")
CLK_TCK = os.sysconf("SC_CLK_TCK")

BUDGET_GROWTH_MB = 5
BUDGET_P99_FACTOR = 1.5
CLIENTS = 50
FEED_ITEMS = 300
GROW_BY = 5
REFRESH_EVERY = 30
QUEUE_EPISODES = CLIENTS
DOWNLOAD_POOL = 20
DOWNLOAD_BATCH = 2
ANSWER_TIMEOUT = 10
EXTERNAL = re.compile(r"https://(?!podcastindex\.org/namespace)([A-Za-z0-9.-]+)/")  # not the namespace's name
DURATION = re.compile(r"<itunes:duration>[^<]*</itunes:duration>\n?")
MIX = ["ping", "seek", "skip", "toggle", "queue", "rate", "volume"]
LONG_SECONDS, SHORT_SECONDS = 180, 20


# ------------------------------------------------------------------------------ what is served

def tone(seconds, hertz=440, rate=8000):
    """A mono 16-bit WAV of a sine tone."""
    frames = bytearray()
    for n in range(int(seconds * rate)):
        frames += struct.pack("<h", int(8000 * math.sin(2 * math.pi * hertz * n / rate)))
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))
    return out.getvalue()


class GrowingFeed:
    """make_feed's full items, newest first, enclosures on this process's file server; `grow(n)`
    puts n newer items on top."""

    def __init__(self, files, items):
        self.files = files
        self.rng = random.Random(7)
        self.writer = make_feed.Writer(self.rng)
        self.head = self._loopback(make_feed.channel_head(self.rng, self.writer))
        self.count = items
        self.items = [self._loopback(make_feed.item(self.rng, self.writer, index, items)) for index in range(items)]
        self.added = 0
        self.publish()

    def _loopback(self, text):
        """Enclosures to /media/…; every other https address (artwork, chapters, transcripts, links
        in the notes) to /ext/HOST/… here too, so nothing the server might fetch leaves the machine."""
        text = text.replace("https://media.example.com/podcast/", self.files.base + "/media/")
        text = DURATION.sub("", text)  # the tones' lengths are not the feed's: let mpv say (see the notes)
        return EXTERNAL.sub(self.files.base + r"/ext/\1/", text)

    def grow(self, n):
        fresh = [self._loopback(make_feed.item(self.rng, self.writer, -(self.added + k), self.count))
                 for k in range(n, 0, -1)]
        self.added += n
        self.items[:0] = fresh
        self.publish()

    def publish(self):
        self.url = self.files.put("/feed.xml", self.head + "".join(self.items) + "</channel>\n</rss>\n",
                                  "application/rss+xml")


# ------------------------------------------------------------------------------ the clients

class Crowd:
    """N websocket-client connections, read by one thread over epoll (websocket-client reads exactly
    a frame's bytes from the socket, so a readable socket is a frame or more to read); commands are
    sent from the same thread at staggered times."""

    def __init__(self, server, count, queue_episodes, mix=MIX, seed=11):
        import websocket
        self.websocket = websocket
        self.mix = mix
        self.count = count
        self.rng = random.Random(seed)
        self.clients = []
        for index in range(count):
            ws = websocket.create_connection(f"ws://127.0.0.1:{server.port}/ws", origin=server.origin, timeout=20,
                                             skip_utf8_validation=True)
            self.clients.append({"index": index, "ws": ws, "alive": True, "pending": {}, "sent": 0, "n": 0,
                                 "episode": queue_episodes[index % len(queue_episodes)], "queued": False,
                                 "messages": 0, "why": None})
        self.selector = selectors.DefaultSelector()
        for client in self.clients:
            self.selector.register(client["ws"].sock, selectors.EVENT_READ, client)
        self.samples = []  # (seconds since start when sent, ms, command, ok)
        self.frames = 0  # text frames read, all clients
        self.bytes = 0  # their payload bytes
        self.state_bytes = 0  # the last `state` message's size
        self.last_state = b""
        self.errors = {}  # message → count
        self.lost = 0
        self.start = None
        self.late = []  # (seconds since start, ms) of sends 20 ms or more behind their time

    def drop(self, client, why):
        if client["alive"]:
            client["alive"] = False
            client["why"] = why
            try:
                self.selector.unregister(client["ws"].sock)
            except (KeyError, ValueError, OSError):
                pass

    def command_for(self, client, tick):
        kind = self.mix[(client["index"] + tick) % len(self.mix)]
        r = self.rng
        if kind == "ping":
            return "ping", {}
        if kind == "seek":
            return "seek", {"to": round(r.uniform(0, LONG_SECONDS - 20), 1)}
        if kind == "skip":
            return "skip", {"by": r.choice([-15, 30])}
        if kind == "toggle":
            return "toggle", {}
        if kind == "queue":
            client["queued"] = not client["queued"]
            return ("queue.add" if client["queued"] else "queue.remove"), {"episode": client["episode"]}
        if kind == "rate":
            return "rate", {"value": r.choice([0.75, 1.0, 1.25, 1.5, 2.0])}
        return "volume", {"value": r.randint(0, 100)}

    def send(self, client, tick, now):
        cmd, args = self.command_for(client, tick)
        client["n"] += 1
        ident = f"{client['index']}-{client['n']}"
        frame = json.dumps({"id": ident, "cmd": cmd, **args}, separators=(",", ":"))
        client["pending"][ident] = (now, cmd)
        client["sent"] += 1
        try:
            client["ws"].send(frame)
        except Exception as error:  # noqa: BLE001 — any failure of the socket is a dropped client
            self.drop(client, f"send failed: {error!r}")

    def read(self, client):
        ws = self.websocket
        try:
            opcode, frame = client["ws"].recv_data_frame(True)
        except Exception as error:  # noqa: BLE001
            self.drop(client, f"read failed: {error!r}")
            return
        now = time.monotonic()
        if opcode == ws.ABNF.OPCODE_CLOSE:
            self.drop(client, f"closed by the server: {frame.data[:2].hex()} {frame.data[2:]!r}")
            return
        if opcode != ws.ABNF.OPCODE_TEXT:
            return
        data = frame.data
        client["messages"] += 1
        self.frames += 1
        self.bytes += len(data)
        if b'"type":"ack"' not in data and b'"type":"error"' not in data:
            if b'"type":"state"' in data:
                self.state_bytes = len(data)
                self.last_state = data
            return
        reply = json.loads(data)
        sent = client["pending"].pop(reply.get("id"), None)
        if sent is None:
            return
        good = reply["type"] == "ack"
        if not good:
            message = reply.get("message", "?")
            self.errors[f"{sent[1]}: {message}"] = self.errors.get(f"{sent[1]}: {message}", 0) + 1
            if sent[1].startswith("queue."):
                client["queued"] = sent[1] == "queue.remove"  # resynchronise: it was (not) queued
        self.samples.append((sent[0] - self.start, (now - sent[0]) * 1000, sent[1], good))

    def sweep(self, now):
        for client in self.clients:
            stale = [k for k, (t, _) in client["pending"].items() if now - t > ANSWER_TIMEOUT]
            for k in stale:
                del client["pending"][k]
                self.lost += 1

    def run(self, seconds, stop):
        """Sends and reads for `seconds` (or until `stop` is set)."""
        self.start = time.monotonic()
        own = os.times()
        end = self.start + seconds
        due = [(self.start + i / self.count, 0, i) for i in range(self.count)]
        heapq.heapify(due)
        last_sweep = self.start
        while not stop.is_set():
            now = time.monotonic()
            if now >= end:
                break
            while due and due[0][0] <= now:
                when, tick, i = heapq.heappop(due)
                client = self.clients[i]
                if client["alive"]:
                    sent = time.monotonic()
                    if sent - when >= 0.02:
                        self.late.append((when - self.start, (sent - when) * 1000))
                    self.send(client, tick, sent)
                    heapq.heappush(due, (self.start + tick + 1 + i / self.count, tick + 1, i))
            if now - last_sweep >= 1:
                self.sweep(now)
                last_sweep = now
            wait = max(0.0, min(0.05, (due[0][0] if due else now + 0.05) - time.monotonic()))
            for key, _ in self.selector.select(wait):
                if key.data["alive"]:
                    self.read(key.data)
        elapsed = time.monotonic() - self.start
        after = os.times()
        self.own_cpu = (after.user + after.system - own.user - own.system) / elapsed * 100
        return elapsed

    def final_ping(self, timeout=ANSWER_TIMEOUT):
        """Every live client sends `ping`; returns how many answered within `timeout`."""
        for client in self.clients:
            if client["alive"]:
                self.send(client, 0, time.monotonic())
        waiting = {c["index"]: f"{c['index']}-{c['n']}" for c in self.clients if c["alive"]}
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for key, _ in self.selector.select(0.05):
                if key.data["alive"]:
                    self.read(key.data)
            if all(ident not in self.clients[i]["pending"] for i, ident in waiting.items() if self.clients[i]["alive"]):
                break
        return sum(1 for i, ident in waiting.items() if self.clients[i]["alive"] and ident not in self.clients[i]["pending"])

    def close(self):
        for client in self.clients:
            try:
                client["ws"].close(timeout=1)
            except Exception:  # noqa: BLE001
                pass
        self.selector.close()


class Control:
    """One more connection, for setup and downloads: a reader thread keeps the answers and the last
    `downloads` message."""

    def __init__(self, server):
        import websocket
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{server.port}/ws", origin=server.origin, timeout=20,
                                              skip_utf8_validation=True)
        self.ws.settimeout(None)
        self.cond = threading.Condition()
        self.answers = {}
        self.downloads = None
        self.downloads_bytes = 0
        self.closed = False
        self.n = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                raw = self.ws.recv()
            except Exception:  # noqa: BLE001
                break
            if not raw:
                continue
            if '"type":"downloads"' not in raw and '"type":"ack"' not in raw and '"type":"error"' not in raw:
                continue
            message = json.loads(raw)
            with self.cond:
                if message.get("type") == "downloads":
                    self.downloads = message
                    self.downloads_bytes = len(raw)
                elif message.get("id") is not None:
                    self.answers[message["id"]] = message
                self.cond.notify_all()
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def command(self, cmd, timeout=30, **args):
        """The answer (`ack` or `error` message) to a command."""
        with self.cond:
            self.n += 1
            ident = f"c{self.n}"
        self.ws.send(json.dumps({"id": ident, "cmd": cmd, **args}))
        deadline = time.monotonic() + timeout
        with self.cond:
            while ident not in self.answers:
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise RuntimeError(f"{cmd}: no answer within {timeout} s")
                self.cond.wait(left)
            return self.answers.pop(ident)

    def wait_downloads(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not (self.downloads and predicate(self.downloads)):
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    return False
                self.cond.wait(left)
            return True

    def close(self):
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass


# ------------------------------------------------------------------------------ background work

def sampler(server, stop, samples, start, probe):
    """Every second: (seconds, Private_Dirty, Rss, threads, open files, CPU seconds, probe()), where
    probe() is what the clients saw so far (see `main`)."""
    while True:
        dirty, rss, _ = memory_mb(server.pid)
        threads, files = threads_and_files(server.pid)
        try:
            with open(f"/proc/{server.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK
        except (FileNotFoundError, ProcessLookupError, IndexError):
            cpu = float("nan")
        extra = probe()
        try:
            with open("/proc/stat") as f:
                fields = [int(v) for v in f.readline().split()[1:]]
            extra["machine"] = (sum(fields[:3]) + sum(fields[5:8])) / CLK_TCK  # user nice system irq softirq steal
        except (OSError, ValueError):
            extra["machine"] = float("nan")
        own = os.times()
        extra["harness"] = own.user + own.system
        if dirty:
            samples.append((time.monotonic() - start, dirty, rss, threads, files, cpu, extra))
        if stop.wait(1.0):
            break


def refresher(server, feed, stop, log):
    while not stop.wait(REFRESH_EVERY):
        try:
            feed.grow(GROW_BY)
            began = time.monotonic()
            server.json("POST", "/api/refresh", {})
            status = server.wait_refreshed(120)
            took = time.monotonic() - began
            server.json("GET", "/api/inbox")
            server.json("GET", "/api/episodes?limit=100")
            log.append({"t": began, "seconds": took, "failed": status.get("failed", 0)})
        except Exception as error:  # noqa: BLE001
            log.append({"t": time.monotonic(), "seconds": float("nan"), "failed": 1, "error": repr(error)})


def downloader(control, pool, stop, log):
    turn = 0
    while not stop.is_set():
        batch = [pool[(turn * DOWNLOAD_BATCH + k) % len(pool)] for k in range(DOWNLOAD_BATCH)]
        turn += 1
        began = time.monotonic()
        try:
            for episode in batch:
                answer = control.command("download", episode=episode)
                if answer["type"] == "error":
                    log["errors"].append(answer.get("message"))
            done = control.wait_downloads(
                lambda m: all(any(i["episode"] == e and i["state"] == "done" for i in m["items"]) for e in batch), 60)
            if done:
                log["done"] += len(batch)
                log["seconds"].append(time.monotonic() - began)
            else:
                states = {i["episode"]: (i["state"], i.get("error")) for i in (control.downloads or {}).get("items", [])}
                log["stuck"].append({e: states.get(e) for e in batch})
            for episode in batch:
                answer = control.command("download.delete", episode=episode)
                if answer["type"] == "error":
                    log["errors"].append(answer.get("message"))
        except Exception as error:  # noqa: BLE001
            log["errors"].append(repr(error))
            if control.closed:
                return
        log["cycles"] += 1
        stop.wait(1.0)


# ------------------------------------------------------------------------------ report

def pct(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def median_between(samples, field, low, high):
    chosen = [s[field] for s in samples if low <= s[0] <= high]
    return statistics.median(chosen) if chosen else float("nan")


def trend_per_hour(samples, field, after):
    points = [(s[0], s[field]) for s in samples if s[0] >= after]
    if len(points) < 3:
        return float("nan")
    mean_t = statistics.fmean(t for t, _ in points)
    mean_v = statistics.fmean(v for _, v in points)
    var = sum((t - mean_t) ** 2 for t, _ in points)
    return sum((t - mean_t) * (v - mean_v) for t, v in points) / var * 3600 if var else float("nan")


def report(args, binary, run):
    seconds = run["seconds"]
    variant = ", ".join(([f"commands {args.mix}"] if args.mix != ",".join(MIX) else [])
                        + (["no refreshes"] if args.no_refresh else []) + (["no downloads"] if args.no_downloads else [])
                        + (["nothing playing"] if args.no_play else []))
    warm = min(120.0, 0.2 * seconds)
    window = min(600.0, 0.2 * seconds)
    samples, crowd = run["samples"], run["crowd"]
    end_low = seconds - 10
    lines = [
        f"## Soak (bench/soak.py) — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores",
        "",
        f"Binary: `{binary}`. {seconds / 60:.1f} minutes of load (SOAK_MINUTES={args.minutes:g}); {crowd.count} clients, "
        f"one command each a second; refresh every {REFRESH_EVERY} s (+{GROW_BY} episodes each); downloads "
        f"{DOWNLOAD_BATCH} at a time, deleted after. Warm-up: {warm:.0f} s; latency windows: {window:.0f} s."
        + (f" Variant: {variant}." if variant else ""),
        "",
        "| measure | after warm-up / first window | end / last window | change | budget | within |",
        "| --- | ---: | ---: | ---: | --- | :---: |",
    ]
    growth_ok = True
    for name, field in (("Rss MB", 2), ("Private_Dirty MB", 1)):
        a = median_between(samples, field, warm, warm + 10)
        b = median_between(samples, field, end_low, seconds)
        within = (b - a) < BUDGET_GROWTH_MB
        growth_ok = growth_ok and within
        lines.append(f"| {name} (median of 10 s) | {a:.1f} | {b:.1f} | {b - a:+.1f} | growth < {BUDGET_GROWTH_MB} MB | "
                     f"{ok(within)} |")
    for name, field in (("Rss trend after the warm-up", 2), ("Private_Dirty trend after the warm-up", 1)):
        lines.append(f"| {name} (least squares) | | | {trend_per_hour(samples, field, warm):+.1f} MB/h | – | |")
    for name, field in (("threads", 3), ("open files", 4)):
        a = median_between(samples, field, warm, warm + 10)
        b = median_between(samples, field, end_low, seconds)
        lines.append(f"| server {name} | {a:.0f} | {b:.0f} | {b - a:+.0f} | – | |")
    cpu_first = cpu_between(samples, 0, window)
    cpu_last = cpu_between(samples, seconds - window, seconds)
    lines.append(f"| server CPU, % of one core | {cpu_first:.1f} | {cpu_last:.1f} | ×{cpu_last / cpu_first:.2f} | – | |")
    traffic = [traffic_between(samples, low, high, crowd.count) for low, high in ((0, window), (seconds - window, seconds))]
    lines.append(f"| messages/s per client (KB/s) | {traffic[0][0]:.1f} ({traffic[0][1]:.1f}) | "
                 f"{traffic[1][0]:.1f} ({traffic[1][1]:.1f}) | | – | |")
    others = [others_between(samples, low, high) for low, high in ((0, window), (seconds - window, seconds))]
    lines.append(f"| CPU of this harness / of everything else on the machine (≈), % of one core | {others[0][0]:.1f} / "
                 f"{others[0][1]:.1f} | {others[1][0]:.1f} / {others[1][1]:.1f} | | – | |")
    late_first = [ms for t, ms in crowd.late if t < window]
    late_last = [ms for t, ms in crowd.late if t >= seconds - window]
    lines.append(f"| harness stalls: commands sent ≥ 20 ms late (worst ms) | {len(late_first)} "
                 f"({max(late_first, default=0):.0f}) | {len(late_last)} ({max(late_last, default=0):.0f}) | | – | |")
    dropped = [c for c in crowd.clients if not c["alive"]]
    lines.append(f"| clients dropped | | {len(dropped)} of {crowd.count} | | 0 | {ok(not dropped)} |")
    lines.append(f"| clients answering a `ping` at the end | | {run['answered']} of {crowd.count} | | all | "
                 f"{ok(run['answered'] == crowd.count)} |")
    final_pings = [ms for t, ms, _, _ in crowd.samples if t >= seconds]
    if final_pings:
        lines.append(f"| those pings, sent at once: slowest answer, ms | | {max(final_pings):.1f} | | – | |")
    total = len(crowd.samples) + crowd.lost
    lines.append(f"| commands unanswered after {ANSWER_TIMEOUT} s | | {crowd.lost} of {total:,} | | 0 | {ok(crowd.lost == 0)} |")
    first = [ms for t, ms, _, _ in crowd.samples if t < window]
    # The load's last window only: the pings every client sends at once after it (the liveness
    # check) queue behind one another, and in a short run those 50 were about 1 % of the window —
    # its p99 itself. That was the "end-of-run spike" of earlier short runs (83.7 ms in a 10-minute
    # one; in an 8-minute run they made the last window's p99 18.8 ms, the load's own being 8.3).
    last = [ms for t, ms, _, _ in crowd.samples if seconds - window <= t < seconds]
    p99a, p99b = pct(first, 99), pct(last, 99)
    steady = p99b <= BUDGET_P99_FACTOR * p99a
    lines.append(f"| p99 command → ack, ms ({len(first):,} / {len(last):,} commands) | {p99a:.1f} | {p99b:.1f} | "
                 f"×{p99b / p99a:.2f} | unchanged: last ≤ {BUDGET_P99_FACTOR} × first | {ok(steady)} |")
    lines.append(f"| p50 command → ack, ms | {pct(first, 50):.1f} | {pct(last, 50):.1f} | ×{pct(last, 50) / pct(first, 50):.2f} | – | |")
    lines.append(f"| max command → ack, ms | {max(first, default=float('nan')):.1f} | {max(last, default=float('nan')):.1f} | | – | |")
    refreshes = run["refreshes"]
    if refreshes:
        failed = sum(1 for r in refreshes if r["failed"])
        lines.append(f"| refreshes: seconds each (first / last), failed | {refreshes[0]['seconds']:.2f} | "
                     f"{refreshes[-1]['seconds']:.2f} | {len(refreshes)} run, {failed} failed | – | |")
    downloads = run["downloads"]
    times = downloads["seconds"]
    if downloads["cycles"]:
        lines.append(f"| downloads: seconds per batch of {DOWNLOAD_BATCH} (first / last) | "
                     f"{times[0] if times else float('nan'):.2f} | {times[-1] if times else float('nan'):.2f} | "
                     f"{downloads['done']} done in {downloads['cycles']} cycles, {len(downloads['stuck'])} stuck, "
                     f"{len(downloads['errors'])} errors | – | |")
    lines += [
        "",
        "| command | sent | errors | p50 ms | p99 ms | max ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    by_command = {}
    for _, ms, cmd, good in crowd.samples:
        entry = by_command.setdefault(cmd, ([], [0]))
        entry[0].append(ms)
        if not good:
            entry[1][0] += 1
    for cmd in sorted(by_command):
        values, errors = by_command[cmd]
        lines.append(f"| `{cmd}` | {len(values):,} | {errors[0]:,} | {pct(values, 50):.1f} | {pct(values, 99):.1f} | {max(values):.1f} |")
    lines += ["", "| time (m:ss) | Rss MB | Private_Dirty MB | threads | open files | server CPU % | other CPU % "
              "| p99 ms | messages/s per client | KB/s per client | `state` bytes | `downloads` bytes (items) |",
              "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    step = max(1, len(samples) // 12)
    shown = samples[::step] + ([samples[-1]] if samples and (len(samples) - 1) % step else [])
    previous = None
    for s in shown:
        if previous is None or s[0] <= previous[0]:
            cpu = other = p99 = rate = kbs = "–"
        else:
            span = s[0] - previous[0]
            cpu = f"{(s[5] - previous[5]) / span * 100:.1f}"
            other = f"{others_between(samples, previous[0], s[0])[1]:.0f}"
            p99 = f"{pct([ms for t, ms, _, _ in crowd.samples if previous[0] < t <= s[0]], 99):.1f}"
            rate = f"{(s[6]['frames'] - previous[6]['frames']) / span / crowd.count:.1f}"
            kbs = f"{(s[6]['bytes'] - previous[6]['bytes']) / span / crowd.count / 1000:.1f}"
        p = s[6]
        lines.append(f"| {int(s[0] // 60)}:{int(s[0] % 60):02d} | {s[2]:.1f} | {s[1]:.1f} | {s[3]} | {s[4]} | {cpu} | {other} | "
                     f"{p99} | {rate} | {kbs} | {p['state']:,} | {p['downloads']:,} ({p['download_items']}) |")
        previous = s
    notes = []
    if crowd.errors:
        notes.append("Command errors: " + "; ".join(f"{m} ×{n}" for m, n in sorted(crowd.errors.items(), key=lambda x: -x[1])[:8]))
    if dropped:
        notes.append("Dropped: " + "; ".join(f"client {c['index']}: {c['why']}" for c in dropped[:5]))
    if downloads["stuck"] or downloads["errors"]:
        notes.append(f"Downloads: stuck {downloads['stuck'][:3]}, errors {downloads['errors'][:5]}")
    if refreshes and any(r.get("error") for r in refreshes):
        notes.append("Refresh errors: " + "; ".join(r["error"] for r in refreshes if r.get("error"))[:500])
    lines += [""] + notes + [
        "",
        "Memory from /proc/PID/smaps_rollup every second (MB = 10^6 bytes); latency from handing the command "
        "to the kernel to reading its answer, by one Python thread reading every client (its own delays are "
        "in the figures, alike in both windows). \"other CPU\": the machine's busy time (/proc/stat) less the "
        "server's and this harness's — another program's load shows there and in the p99 beside it. "
        f"After the load: {run['idle'][1]:.1f} MB Rss, {run['idle'][0]:.1f} MB Private_Dirty with the clients gone "
        "(5 s idle).",
    ]
    passed = growth_ok and not dropped and crowd.lost == 0 and steady and run["answered"] == crowd.count
    return "\n".join(lines) + "\n", passed


def traffic_between(samples, low, high, count):
    chosen = [s for s in samples if low <= s[0] <= high]
    if len(chosen) < 2:
        return float("nan"), float("nan")
    span = chosen[-1][0] - chosen[0][0]
    a, b = chosen[0][6], chosen[-1][6]
    return (b["frames"] - a["frames"]) / span / count, (b["bytes"] - a["bytes"]) / span / count / 1000


def others_between(samples, low, high):
    """(this harness's CPU, the machine's CPU other than the server's and the harness's), % of one core."""
    chosen = [s for s in samples if low <= s[0] <= high]
    if len(chosen) < 2:
        return float("nan"), float("nan")
    a, b = chosen[0], chosen[-1]
    span = b[0] - a[0]
    harness = b[6]["harness"] - a[6]["harness"]
    machine = b[6]["machine"] - a[6]["machine"]
    # /proc/stat and the processes' own counters do not add up exactly (a few % apart): never below 0.
    return harness / span * 100, max(0.0, (machine - harness - (b[5] - a[5])) / span * 100)


def cpu_between(samples, low, high):
    chosen = [s for s in samples if low <= s[0] <= high]
    if len(chosen) < 2:
        return float("nan")
    return (chosen[-1][5] - chosen[0][5]) / (chosen[-1][0] - chosen[0][0]) * 100


# ------------------------------------------------------------------------------ main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=float(os.environ.get("SOAK_MINUTES") or 60))
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--earshot", default=default_binary())
    parser.add_argument("--out", default=OUT, help="where the table goes besides stdout (default: .build/bench/soak.md)")
    parser.add_argument("--samples-out", help="also write every latency and memory sample to this JSON file")
    # To find what a growth comes from (not used by `make bench`):
    parser.add_argument("--mix", default=",".join(MIX), help="the clients' commands, in turn (default: all)")
    parser.add_argument("--items", type=int, default=FEED_ITEMS,
                        help="episodes the feed starts with (default 300; it grows by 5 a refresh)")
    parser.add_argument("--no-refresh", action="store_true", help="no refreshes")
    parser.add_argument("--no-downloads", action="store_true", help="no downloads")
    parser.add_argument("--no-play", action="store_true", help="nothing plays")
    args = parser.parse_args()
    binary = os.path.abspath(args.earshot)
    if not os.access(binary, os.X_OK):
        sys.exit(f"no earshot binary at {binary} (make release, or set EARSHOT_BIN)")
    try:
        import websocket  # noqa: F401
    except ImportError:
        sys.exit(f"websocket-client is not importable by {sys.executable}: run scripts/bench-setup.sh")
    shown = os.path.relpath(binary, ROOT) if binary.startswith(ROOT + os.sep) else binary
    seconds = args.minutes * 60
    print(f"soak: {args.minutes:g} minutes, {args.clients} clients", file=sys.stderr)

    files = FileServer()
    files.put_prefix("/media/", tone(SHORT_SECONDS, 523), "audio/wav")
    feed = GrowingFeed(files, args.items)
    server = None
    crowd = control = None
    stop = threading.Event()
    threads = []
    try:
        server = Server(binary)
        podcast = server.json("POST", "/api/subscriptions", {"url": feed.url}, timeout=300)["podcast"]
        episodes = server.json("GET", f"/api/episodes?podcast={podcast['id']}&limit=1000")["episodes"]
        if len(episodes) < 1 + QUEUE_EPISODES + DOWNLOAD_POOL:
            raise RuntimeError(f"only {len(episodes)} episodes")
        playing = episodes[0]
        files.put(urllib.parse.urlsplit(playing["url"]).path, tone(LONG_SECONDS), "audio/wav")
        queue_episodes = [e["id"] for e in episodes[1:1 + QUEUE_EPISODES]]
        pool = [e["id"] for e in episodes[1 + QUEUE_EPISODES:1 + QUEUE_EPISODES + DOWNLOAD_POOL]]
        control = Control(server)
        setup = [("repeat", {"mode": "one"}), ("download.settings", {"concurrency": DOWNLOAD_BATCH})]
        if not args.no_play:
            setup.append(("play", {"episode": playing["id"]}))
        for cmd, extra in setup:
            answer = control.command(cmd, **extra)
            if answer["type"] != "ack":
                raise RuntimeError(f"{cmd}: {answer.get('message')}")
        mix = [m for m in args.mix.split(",") if m]
        unknown = set(mix) - set(MIX)
        if unknown or not mix:
            raise RuntimeError(f"--mix: unknown {sorted(unknown)} (known: {', '.join(MIX)})")
        crowd = Crowd(server, args.clients, queue_episodes, mix)
        started = time.monotonic()
        samples, refreshes = [], []
        downloads = {"done": 0, "cycles": 0, "stuck": [], "errors": [], "seconds": []}
        def probe():
            items = len((control.downloads or {}).get("items", []))
            return {"frames": crowd.frames, "bytes": crowd.bytes, "state": crowd.state_bytes,
                    "downloads": control.downloads_bytes, "download_items": items}

        threads = [threading.Thread(target=sampler, args=(server, stop, samples, started, probe), daemon=True)]
        if not args.no_refresh:
            threads.append(threading.Thread(target=refresher, args=(server, feed, stop, refreshes), daemon=True))
        if not args.no_downloads:
            threads.append(threading.Thread(target=downloader, args=(control, pool, stop, downloads), daemon=True))
        for thread in threads:
            thread.start()
        progress = threading.Thread(target=lambda: [print(f"soak: {m} of {args.minutes:g} min", file=sys.stderr)
                                                    for m in range(1, int(args.minutes) + 1) if not stop.wait(60)],
                                    daemon=True)
        progress.start()
        crowd_seconds = crowd.run(seconds, stop)
        stop.set()
        for thread in threads:
            thread.join(130)
        answered = crowd.final_ping()
        if not server.alive():
            raise RuntimeError("the server exited during the soak; its last output:\n" + "\n".join(server.output[-20:]))
        crowd.close()
        control.close()
        time.sleep(5)
        idle = memory_mb(server.pid)
        run = {"seconds": crowd_seconds, "samples": samples, "crowd": crowd, "refreshes": refreshes,
               "downloads": downloads, "answered": answered, "idle": idle}
    except (RuntimeError, OSError) as error:
        print(f"bench/soak.py: {error}", file=sys.stderr)
        if server is not None:
            print("\n".join(server.output[-20:]), file=sys.stderr)
        return 1
    finally:
        stop.set()
        if crowd is not None:
            crowd.close()
        if control is not None:
            control.close()
        if server is not None:
            server.stop()
        files.close()
    text, _ = report(args, shown, run)
    if args.samples_out:
        with open(args.samples_out, "w") as out:
            json.dump({"latency": run["crowd"].samples, "memory": run["samples"], "refreshes": run["refreshes"],
                       "downloads": run["downloads"],
                       "last_state": json.loads(run["crowd"].last_state or b"null")}, out)
    print(text)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
