"""Sync with phone podcast apps (issue 16), against the real binary on the LAN: gPodder's own
client library (mygpoclient, Debian's python3-mygpoclient) logs in from the test's network
namespace — a phone that never paired — registers a device, uploads and downloads subscriptions
and episode actions; the library follows, and Earshot's own listening goes back to the phone.
(AntennaPod's exact request shapes are replayed in Tests/WebTests/SyncAPITests.swift.)"""

import base64
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import wait_until
from feeds import simple_feed
from lan_net import host_call, lan_server, net  # noqa: F401 (fixtures)

HERE = Path(__file__).resolve().parent
USER, PASSWORD = "household", "listen-on-the-sofa"


def mygpo(net, server, *steps, password=PASSWORD):
    """Runs Tests/e2e/sync_client.py in the namespace; returns {step: result} (the last of each)."""
    command = ["ip", "netns", "exec", net.name, sys.executable, str(HERE / "sync_client.py"),
               server.lan_url, USER, password, *steps]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return {line["step"]: line for line in lines}


@pytest.fixture(scope="module", autouse=True)
def sync_account(lan_server):
    status, body = host_call(lan_server, "PUT", "/api/sync", {"user": USER, "password": PASSWORD})
    assert status == 200 and body["enabled"], body
    return body


def test_mygpoclient_from_the_lan_carries_subscriptions_and_positions_both_ways(net, lan_server, feed_server, driver):
    audio = feed_server.put_audio("/sync-audio.mp3")
    phone_feed = feed_server.put("/sync-phone.xml", simple_feed("Walk Show", audio, episodes=2))
    episode_url = audio  # both items share the enclosure; the guid tells them apart for Earshot

    first = mygpo(net, lan_server, "register", "pixel", "devices", "pull", "pixel", "0",
                  "upload", phone_feed, episode_url, "41", "66", "add", "pixel", phone_feed, "simple-get", "pixel",
                  "simple-roundtrip", "pixel", "download", "0")
    assert first["register"].get("ok") is True, first
    assert {"id": "pixel", "caption": "Phone on the LAN", "type": "mobile"}.items() <= first["devices"]["devices"][0].items(), first
    # The library's web feeds: the bundled demo (a path of this server) is no use to a phone.
    assert first["pull"]["add"] == [] and first["pull"]["remove"] == [], first["pull"]
    assert first["add"]["update_urls"] == [], first["add"]
    assert first["simple-roundtrip"].get("ok") is True, first["simple-roundtrip"]
    uploaded = [a for a in first["download"]["actions"] if a.get("device") == "pixel"]
    assert uploaded and uploaded[0]["position"] == 41, first["download"]
    # More than three authenticated calls from one client object: mygpoclient answers only three
    # challenges in its life, so the session cookie carried the rest.
    assert all("error" not in result for result in first.values()), first

    # The phone's podcast is fetched in the background, and the position sent before it was here lands.
    podcast = wait_until(lambda: lan_server.podcast_by_feed(phone_feed), timeout=20,
                         message=f"the phone's podcast (the server said: {lan_server.output[-15:]})")
    episodes = lan_server.get_json(f"/api/episodes?podcast={podcast['id']}")["episodes"]
    wait_until(lambda: any(e["position"] == 41 for e in lan_server.get_json(f"/api/episodes?podcast={podcast['id']}")["episodes"]),
               timeout=10, message="the phone's position on the episode")

    # Earshot's own listening goes back: mark the other episode played here, the phone downloads it.
    since = first["download"]["since"]
    other = next(e for e in episodes if e["position"] != 41)
    driver.get(lan_server.url + "/")
    reply = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const ws = new WebSocket(`ws://${location.host}/ws`);
        ws.onopen = () => ws.send(JSON.stringify({id: 1, cmd: 'mark', episode: arguments[0], played: true}));
        ws.onmessage = (event) => { const m = JSON.parse(event.data); if (m.id === 1) { ws.close(); done(m); } };
    """, other["id"])
    assert reply["type"] == "ack", reply
    # Subscriptions since the phone's last pull of them (as a client keeps that timestamp): the podcast
    # subscribed here once fetched is among them, whenever the fetch ended. (Since the episodes'
    # timestamp instead, a fetch that ended in an earlier second than that call was missed.)
    later = mygpo(net, lan_server, "download", str(since), "pull", "pixel", str(first["pull"]["since"]))
    own = [a for a in later["download"]["actions"] if a.get("device") == "earshot"]
    assert own and own[0]["podcast"] == phone_feed and own[0]["position"] == own[0]["total"] == 66, later["download"]
    assert phone_feed in later["pull"]["add"], later["pull"]

    # Removed on the phone: unsubscribed here (its episodes and positions kept for a return).
    gone = mygpo(net, lan_server, "remove", "pixel", phone_feed)
    assert "error" not in gone["remove"], gone
    wait_until(lambda: lan_server.podcast_by_feed(phone_feed) is None, timeout=5, message="the podcast unsubscribed")


def test_a_wrong_password_is_refused_and_the_lan_gets_nothing_else_without_pairing(net, lan_server):
    refused = mygpo(net, lan_server, "devices", password="not the password")
    assert refused["devices"].get("error") == "Unauthorized", refused
    # The sync credentials open the sync API only: the app's own API still wants pairing.
    answer = net.http("GET", lan_server.lan_url + "/api/podcasts",
                      {"Authorization": "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()})
    assert answer["status"] == 401 and "not paired" in answer["body"], answer
