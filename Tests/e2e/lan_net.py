"""A test network for the LAN tests: a network namespace joined to this machine by a veth pair.

This machine's end is HOST_IP (10.200.N.1/24); inside the namespace the client's end has
10.200.N.2 … 10.200.N.7 (several addresses, so a test can guess from more than one client).
Nothing is routed beyond the pair. Made as root with `ip`, and always taken down again: `destroy`
runs from the fixture's `finally` and, should the test process be killed first, at exit.
"""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import launch, stop

HERE = Path(__file__).resolve().parent
ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36"


def run(*command):
    return subprocess.run(command, capture_output=True, text=True, timeout=30)


class LanNet:
    CLIENTS = 6  # .2 … .7

    def __init__(self):
        tag = os.getpid() % 100000
        self.name = f"earshot-e2e-{tag}"
        self.host_if, self.client_if = f"esh{tag}h", f"esh{tag}n"
        subnet = 100 + os.getpid() % 150
        self.prefix = f"10.200.{subnet}"
        self.host_ip = f"{self.prefix}.1"
        self.client_ips = [f"{self.prefix}.{i}" for i in range(2, 2 + self.CLIENTS)]
        self.made = False

    @classmethod
    def create(cls):
        """The network, or a skip that says why it cannot be made here."""
        if os.geteuid() != 0:
            pytest.skip("the LAN tests make a network namespace and need root (CAP_NET_ADMIN); run them as root")
        net = cls()
        probe = run("ip", "netns", "add", net.name)
        if probe.returncode != 0:
            pytest.skip(f"`ip netns add` failed (no CAP_NET_ADMIN here?): {probe.stderr.strip()}")
        net.made = True
        atexit.register(net.destroy)
        steps = [
            ("ip", "link", "add", net.host_if, "type", "veth", "peer", "name", net.client_if),
            ("ip", "link", "set", net.client_if, "netns", net.name),
            ("ip", "addr", "add", f"{net.host_ip}/24", "dev", net.host_if),
            ("ip", "link", "set", net.host_if, "up"),
            *[("ip", "netns", "exec", net.name, "ip", "addr", "add", f"{ip}/24", "dev", net.client_if) for ip in net.client_ips],
            ("ip", "netns", "exec", net.name, "ip", "link", "set", net.client_if, "up"),
            ("ip", "netns", "exec", net.name, "ip", "link", "set", "lo", "up"),
        ]
        for step in steps:
            result = run(*step)
            if result.returncode != 0:
                net.destroy()
                pytest.fail(f"{' '.join(step)}: {result.stderr.strip()}")
        net.settle()
        return net

    def settle(self, timeout=15):
        """Waits until both ends' IPv6 link-local addresses have passed duplicate address detection.
        An address leaves its tentative state a second or two after its link comes up, and Chromium
        takes that for a network change: it drops the loads in flight (net::ERR_NETWORK_CHANGED), so
        a page opened in that moment never loads. The browsers start on a settled network."""
        checks = [("ip", "-6", "addr", "show", "tentative", "dev", self.host_if),
                  ("ip", "netns", "exec", self.name, "ip", "-6", "addr", "show", "tentative", "dev", self.client_if)]
        deadline = time.monotonic() + timeout
        while any(run(*check).stdout.strip() for check in checks):
            if time.monotonic() > deadline:
                self.destroy()
                pytest.fail(f"the test network's IPv6 addresses are still tentative after {timeout} s")
            time.sleep(0.1)

    def destroy(self):
        """Ends what still runs in the namespace (only our own processes live there), then removes it."""
        if not self.made:
            return
        self.made = False
        pids = run("ip", "netns", "pids", self.name).stdout.split()
        for pid in pids:
            try:
                os.kill(int(pid), 9)
            except (ProcessLookupError, ValueError):
                pass
        run("ip", "netns", "del", self.name)  # takes the client's end, and so the pair, with it
        run("ip", "link", "del", self.host_if)  # in case the pair outlived the namespace

    def exists(self):
        return self.name in run("ip", "netns", "list").stdout

    # The client inside the namespace (Tests/e2e/lan_client.py).

    def command(self, *args):
        return ["ip", "netns", "exec", self.name, sys.executable, str(HERE / "lan_client.py"), *args]

    def client(self, *args):
        """Runs one client command in the namespace; returns its JSON lines."""
        result = subprocess.run(self.command(*args), capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"lan_client {args}: {result.stderr}"
        return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]

    def http(self, method, url, headers=None, body=None, source=None):
        args = ["http", method, url]
        for name, value in (headers or {}).items():
            args += ["--header", f"{name}: {value}"]
        if body is not None:
            args += ["--body", body if isinstance(body, str) else json.dumps(body)]
        if source:
            args += ["--source", source]
        return self.client(*args)[0]

    def ws(self, url, headers=None, send=(), hold=None):
        args = ["ws", url]
        for name, value in (headers or {}).items():
            args += ["--header", f"{name}: {value}"]
        for message in send:
            args += ["--send", json.dumps(message)]
        if hold is not None:
            args += ["--hold", str(hold)]
        return args


# Fixtures (module scope: each test module gets its own namespace and server).

@pytest.fixture(scope="module")
def net():
    made = LanNet.create()
    try:
        yield made
    finally:
        made.destroy()
        assert not made.exists(), "the test namespace must be gone"


@pytest.fixture(scope="module")
def lan_server(net):
    """The real binary with --lan, started after the veth exists (so its address is known)."""
    data = tempfile.mkdtemp(prefix="earshot-e2e-lan-")
    running = launch(0, data, args=("--lan",))
    running.port = int(running.url.rsplit(":", 1)[1])
    running.lan_url = f"http://{net.host_ip}:{running.port}"
    try:
        yield running
    finally:
        stop(running.process)
        shutil.rmtree(data, ignore_errors=True)


def host_call(server, method, path, body=None):
    """The host's own browser: loopback, with the page's Origin."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data, method=method,
                                     headers={"Origin": server.url, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def open_code(server):
    status, body = host_call(server, "POST", "/api/pairing")
    assert status == 201, body
    return body["pairing"]


def lan_headers(server, cookie=None, json_body=False):
    headers = {"Origin": server.lan_url}
    if cookie:
        headers["Cookie"] = cookie
    if json_body:
        headers["Content-Type"] = "application/json"
    return headers


def pair(net, server, source=None):
    """Pairs a namespace client with a fresh code; returns its cookie ("earshot_device=…") and id."""
    code = open_code(server)["code"]
    headers = {**lan_headers(server, json_body=True), "User-Agent": ANDROID}
    answer = net.http("POST", server.lan_url + "/api/pair", headers, {"code": code}, source=source)
    assert answer["status"] == 201, answer
    cookie = answer["headers"]["set-cookie"].split(";")[0]
    return cookie, json.loads(answer["body"])["device"]["id"]


def demo_episode_id(server):
    episodes = server.get_json("/api/episodes?limit=100")["episodes"]
    demo = [e for e in episodes if e["podcast"] == "Earshot Demo"]
    assert demo, "the demo podcast is subscribed on first start"
    return max(demo, key=lambda e: e["duration"])["id"]


