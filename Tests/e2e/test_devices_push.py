"""The host's Devices view is pushed, not polled: a `devices` message makes it refetch when a phone
pairs, is removed, or a code opens or closes elsewhere (docs/protocol.md). While nothing changes the
page asks the server nothing."""

import time

from selenium.webdriver.common.by import By

from conftest import open_page, wait_until
from lan_net import host_call, lan_server, net, open_code, pair  # noqa: F401 (fixtures)


def device_fetches(driver):
    """How many times the page has fetched /api/devices so far."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname === '/api/devices').length")


def names(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".device-name")]


def test_the_devices_view_follows_pairing_and_removal_without_polling(driver, net, lan_server):
    open_page(driver, lan_server, "/devices")
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".devices-open"), message="the Devices view")
    wait_until(lambda: device_fetches(driver) >= 1, message="the first fetch")
    settled = device_fetches(driver)
    time.sleep(5)
    assert device_fetches(driver) == settled, "the view polls: it asked for /api/devices while nothing changed"

    # A code opened by another of the host's tabs shows here too.
    open_code(lan_server)
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".devices-code"), timeout=5, message="the code opened elsewhere")

    # A phone on the LAN pairs: its row appears within a moment, without reopening the view.
    _, device = pair(net, lan_server)
    wait_until(lambda: any(name for name in names(driver)), timeout=5, message="the new device in the list")
    assert len(driver.find_elements(By.CSS_SELECTOR, f'.device-row[data-device-id="{device}"]')) == 1

    # Removed elsewhere (another tab, or the phone unpairing itself): its row goes.
    status, _ = host_call(lan_server, "DELETE", f"/api/devices/{device}")
    assert status == 200
    wait_until(lambda: not driver.find_elements(By.CSS_SELECTOR, f'.device-row[data-device-id="{device}"]'),
               timeout=5, message="the removed device gone from the list")
