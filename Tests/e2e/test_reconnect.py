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


def test_the_first_state_after_connecting_counts_whatever_time_messages_came_before_it(server, driver):
    """Broadcasts can reach a new socket ahead of its snapshot (the server registers the socket,
    then takes the snapshot): a `time` with the snapshot's seq, or a newer one, came first and
    once made the page drop its snapshot and show no queue (a CI run's queue view stayed empty).
    The page's own store module is fed these orders directly (a fresh instance of it)."""
    open_page(driver, server, "/")
    seen = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/core/player-state.js?ordering-test').then(({ player }) => {
          const state = (seq, queue, position) => ({ type: 'state', seq, queue, position, paused: true,
            episode: { id: queue[0], title: 't', duration: 100 }, duration: 100, rate: 1 });
          const time = (seq, position) => ({ type: 'time', seq, position, duration: 100, rate: 1, paused: true });
          const seen = [];
          const look = () => seen.push([player.state?.queue ?? null, player.state?.position ?? null]);
          // A fresh page: a time with the snapshot's seq arrives first, then the snapshot.
          player.apply(time(7, 3)); look();
          player.apply(state(7, [1, 2, 3], 2)); look();
          player.apply(time(8, 5)); look();
          player.apply(time(8, 6)); look();        // a repeat: ignored
          player.apply(state(6, [9], 0)); look();  // older: ignored
          // A reconnect (to a restarted server, lower seqs): a newer time comes before the snapshot.
          player.resetSequence();
          player.apply(time(20, 50)); look();      // before the snapshot: ignored
          player.apply(state(19, [4], 40)); look();
          player.apply(time(19, 41)); look();      // not newer than the snapshot: ignored
          player.apply(time(20, 42)); look();
          done(seen);
        });
    """)
    assert seen == [
        [None, None],
        [[1, 2, 3], 2], [[1, 2, 3], 5], [[1, 2, 3], 5], [[1, 2, 3], 5],
        [[1, 2, 3], 5], [[4], 40], [[4], 40], [[4], 42],
    ]
