"""A phone on the LAN, in a real browser: headless Chromium runs *inside* the test's network
namespace (its chromedriver listens on the namespace's address, the test drives it from outside),
so the server sees a LAN peer. At phone size (390×844, a phone's User-Agent) it pairs with the code
the host's own browser shows (loopback, the session's `driver`), drives playback as a remote, is
not paused by the phone pausing its silent loop, pairs from the QR code, and is sent back to the
pairing page when the host removes it. Screenshots: the pairing page and the host's code and QR
code at desktop and phone size.
"""

import json
import socket
import subprocess
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import by_css, open_page, set_viewport, wait_until
from lan_net import ANDROID, demo_episode_id, lan_server, net  # noqa: F401 (fixtures)
from screens import match_baseline

PHONE = (390, 844)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def phone(net):
    """Chromium in the namespace at phone size, driven through its chromedriver on the namespace's address."""
    port = free_port()
    driver_process = subprocess.Popen(
        ["ip", "netns", "exec", net.name, "/usr/bin/chromedriver", f"--port={port}", f"--allowed-ips={net.host_ip}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    address = f"http://{net.client_ips[0]}:{port}"

    def ready():
        with urllib.request.urlopen(address + "/status", timeout=2) as response:
            return json.loads(response.read())["value"]["ready"]

    try:
        wait_until(ready, timeout=15, message="chromedriver in the namespace")
        options = webdriver.ChromeOptions()
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--autoplay-policy=no-user-gesture-required"):
            options.add_argument(argument)
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": PHONE[0], "height": PHONE[1], "pixelRatio": 1, "touch": True}, "userAgent": ANDROID})
        browser = webdriver.Remote(command_executor=address, options=options)
        browser.set_script_timeout(15)
        try:
            yield browser
        finally:
            browser.quit()
    finally:
        driver_process.kill()
        driver_process.wait()


def shot(browser, name):
    match_baseline(browser, name)


def wait_ready(browser, view, timeout=10):
    WebDriverWait(browser, timeout).until(lambda b: b.execute_script(
        "return document.body.dataset.ready === 'true' && document.body.dataset.view === arguments[0]", view))


def host_code(driver, server, net):
    """Opens a pairing code in the host's Devices view (QR code naming the namespace's side of the
    veth); returns the code's digits."""
    # The host's Chromium drops the loads in flight when it notices the test's veth appear
    # (net::ERR_NETWORK_CHANGED in its log, a moment after the namespace is made): the page then
    # times out, or comes without its style sheets. Once more in either case.
    styled = "return [...document.querySelectorAll('link[rel=stylesheet]')].every((l) => l.sheet && l.sheet.cssRules.length > 0)"
    try:
        open_page(driver, server, "/devices")
        if not driver.execute_script(styled):
            open_page(driver, server, "/devices")
    except TimeoutException:
        open_page(driver, server, "/devices")
    assert driver.execute_script(styled), "the Devices view came without its style sheets"
    # The view draws itself again when the host's addresses change (the veth again): each step
    # finds its element afresh and is tried again if the node it held was replaced.
    def click_open():
        driver.find_element(By.CSS_SELECTOR, ".devices-open").click()
        return True
    wait_until(click_open, message="the pairing button")
    code = wait_until(lambda: driver.find_element(By.CSS_SELECTOR, ".devices-code").text.replace(" ", ""),
                      message="the pairing code")
    assert len(code) == 6 and code.isdigit(), code

    def choose_host():
        choices = driver.find_elements(By.CSS_SELECTOR, "select.devices-host")
        if choices:
            Select(choices[0]).select_by_value(net.host_ip)
        return True
    wait_until(choose_host, message="the address for the QR code")
    # The image's text alternative names the URL it encodes.
    wait_until(lambda: driver.execute_script(
        "const img = document.querySelector('.devices-qr');"
        "return img && img.complete && img.naturalWidth > 0 && img.alt.includes(`//${arguments[0]}:`)", net.host_ip),
        message="the QR code for the LAN address")
    return code


def read_qr(driver, path):
    """Scans the QR code as the host's browser draws it (a screenshot of the image) with zbarimg."""
    by_css(driver, ".devices-qr").screenshot(str(path))
    result = subprocess.run(["zbarimg", "--quiet", "--raw", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, f"zbarimg could not read the QR code: {result.stderr}"
    return result.stdout.strip()


def state(server):
    return server.get_json("/api/state")


def test_phone_pairs_with_the_code_and_is_a_remote(driver, phone, net, lan_server):
    code = host_code(driver, lan_server, net)
    try:
        shot(driver, "lan-host-code-desktop.png")
        set_viewport(driver, *PHONE, mobile=True)
        by_css(driver, ".devices-code").location_once_scrolled_into_view
        shot(driver, "lan-host-code-phone.png")
    finally:
        set_viewport(driver, 1280, 800)

    # The pairing page, as the phone and as a desktop browser on the LAN see it (the host's
    # browser through the veth's address is a LAN peer too: not loopback).
    phone.get(lan_server.lan_url + "/")
    wait_ready(phone, "pairing")
    assert "Pair this device" in phone.page_source and "Earshot Demo" not in phone.page_source
    assert phone.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scroll"
    shot(phone, "lan-pairing-phone.png")
    driver.get(lan_server.lan_url + "/pair")
    wait_ready(driver, "pairing")
    shot(driver, "lan-pairing-desktop.png")

    # A wrong code says so; the right one opens the app.
    field = phone.find_element(By.ID, "pair-code")
    field.send_keys("000000" if code != "000000" else "111111")
    phone.find_element(By.CSS_SELECTOR, ".pair-submit").click()
    wait_until(lambda: "wrong code" in phone.find_element(By.CSS_SELECTOR, ".pair-message").text, message="the refusal")
    field.clear()
    field.send_keys(code)
    phone.find_element(By.ID, "pair-name").send_keys("Test phone")
    phone.find_element(By.CSS_SELECTOR, ".pair-submit").click()
    wait_ready(phone, "library", timeout=15)
    assert phone.execute_script("return document.cookie") == "", "the device cookie is HttpOnly"

    # The host sees it (opening the Devices view fetches the list).
    open_page(driver, lan_server, "/devices")
    wait_until(lambda: "Test phone" in [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".device-name")],
               message="the new device in the host's list")

    # Play from the phone's list; the host plays.
    episode = demo_episode_id(lan_server)
    play = phone.find_element(By.CSS_SELECTOR, f'button[data-action="play"][data-episode-id="{episode}"]')
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", play)
    play.click()
    wait_until(lambda: (s := state(lan_server))["episode"] and s["episode"]["id"] == episode and not s["paused"],
               message="the host to play")

    # The mini-player's play/pause drives the host.
    toggle = WebDriverWait(phone, 10).until(lambda p: p.find_element(By.CSS_SELECTOR, "#mini-player:not([hidden]) .mini-toggle"))
    toggle.click()
    wait_until(lambda: state(lan_server)["paused"], message="pause from the mini-player")
    toggle.click()
    wait_until(lambda: not state(lan_server)["paused"], message="play from the mini-player")

    # The full player: big play/pause, skip, the host's volume; then the queue.
    phone.find_element(By.CSS_SELECTOR, ".mini-open").click()
    wait_ready(phone, "player")
    big = phone.find_element(By.CSS_SELECTOR, ".transport-toggle")
    assert big.size["width"] >= 56 and big.size["height"] >= 56, big.size
    shot(phone, "lan-phone-player.png")
    big.click()
    wait_until(lambda: state(lan_server)["paused"], message="pause from the big button")
    before = state(lan_server)["position"]
    phone.find_element(By.CSS_SELECTOR, ".transport-skip[data-by]:not([data-by^='-'])").click()
    wait_until(lambda: state(lan_server)["position"] >= before + 20, message="skip forward on the host")
    big.click()
    wait_until(lambda: not state(lan_server)["paused"], message="play from the big button")
    phone.execute_script("""
        const input = document.querySelector('.volume-input');
        input.value = '40';
        input.dispatchEvent(new Event('input', {bubbles: true}));
        input.dispatchEvent(new Event('change', {bubbles: true}));
    """)
    wait_until(lambda: state(lan_server)["volume"] == 40, message="the host's volume from the phone")

    # The phone pauses its silent keepalive loop (as a phone call would): the host plays on.
    wait_until(lambda: phone.execute_script(
        "const a = document.querySelector('audio.keepalive'); return a && !a.paused && a.currentTime > 0"),
        message="the keepalive loop to play")
    phone.execute_script("document.querySelector('audio.keepalive').pause()")
    time.sleep(2)
    assert not state(lan_server)["paused"], "a pause of the phone's own loop must not pause the host"
    assert phone.execute_script("return document.querySelector('audio.keepalive').paused"), \
        "the interrupted loop is not forced back on while the host plays on"
    # An explicit action still works, and brings the loop back.
    big.click()
    wait_until(lambda: state(lan_server)["paused"], message="an explicit pause")
    big.click()
    wait_until(lambda: not state(lan_server)["paused"], message="an explicit play")
    wait_until(lambda: phone.execute_script("return !document.querySelector('audio.keepalive').paused"),
               message="the loop back after an explicit play")

    phone.get(lan_server.lan_url + "/queue")
    wait_ready(phone, "queue")
    assert phone.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scroll"


def test_phone_pairs_from_the_qr_code_and_is_cut_off_when_removed(driver, phone, net, lan_server, tmp_path):
    phone.delete_all_cookies()
    phone.get(lan_server.lan_url + "/")
    wait_ready(phone, "pairing")

    host_code(driver, lan_server, net)
    url = read_qr(driver, tmp_path / "qr.png")
    assert url.startswith(lan_server.lan_url + "/pair#s="), url

    phone.get(url)  # as the camera app would open it
    wait_ready(phone, "library", timeout=15)
    assert "#s=" not in phone.current_url
    me = phone.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/device').then((r) => r.json()).then(done, (e) => done({error: String(e)}));
    """)
    assert me["requester"] == "device" and me["device"]["name"] == "Chrome on Android", me

    # The host removes it in its Devices view: the phone is sent back to the pairing page.
    open_page(driver, lan_server, "/devices")
    row = f'.device-row[data-device-id="{me["device"]["id"]}"]'
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{row} .device-remove"))
    by_css(driver, f"{row} .device-remove").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".confirm-ok"))
    by_css(driver, ".confirm-ok").click()
    wait_ready(phone, "pairing", timeout=15)
    wait_until(lambda: not driver.find_elements(By.CSS_SELECTOR, row), message="the row to go")
