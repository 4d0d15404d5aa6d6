#!/usr/bin/env python3
"""`make bench`: how fast a change reaches every client, and what many clients cost the server.

    .build/bench/venv/bin/python bench/clients.py [--earshot PATH] [--samples N] [--seconds S] [--quick]

Starts the release `earshot serve` (ephemeral port, a temporary library with the bundled demo,
`--audio-output null`), then:

- Latency, with 1, 10 and 100 clients connected: one of them sends `volume` (a new value each
  time); a sample is the time from handing the command to the kernel until the resulting `state`
  has arrived at every connected client (the sender's own copy included; with 1 client that is
  all there is). The next command goes out once all have it. p50 / p99 / max over N samples after
  a warm-up. Budget (issue 4): p99 < 10 ms.
- CPU, with 500 clients connected and reading: the server's own CPU time (utime + stime of its
  process in /proc, all threads) over S seconds, as % of one core, while every client gets
  2 updates a second, driven two ways: (a) a command twice a second (`volume`, nothing playing:
  each is a `state` to all 500), (b) the demo episode playing (the engine's 2 `time` messages a
  second to all 500). (b) includes mpv decoding the episode, so the same is measured with 1 client
  and the difference is the clients' share. Budget: 500 clients < 10 % of one core.

The clients are one Python process (a minimal RFC 6455 client over epoll, stdlib only, so the bench
venv needs nothing new); it shares the machine's cores with the server, so only the server's CPU
is reported, and its latencies include the clients' own reading (one thread reads 100 sockets in
turn: the last one read waits for the others).
"""

import argparse
import base64
import json
import os
import re
import resource
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, ".build", "bench", "clients.md")
SERVING = re.compile(r"Earshot is serving on http://127\.0\.0\.1:(\d+)/")
VOLUME = re.compile(rb'"volume":(-?[0-9.eE+-]+)')
CLK_TCK = os.sysconf("SC_CLK_TCK")

BUDGET_P99_MS = 10
BUDGET_CPU_PERCENT = 10
LATENCY_CLIENTS = [1, 10, 100]
CPU_CLIENTS = 500


# ------------------------------------------------------------------------------ a minimal client

class Client:
    """One WebSocket connection: the handshake blocking, then non-blocking reads of whole frames."""

    __slots__ = ("index", "sock", "buf", "messages", "arrived")

    def __init__(self, index, port):
        self.index = index
        self.messages = 0
        self.arrived = None
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                raise RuntimeError(f"client {index}: the server closed the connection during the handshake")
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            raise RuntimeError(f"client {index}: handshake refused: {status!r}")
        self.buf = bytearray(head.split(b"\r\n\r\n", 1)[1])
        self.parse()  # the snapshot may have come with the handshake's answer
        sock.setblocking(False)
        self.sock = sock

    def send(self, obj):
        payload = json.dumps(obj, separators=(",", ":")).encode()
        mask = os.urandom(4)
        header = bytearray([0x81])
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 65536:
            header += bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            header += bytes([0x80 | 127]) + n.to_bytes(8, "big")
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (n // 4 + 1))[:n], "big")).to_bytes(n, "big")
        self.sock.setblocking(True)
        self.sock.sendall(bytes(header) + mask + masked)
        self.sock.setblocking(False)

    def read(self):
        """Everything the socket has now, as complete text frames' payloads."""
        try:
            data = self.sock.recv(262144)
        except BlockingIOError:
            return []
        if not data:
            raise RuntimeError(f"client {self.index}: the server closed the connection")
        self.buf += data
        return self.parse()

    def parse(self):
        """Takes the complete frames off the buffer; returns the text frames' payloads."""
        frames = []
        buf = self.buf
        while len(buf) >= 2:
            length = buf[1] & 0x7F
            offset = 2
            if length == 126:
                if len(buf) < 4:
                    break
                length = int.from_bytes(buf[2:4], "big")
                offset = 4
            elif length == 127:
                if len(buf) < 10:
                    break
                length = int.from_bytes(buf[2:10], "big")
                offset = 10
            if len(buf) < offset + length:
                break
            if buf[0] & 0x0F == 0x1:
                frames.append(bytes(buf[offset:offset + length]))
            del buf[:offset + length]
        self.messages += len(frames)
        return frames

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Crowd:
    """N clients on one epoll."""

    def __init__(self, port, count):
        self.selector = selectors.DefaultSelector()
        self.clients = []
        for index in range(count):
            client = Client(index, port)
            self.clients.append(client)
            self.selector.register(client.sock, selectors.EVENT_READ, client)
        # Every client gets the state snapshot on connect: wait for all of them.
        self.until(lambda: all(c.messages > 0 for c in self.clients), 20, "the snapshot at every client")

    def pump(self, timeout, on_frame=None):
        """Reads whatever arrives within `timeout` s; `on_frame(client, payload, ns)` for each text frame."""
        for key, _ in self.selector.select(timeout):
            client = key.data
            frames = client.read()
            if on_frame and frames:
                now = time.perf_counter_ns()
                for payload in frames:
                    on_frame(client, payload, now)

    def until(self, condition, timeout, what, on_frame=None):
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            self.pump(0.05, on_frame)

    def close(self):
        for client in self.clients:
            self.selector.unregister(client.sock)
            client.close()
        self.selector.close()


# ------------------------------------------------------------------------------ the server

def start_serving(command, timeout):
    """Starts `earshot serve` (command: its argv); returns (process, port) once it announced its URL.
    Its output keeps being read (and dropped) so it never blocks on a full pipe."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    found, port = threading.Event(), {}

    def drain():
        for line in process.stdout:
            match = SERVING.search(line)
            if match and not found.is_set():
                port["value"] = int(match.group(1))
                found.set()

    threading.Thread(target=drain, daemon=True).start()
    if not found.wait(timeout):
        process.kill()
        process.wait()
        raise RuntimeError(f"earshot serve did not announce its URL within {timeout} s")
    return process, port["value"]


class Server:
    def __init__(self, binary):
        self.data = tempfile.mkdtemp(prefix="earshot-bench-clients-")
        try:
            self.process, self.port = start_serving(
                [binary, "serve", "--port", "0", "--data", self.data, "--audio-output", "null", "--refresh-interval", "0"],
                30)
        except RuntimeError:
            shutil.rmtree(self.data, ignore_errors=True)
            raise
        self.pid = self.process.pid

    def cpu_seconds(self):
        """utime + stime of the whole process (every thread), in seconds."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def json(self, path):
        import urllib.request
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as response:
            return json.loads(response.read())

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        shutil.rmtree(self.data, ignore_errors=True)


# ------------------------------------------------------------------------------ measurements

def latency(server, count, samples, warmup):
    """Milliseconds from a `volume` command to its `state` at all `count` clients, per sample."""
    crowd = Crowd(server.port, count)
    try:
        sender = crowd.clients[0]
        results = []
        previous = None
        for i in range(warmup + samples):
            value = (i * 37) % 101
            if value == previous:
                value = (value + 1) % 101
            previous = value
            waiting = set(range(count))
            last = [0]

            def on_frame(client, payload, now, value=value, waiting=waiting, last=last):
                if client.index in waiting and b'"type":"state"' in payload:
                    match = VOLUME.search(payload)
                    if match and float(match.group(1)) == value:
                        waiting.discard(client.index)
                        last[0] = now

            sent = time.perf_counter_ns()
            sender.send({"id": i, "cmd": "volume", "value": value})
            crowd.until(lambda: not waiting, 10, f"sample {i}'s state at every client", on_frame)
            if i >= warmup:
                results.append((last[0] - sent) / 1e6)
        return results
    finally:
        crowd.close()


def cpu(server, count, seconds, drive):
    """The server's CPU (% of one core) over `seconds` with `count` clients reading; `drive` is
    "command" (a `volume` command twice a second) or "playing" (the demo episode plays)."""
    crowd = Crowd(server.port, count)
    try:
        control = crowd.clients[0]
        if drive == "playing":
            episodes = server.json("/api/episodes?limit=100")["episodes"]
            demo = max((e for e in episodes if e["podcast"] == "Earshot Demo"), key=lambda e: e["duration"])
            if demo["duration"] < seconds + 10:
                raise RuntimeError(f"the demo episode is too short ({demo['duration']} s) for {seconds} s of playing")
            control.send({"id": "play", "cmd": "play", "episode": demo["id"]})
            control.send({"id": "seek", "cmd": "seek", "to": 0})
            deadline = time.monotonic() + 2  # let it start before measuring
            while time.monotonic() < deadline:
                crowd.pump(0.05)
        else:
            deadline = time.monotonic() + 1
            while time.monotonic() < deadline:
                crowd.pump(0.05)
        before_messages = [c.messages for c in crowd.clients]
        start_cpu, start = server.cpu_seconds(), time.monotonic()
        next_command, n = start, 0
        while (now := time.monotonic()) - start < seconds:
            if drive == "command" and now >= next_command:
                control.send({"id": n, "cmd": "volume", "value": 50 + n % 2})
                n += 1
                next_command += 0.5
            crowd.pump(max(0.0, min(0.05, next_command - now)) if drive == "command" else 0.05)
        used, wall = server.cpu_seconds() - start_cpu, time.monotonic() - start
        received = [c.messages - b for c, b in zip(crowd.clients, before_messages)]
        if drive == "playing":
            control.send({"id": "stop", "cmd": "stop"})
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:
            crowd.pump(0.05)
        return {
            "percent": used / wall * 100,
            "per_client_per_s": min(received) / wall if received else 0,
        }
    finally:
        crowd.close()
        time.sleep(0.5)  # let the server see the closes before the next run


# ------------------------------------------------------------------------------ report

def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--earshot", default=os.path.join(ROOT, ".build", "release", "earshot"))
    parser.add_argument("--samples", type=int, default=1000, help="latency samples per client count")
    parser.add_argument("--seconds", type=float, default=20, help="length of each CPU measurement")
    parser.add_argument("--quick", action="store_true", help="200 samples, 5 s CPU runs")
    args = parser.parse_args()
    if args.quick:
        args.samples, args.seconds = 200, 5
    if not os.access(args.earshot, os.X_OK):
        sys.exit(f"no earshot binary at {args.earshot} (make release)")

    server = Server(args.earshot)
    # 500 sockets here too; raised after the server started, which must manage its own limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < CPU_CLIENTS + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    try:
        rows = []
        for count in LATENCY_CLIENTS:
            samples = latency(server, count, args.samples, warmup=max(20, args.samples // 20))
            rows.append((count, samples))
            print(f"latency {count:>3} clients: p50 {statistics.median(samples):.2f} ms, "
                  f"p99 {pct(samples, 99):.2f} ms", file=sys.stderr)
        command = cpu(server, CPU_CLIENTS, args.seconds, "command")
        print(f"cpu {CPU_CLIENTS} clients, command 2/s: {command['percent']:.1f} %", file=sys.stderr)
        playing = cpu(server, CPU_CLIENTS, args.seconds, "playing")
        print(f"cpu {CPU_CLIENTS} clients, playing: {playing['percent']:.1f} %", file=sys.stderr)
        alone = cpu(server, 1, args.seconds, "playing")
        print(f"cpu 1 client, playing: {alone['percent']:.1f} %", file=sys.stderr)
    finally:
        server.stop()

    verdict = lambda ok: "PASS" if ok else "FAIL"  # noqa: E731
    lines = [
        f"Earshot clients benchmark — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
        f"{args.samples} samples per row, {args.seconds:g} s per CPU row",
        "",
        "| a command from one client → its `state` at every client | p50 | p99 | max | budget | |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    for count, samples in rows:
        p99 = pct(samples, 99)
        lines.append(f"| {count} client{'s' if count > 1 else ''} | {statistics.median(samples):.2f} ms | {p99:.2f} ms | "
                     f"{max(samples):.2f} ms | p99 < {BUDGET_P99_MS} ms | {verdict(p99 < BUDGET_P99_MS)} |")
    clients_share = playing["percent"] - alone["percent"]
    lines += [
        "",
        f"| server CPU, {CPU_CLIENTS} clients receiving 2 updates/s | % of one core | updates/s at the slowest client | budget | |",
        "| --- | ---: | ---: | --- | --- |",
        f"| (a) a `volume` command twice a second, nothing playing | {command['percent']:.1f} % | "
        f"{command['per_client_per_s']:.1f} | < {BUDGET_CPU_PERCENT} % | {verdict(command['percent'] < BUDGET_CPU_PERCENT)} |",
        f"| (b) the demo episode playing (`time` twice a second) | {playing['percent']:.1f} % | "
        f"{playing['per_client_per_s']:.1f} | | |",
        f"| (b) with 1 client: mpv decoding, the engine | {alone['percent']:.1f} % | {alone['per_client_per_s']:.1f} | | |",
        f"| (b) the {CPU_CLIENTS} clients' share | {clients_share:.1f} % | | < {BUDGET_CPU_PERCENT} % | "
        f"{verdict(clients_share < BUDGET_CPU_PERCENT)} |",
    ]
    table = "\n".join(lines) + "\n"
    print(table)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(table)
    ok = all(pct(s, 99) < BUDGET_P99_MS for _, s in rows) and command["percent"] < BUDGET_CPU_PERCENT \
        and clients_share < BUDGET_CPU_PERCENT
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
