"""The phone as a remote, from a real LAN client: `earshot serve --lan` (the real binary) on this
machine, clients in a network namespace joined by a veth pair (lan_net.py), so the server sees a
peer that is not loopback. Needs root; skips with a message otherwise.

Proves: an unpaired client gets the pairing page and nothing else (HTTP and WebSocket); a paired
one can play; a revoked one is cut off (its open socket closes); a wrong Host or Origin is refused;
guessing is throttled; without --lan nothing listens on the LAN.
"""

import json
import shutil
import subprocess
import tempfile
import time

from conftest import launch, stop, wait_until
from lan_net import demo_episode_id, host_call, lan_headers, lan_server, net, open_code, pair  # noqa: F401 (fixtures)


def test_serve_prints_lan_urls(net, lan_server):
    wait_until(lambda: any(f"http://{net.host_ip}:{lan_server.port}/" in line for line in lan_server.output),
               message="the LAN address in the banner")
    assert any(f".local:{lan_server.port}/" in line for line in lan_server.output), lan_server.output


def test_unpaired_client_gets_only_the_pairing_page(net, lan_server):
    base = lan_server.lan_url
    for path in ("/", "/player", "/pair", "/podcast/1"):
        page = net.http("GET", base + path)
        assert page["status"] == 200 and "Pair this device" in page["body"], (path, page["status"])
        assert "Earshot Demo" not in page["body"] and "/js/app.js" not in page["body"]
    for path in ("/api/state", "/api/podcasts", "/api/episodes", "/js/app.js", "/demo/feed.xml", "/api/devices", "/api/pairing"):
        refused = net.http("GET", base + path)
        assert refused["status"] == 401, (path, refused)
        assert "Earshot Demo" not in refused["body"]
    posted = net.http("POST", base + "/api/subscriptions", lan_headers(lan_server, json_body=True), {"url": "http://x/"})
    assert posted["status"] == 401
    upgrade = net.client(*net.ws(base.replace("http", "ws") + "/ws", lan_headers(lan_server)))
    assert upgrade[0]["status"] == 401, upgrade
    # The size limit holds for strangers too: a declared 1 MiB + 1 body is refused before it is sent.
    big = net.client("http", "POST", base + "/api/pair", "--header", "Content-Type: application/json",
                     "--header", f"Origin: {base}", "--body-size", str((1 << 20) + 1))[0]
    assert big["status"] == 413, big


def test_paired_client_can_play(net, lan_server):
    cookie, _ = pair(net, lan_server)
    base = lan_server.lan_url
    state = net.http("GET", base + "/api/state", {"Cookie": cookie})
    assert state["status"] == 200 and json.loads(state["body"])["type"] == "state"
    episode = demo_episode_id(lan_server)
    replies = net.client(*net.ws(base.replace("http", "ws") + "/ws", lan_headers(lan_server, cookie),
                                 send=[{"id": 1, "cmd": "play", "episode": episode}]))
    assert replies[0]["status"] == 101 and replies[1] == {"type": "ack", "id": 1}, replies
    wait_until(lambda: (s := lan_server.state())["episode"] and s["episode"]["id"] == episode and not s["paused"],
               message="the host to play what the phone asked for")
    assert net.client(*net.ws(base.replace("http", "ws") + "/ws", lan_headers(lan_server, cookie),
                              send=[{"id": 2, "cmd": "pause"}]))[1]["type"] == "ack"
    wait_until(lambda: lan_server.state()["paused"], message="the host to pause")


def test_revoked_client_is_cut_off(net, lan_server):
    cookie, device = pair(net, lan_server)
    base = lan_server.lan_url
    holder = subprocess.Popen(net.command(*net.ws(base.replace("http", "ws") + "/ws", lan_headers(lan_server, cookie), hold=20)),
                              stdout=subprocess.PIPE, text=True)
    try:
        assert json.loads(holder.stdout.readline()) == {"status": 101}
        assert json.loads(holder.stdout.readline()) == {"open": True}
        revoked_at = time.monotonic()
        status, body = host_call(lan_server, "DELETE", f"/api/devices/{device}")
        assert status == 200, body
        closed = json.loads(holder.stdout.readline())
        assert closed["closed"] == 4401 and closed["reason"] == "device revoked", closed
        assert time.monotonic() - revoked_at < 2, "the socket closes at once"
    finally:
        holder.kill()
        holder.wait()
    assert net.http("GET", base + "/api/state", {"Cookie": cookie})["status"] == 401
    again = net.client(*net.ws(base.replace("http", "ws") + "/ws", lan_headers(lan_server, cookie)))
    assert again[0]["status"] == 401
    page = net.http("GET", base + "/", {"Cookie": cookie})
    assert "Pair this device" in page["body"] and "Max-Age=0" in page["headers"].get("set-cookie", "")


def test_wrong_host_or_origin_is_refused(net, lan_server):
    cookie, _ = pair(net, lan_server)
    base, port = lan_server.lan_url, lan_server.port
    # DNS rebinding: a name that is not this machine's, even with a valid cookie.
    for host in (f"evil.example:{port}", "evil.example", f"{net.host_ip}.nip.io:{port}"):
        assert net.http("GET", base + "/api/state", {"Host": host, "Cookie": cookie})["status"] == 403, host
        assert net.http("GET", base + "/", {"Host": host})["status"] == 403, host
    # A page of another site (or another name of this one) driving this server.
    for origin in ("http://evil.example", f"http://evil.example:{port}", f"http://127.0.0.1:{port}", "null"):
        headers = {"Origin": origin, "Cookie": cookie, "Content-Type": "application/json"}
        assert net.http("POST", base + "/api/refresh", headers)["status"] == 403, origin
        assert net.http("POST", base + "/api/pair", headers, {"code": "123456"})["status"] == 403, origin
        upgrade = net.client(*net.ws(base.replace("http", "ws") + "/ws", {"Origin": origin, "Cookie": cookie}))
        assert upgrade[0]["status"] == 403, (origin, upgrade)
    # The same request from the right page passes.
    assert net.http("POST", base + "/api/refresh", lan_headers(lan_server, cookie))["status"] == 202
    assert net.http("POST", base + "/api/refresh", {**lan_headers(lan_server, cookie), "Content-Type": "text/plain"},
                    '{"x":1}')["status"] == 415, "a JSON body must be application/json"


def test_brute_force_is_throttled(net, lan_server):
    code = open_code(lan_server)["code"]
    wrong = "000000" if code != "000000" else "111111"
    url = lan_server.lan_url + "/api/pair"
    headers = lan_headers(lan_server, json_body=True)
    first, *others = net.client_ips
    statuses = [net.http("POST", url, headers, {"code": wrong}, source=first)["status"] for _ in range(3)]
    assert statuses == [403, 403, 403]
    held = net.http("POST", url, headers, {"code": code}, source=first)
    assert held["status"] == 429 and int(held["headers"]["retry-after"]) == 5, held
    # Other addresses may still guess, but the code dies at the fifth wrong guess overall.
    assert net.http("POST", url, headers, {"code": wrong}, source=others[0])["status"] == 403
    last = net.http("POST", url, headers, {"code": wrong}, source=others[1])
    assert last["status"] == 403 and "too many" in last["body"], last
    assert net.http("POST", url, headers, {"code": code}, source=others[2])["status"] == 410, "the right code is too late"
    status, body = host_call(lan_server, "GET", "/api/pairing")
    assert body["pairing"] is None


def test_without_lan_nothing_listens_on_the_lan(net):
    data = tempfile.mkdtemp(prefix="earshot-e2e-loopback-")
    running = launch(0, data)
    try:
        port = int(running.url.rsplit(":", 1)[1])
        answer = net.http("GET", f"http://{net.host_ip}:{port}/")
        assert answer["status"] is None and "refused" in answer["error"].lower(), answer
    finally:
        stop(running.process)
        shutil.rmtree(data, ignore_errors=True)
