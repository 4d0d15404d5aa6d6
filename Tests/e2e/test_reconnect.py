"""The socket comes back by itself when the server restarts, and the page resyncs from the
new server's snapshot (whose sequence numbers start again from the beginning)."""

import shutil
import socket
import tempfile

from conftest import by_css, command, launch, open_page, stop, wait_until


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_page_shows_reconnecting_and_resyncs_after_a_server_restart(driver):
    port, data = free_port(), tempfile.mkdtemp(prefix="earshot-e2e-restart-")
    first = launch(port, data)
    second = None
    try:
        open_page(driver, first, "/")
        episodes = first.get_json("/api/episodes?limit=100")["episodes"]
        assert command(driver, "play", episode=episodes[0]["id"])["type"] == "ack"
        wait_until(lambda: by_css(driver, "#mini-player .mini-title").text == episodes[0]["title"],
                   message="the mini-player")
        assert not by_css(driver, "#connection").is_displayed()

        stop(first.process)
        wait_until(lambda: by_css(driver, "#connection").is_displayed(), message="the reconnecting indicator")
        assert "Reconnecting" in by_css(driver, "#connection").text

        second = launch(port, data)
        wait_until(lambda: not by_css(driver, "#connection").is_displayed(), timeout=15,
                   message="the socket to reconnect")
        # The new server's state is shown, though its seq numbers are lower than the old ones.
        target = episodes[-1]
        assert command(driver, "play", episode=target["id"])["type"] == "ack"
        wait_until(lambda: by_css(driver, "#mini-player .mini-title").text == target["title"],
                   message="the page to follow the restarted server")
    finally:
        stop(first.process)
        if second:
            stop(second.process)
        shutil.rmtree(data, ignore_errors=True)
