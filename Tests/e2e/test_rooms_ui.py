"""The rooms in the web UI (issue 17): with Earshot's own snapserver and two real snapclients, the
full player's Output dialog lists "Rooms" beside this computer and every room by name with its
volume, mute and whether it plays Earshot; choosing Rooms makes the mini-player say where it
plays; a change made straight to snapserver (another controller) shows at once, and the page's
own changes reach snapserver. Screenshots at desktop and phone size."""

import json
import os
import shutil
import socket
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS, by_css, command, demo_episode, launch, open_page, set_viewport, stop, wait_until


class Control:
    """A JSON-RPC client of the snapserver's own (as Snapweb is)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.reader = self.sock.makefile("r", encoding="utf-8")
        self.next = 1

    def call(self, method, params=None):
        request = {"jsonrpc": "2.0", "id": self.next, "method": method, **({"params": params} if params else {})}
        self.next += 1
        self.sock.sendall((json.dumps(request) + "\n").encode())
        while True:
            message = json.loads(self.reader.readline())
            if message.get("id") == request["id"]:
                return message.get("result")

    def volumes(self):
        status = self.call("Server.GetStatus")["server"]
        return {c["id"]: c["config"]["volume"] for g in status["groups"] for c in g["clients"]}


@pytest.fixture
def rooms_server():
    for program in ("snapserver", "snapclient"):
        if shutil.which(program) is None:
            pytest.fail(f"{program} is not installed (scripts/setup.sh test installs it)")
    data = tempfile.mkdtemp(prefix="earshot-e2e-rooms-")
    port = 23000 + os.getpid() % 20000
    server = launch(0, data, args=("--snapcast-port", str(port)), snapcast=True)
    clients = [subprocess.Popen(["snapclient", "-h", "127.0.0.1", "-p", str(port), "--hostID", name,
                                 "--player", f"file:filename={data}/{name}.raw,mode=a", "--logsink", "null"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for name in ("kitchen", "study")]
    server.control_port = port + 1
    try:
        yield server
    finally:
        for client in clients:
            client.terminate()
            client.wait(timeout=10)
        stop(server.process)
        shutil.rmtree(data, ignore_errors=True)


def room(driver, room_id):
    return by_css(driver, f'.room[data-room="{room_id}"]')


def test_rooms_in_the_output_dialog_follow_snapserver_both_ways(driver, rooms_server):
    server = rooms_server
    wait_until(lambda: len(server.get_json("/api/rooms")["rooms"]) == 2, timeout=15, message="both snapclients in Earshot")
    control = Control(server.control_port)
    control.call("Client.SetName", {"id": "kitchen", "name": "Kitchen"})
    control.call("Client.SetName", {"id": "study", "name": "Study"})

    open_page(driver, server, "/")
    episode = demo_episode(server)
    assert command(driver, "play", episode=episode["id"])["type"] == "ack"
    open_page(driver, server, "/player")
    by_css(driver, ".output-button").click()
    wait_until(lambda: by_css(driver, "dialog.output-dialog[open]"), message="the Output dialog")
    wait_until(lambda: [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".room-name")] == ["Kitchen", "Study"],
               message="the rooms by their Snapcast names")
    names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".output-choice .output-name")]
    assert names[0].startswith("This computer") and "Rooms" in names, names
    assert room(driver, "kitchen").get_attribute("data-joined") == "true"

    # Play in the rooms: the mini-player says where.
    by_css(driver, '.output-choice[data-device="snapcast"]').click()
    wait_until(lambda: server.state()["output"] == "snapcast", message="the rooms chosen")

    # The page's changes reach snapserver…
    slider = room(driver, "study").find_element(By.CSS_SELECTOR, ".room-volume")
    driver.execute_script("arguments[0].value = 35; arguments[0].dispatchEvent(new Event('change'))", slider)
    wait_until(lambda: control.volumes()["study"]["percent"] == 35, message="the study's volume in snapserver")
    room(driver, "kitchen").find_element(By.CSS_SELECTOR, ".room-joined").click()
    wait_until(lambda: not next(r for r in server.get_json("/api/rooms")["rooms"] if r["id"] == "kitchen")["joined"],
               message="the kitchen left Earshot's stream")
    room(driver, "kitchen").find_element(By.CSS_SELECTOR, ".room-joined").click()
    wait_until(lambda: next(r for r in server.get_json("/api/rooms")["rooms"] if r["id"] == "kitchen")["joined"],
               message="the kitchen back")
    # …and snapserver's own show in the page at once.
    control.call("Client.SetVolume", {"id": "kitchen", "volume": {"percent": 62, "muted": True}})
    wait_until(lambda: room(driver, "kitchen").find_element(By.CSS_SELECTOR, ".room-percent").text == "62%"
               and room(driver, "kitchen").find_element(By.CSS_SELECTOR, ".room-mute").get_attribute("aria-pressed") == "true",
               message="snapserver's own change in the page")

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / "rooms-output-desktop.png"))
    set_viewport(driver, 390, 844, mobile=True)
    try:
        driver.save_screenshot(str(SCREENSHOTS / "rooms-output-phone.png"))
        by_css(driver, ".output-close").click()
        open_page(driver, server, "/")
        where = wait_until(lambda: (t := by_css(driver, "#mini-player .mini-podcast").text) and "in " in t and t,
                           message="the mini-player saying where it plays")
        assert "Kitchen" in where and "Study" in where, where
        driver.save_screenshot(str(SCREENSHOTS / "rooms-mini-player-phone.png"))
    finally:
        set_viewport(driver, 1280, 800)
    assert command(driver, "pause")["type"] == "ack"
