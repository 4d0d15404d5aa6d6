"""Sync in the web UI (issue 16): the host turns it on in Devices → Podcast apps (a password made
and shown once), sees what to type into the app, changes the password and turns it off; a phone's
browser completes AntennaPod's Nextcloud login on Earshot's login page."""

import base64
import json
import urllib.request

from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS, all_css, by_css, open_page, set_viewport, wait_until


def basic(server, user, password, path="/api/2/devices/{user}.json"):
    """A sync request with Basic credentials; returns its status."""
    request = urllib.request.Request(server.url + path.format(user=user), headers={
        "Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def post_form(server, path, body=""):
    request = urllib.request.Request(server.url + path, data=body.encode(), method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def shoot(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def test_turning_sync_on_shows_the_password_once_and_what_to_type(driver, own_server):
    set_viewport(driver, 1280, 800)
    open_page(driver, own_server, "/devices")
    form = wait_until(lambda: by_css(driver, ".sync-settings .sync-form"), message="the Podcast apps section")
    assert "AntennaPod" in by_css(driver, ".sync-lead").text
    form.find_element(By.CSS_SELECTOR, ".sync-user").send_keys("living-room")
    form.find_element(By.CSS_SELECTOR, ".sync-save").click()
    made = wait_until(lambda: by_css(driver, ".sync-made-password").text, message="the password made")
    assert len(made) == 23 and made.count("-") == 3, made
    assert by_css(driver, ".sync-user-name").text == "living-room"
    addresses = [e.text for e in all_css(driver, ".sync-addresses code")]
    assert addresses and all(a.startswith("http://") and a.rsplit(":", 1)[1].isdigit() for a in addresses), addresses
    assert by_css(driver, ".sync-none").is_displayed(), "no app has synced yet"
    shoot(driver, "sync-settings-on-desktop")
    # The password works; nobody can read it back later.
    assert basic(own_server, "living-room", made) == 200
    assert "password" not in own_server.get_json("/api/sync")
    # A device that synced shows in the list.
    open_page(driver, own_server, "/devices")
    wait_until(lambda: by_css(driver, ".sync-on"), message="the section, sync on")
    assert not all_css(driver, ".sync-made-password"), "shown once: not after the view is opened again"
    assert "Pixel" not in by_css(driver, ".sync-settings").text
    request = urllib.request.Request(own_server.url + "/api/2/devices/living-room/pixel_7.json", method="POST",
                                     data=json.dumps({"caption": "Pixel 7", "type": "mobile"}).encode(), headers={
                                         "Authorization": "Basic " + base64.b64encode(f"living-room:{made}".encode()).decode()})
    assert urllib.request.urlopen(request, timeout=10).status == 200
    open_page(driver, own_server, "/devices")
    row = wait_until(lambda: by_css(driver, '.sync-device[data-sync-device="pixel_7"]'), message="the synced device")
    assert "Pixel 7" in row.text and "last synced" in row.text

    # Change the password to one of the listener's own: the old one stops working.
    set_viewport(driver, 390, 844, mobile=True)
    by_css(driver, ".sync-change").click()
    by_css(driver, ".sync-form .sync-password").send_keys("our own password")
    by_css(driver, ".sync-form .sync-save").click()
    wait_until(lambda: not all_css(driver, ".sync-form"), message="the form to close")
    assert not all_css(driver, ".sync-made-password"), "a chosen password is not shown"
    shoot(driver, "sync-settings-on-phone")
    assert basic(own_server, "living-room", "our own password") == 200
    assert basic(own_server, "living-room", made) == 401

    # Turn it off (after a confirm step): the API closes.
    by_css(driver, ".sync-off").click()
    wait_until(lambda: by_css(driver, "dialog.confirm-dialog[open]"), message="the confirm step")
    by_css(driver, ".confirm-dialog .confirm-ok").click()
    wait_until(lambda: by_css(driver, ".sync-settings .sync-user"), message="the section, sync off")
    assert own_server.get_json("/api/sync")["enabled"] is False
    assert basic(own_server, "living-room", "our own password") == 401
    set_viewport(driver, 1280, 800)


def test_a_phone_completes_antennapods_nextcloud_login_on_earshots_page(driver, own_server):
    status, _ = post_form(own_server, "/index.php/login/v2")
    assert status == 503, "no flow while sync is off"
    request = urllib.request.Request(own_server.url + "/api/sync", data=json.dumps({"user": "ann", "password": "twelve chars!"}).encode(),
                                     method="PUT", headers={"Content-Type": "application/json"})
    assert urllib.request.urlopen(request, timeout=10).status == 200

    status, flow = post_form(own_server, "/index.php/login/v2")
    assert status == 200, flow
    token = flow["poll"]["token"]
    assert post_form(own_server, "/index.php/login/v2/poll", f"token={token}")[0] == 404

    set_viewport(driver, 390, 844, mobile=True)
    driver.get(flow["login"])
    wait_until(lambda: driver.execute_script("return document.body.dataset.ready === 'true'"), message="the login page")
    by_css(driver, "#sync-user").send_keys("ann")
    by_css(driver, "#sync-password").send_keys("wrong password")
    by_css(driver, ".pair-submit").click()
    wait_until(lambda: by_css(driver, ".pair-message").get_attribute("data-kind") == "error", message="the refusal")
    assert "wrong" in by_css(driver, ".pair-message").text
    password = by_css(driver, "#sync-password")
    password.clear()
    password.send_keys("twelve chars!")
    by_css(driver, ".pair-submit").click()
    wait_until(lambda: driver.execute_script("return document.body.dataset.granted === 'true'"), message="the grant")
    assert "Go back to your podcast app" in by_css(driver, ".pair-message").text
    shoot(driver, "sync-nextcloud-login-phone")

    status, granted = post_form(own_server, "/index.php/login/v2/poll", f"token={token}")
    assert status == 200 and granted["loginName"] == "ann" and granted["server"] == own_server.url, granted
    assert basic(own_server, "ann", granted["appPassword"], "/index.php/apps/gpoddersync/subscriptions?since=0") == 200
    # A used or unknown flow's page says so.
    driver.get(flow["login"].rsplit("/", 1)[0] + "/" + "0" * 64)
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "[data-expired]"), message="the expired page")
    set_viewport(driver, 1280, 800)
