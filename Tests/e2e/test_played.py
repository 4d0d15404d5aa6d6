"""Played / unplayed: the row menu's and the episode page's toggle (the `mark` command), seen in
this browser at once and after the `library` refetch; the progress bar of a part-played episode."""

from conftest import (all_css, by_css, command, demo_episode, open_page, play_from_start, small_targets, tap,
                      wait_until)


def first_demo_episode(server):
    episodes = server.get_json("/api/episodes?limit=100")["episodes"]
    demo = [e for e in episodes if e["podcast"] == "Earshot Demo"]
    assert demo, [e["title"] for e in episodes]
    return demo[0]


def api_episode(server, episode_id):
    return server.get_json(f"/api/episodes/{episode_id}")["episode"]


def row(driver, episode_id):
    return by_css(driver, f'.episodes-box .episode[data-episode-id="{episode_id}"]')


def row_played(driver, episode_id):
    return "is-played" in row(driver, episode_id).get_attribute("class").split()


def mark_from_menu(driver, episode_id, expected_label):
    """Opens the row's More menu and chooses the played toggle, which must read `expected_label`."""
    more = row(driver, episode_id).find_element("css selector", ".more-button")
    tap(driver, more)
    wait_until(lambda: more.get_attribute("aria-expanded") == "true", message="the row menu")
    item = by_css(driver, '.row-menu [data-action="mark"]')
    assert item.text == expected_label
    assert item.get_attribute("role") == "menuitemcheckbox"
    assert item.get_attribute("aria-checked") == ("true" if expected_label == "Mark as unplayed" else "false")
    assert small_targets(driver, ".row-menu button") == []
    # Remember the list now: the `library` refetch that follows the mark replaces it.
    driver.execute_script("window.__list = document.querySelector('.episodes-box .episode-list')")
    item.click()
    wait_until(lambda: not all_css(driver, ".row-menu"), message="the menu to close")


def list_refetched(driver):
    return driver.execute_script(
        "return document.querySelector('.episodes-box .episode-list') !== window.__list")


def test_row_menu_marks_played_and_unplayed(server, driver):
    episode = first_demo_episode(server)
    episode_id = episode["id"]
    open_page(driver, server, "/")
    assert command(driver, "mark", episode=episode_id, played=False)["type"] == "ack"
    wait_until(lambda: not row_played(driver, episode_id), message="the row to look unplayed")

    mark_from_menu(driver, episode_id, "Mark as played")
    wait_until(lambda: (e := api_episode(server, episode_id))["played"] is True and e["position"] == 0,
               message="the server to say played at 0 s")
    wait_until(lambda: row_played(driver, episode_id), message="the row to look played")
    wait_until(lambda: list_refetched(driver), message="the library refetch")
    assert row_played(driver, episode_id), "played after the refetch"
    assert "Played" in row(driver, episode_id).find_element("css selector", ".episode-facts").text
    assert not row(driver, episode_id).find_elements("css selector", ".episode-progress")

    # A fresh page (server-rendered first paint, then the client's lists) agrees.
    open_page(driver, server, "/")
    assert row_played(driver, episode_id)

    mark_from_menu(driver, episode_id, "Mark as unplayed")
    wait_until(lambda: api_episode(server, episode_id)["played"] is False, message="the server to say unplayed")
    wait_until(lambda: not row_played(driver, episode_id), message="the row to look unplayed")
    wait_until(lambda: list_refetched(driver), message="the library refetch")
    assert not row_played(driver, episode_id), "unplayed after the refetch"
    assert "Played" not in row(driver, episode_id).find_element("css selector", ".episode-facts").text


def test_episode_page_toggle(server, driver):
    episode = first_demo_episode(server)
    episode_id = episode["id"]
    open_page(driver, server, "/")
    assert command(driver, "mark", episode=episode_id, played=False)["type"] == "ack"
    open_page(driver, server, f"/episode/{episode_id}")
    toggle = by_css(driver, ".episode-page-actions .episode-mark")
    assert toggle.text == "Mark as played"
    assert small_targets(driver, ".episode-page-actions button") == []

    tap(driver, toggle)
    wait_until(lambda: api_episode(server, episode_id)["played"] is True, message="the server to say played")
    wait_until(lambda: toggle.text == "Mark as unplayed", message="the toggle to follow")
    wait_until(lambda: all_css(driver, ".episode-page .played-mark"), message="the Played fact")

    # Marked elsewhere (another client): the page follows the `library` message.
    assert command(driver, "mark", episode=episode_id, played=False)["type"] == "ack"
    wait_until(lambda: toggle.text == "Mark as played", message="the toggle to follow the other client")
    assert not all_css(driver, ".episode-page .played-mark")
    assert api_episode(server, episode_id)["played"] is False


def test_part_played_episode_shows_its_progress(server, driver):
    episode = demo_episode(server)
    episode_id = episode["id"]
    open_page(driver, server, "/")
    assert command(driver, "mark", episode=episode_id, played=False)["type"] == "ack"
    play_from_start(driver, server, episode)
    assert command(driver, "seek", to=20)["type"] == "ack"
    assert command(driver, "pause")["type"] == "ack"
    wait_until(lambda: (s := server.state())["paused"] and abs(s["position"] - 20) < 2, message="paused at 20 s")
    wait_until(lambda: abs(api_episode(server, episode_id)["position"] - 20) < 2, message="the position saved")
    duration = api_episode(server, episode_id)["duration"]
    assert duration > 20

    try:
        open_page(driver, server, "/")
        bar = wait_until(lambda: row(driver, episode_id).find_element("css selector", ".episode-progress"),
                         message="the progress bar")
        assert bar.get_attribute("role") == "progressbar"
        assert bar.get_attribute("aria-label") == "Listened"
        fraction = driver.execute_script("""
            const bar = arguments[0], fill = bar.querySelector('.episode-progress-fill');
            return fill.getBoundingClientRect().width / bar.getBoundingClientRect().width;
        """, bar)
        assert abs(fraction - 20 / duration) < 0.02, (fraction, 20 / duration)
        # Under the meta, inside the row's text block.
        assert driver.execute_script(
            "return arguments[0].previousElementSibling.classList.contains('episode-meta')", bar)
    finally:
        command(driver, "stop")
