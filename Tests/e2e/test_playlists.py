"""Named playlists from the page: make one in the Playlists view, add episodes from the row menu
and the episode page, reorder, rename, remove, play it (Up Next becomes the playlist and it
plays), delete — with a second browser following every change, and the server's state checked."""

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from conftest import (SCREENSHOTS, all_css, by_css, command, open_page, overflow, set_viewport, small_targets, tap,
                      wait_until)
from screens import match_baseline


def second_browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--autoplay-policy=no-user-gesture-required", "--window-size=1280,800"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    browser.set_script_timeout(15)
    return browser


def demo_episodes(server):
    episodes = server.get_json("/api/episodes?limit=100")["episodes"]
    demo = [e for e in episodes if e["podcast"] == "Earshot Demo"]
    assert len(demo) >= 3, [e["title"] for e in episodes]
    return demo


def server_playlists(server):
    return server.get_json("/api/playlists")["playlists"]


def server_playlist(server, name):
    return next((p for p in server_playlists(server) if p["name"] == name), None)


def wait_for_ids(server, name, expected, message):
    wait_until(lambda: (p := server_playlist(server, name)) and p["episodeIds"] == expected,
               message=f"{message}: {expected} (have {server_playlist(server, name)})")


def card_names(browser):
    return [a.text for a in all_css(browser, ".playlist-list .playlist-name")]


def item_ids(browser):
    return [int(row.get_attribute("data-episode-id")) for row in all_css(browser, ".playlist-items .playlist-item")]


def item_button(browser, episode_id, action):
    return by_css(browser, f'.playlist-item[data-episode-id="{episode_id}"] button[data-item="{action}"]')


def go_to_playlists(browser):
    tap(browser, by_css(browser, ".app-header .header-playlists"))
    wait_until(lambda: browser.current_url.endswith("/playlists")
               and browser.execute_script("return document.body.dataset.view") == "playlists", message="the playlists view")


def fill_name_dialog(browser, name):
    field = by_css(browser, "dialog.name-dialog[open] .name-input")
    field.clear()
    field.send_keys(name)
    by_css(browser, "dialog.name-dialog[open] .name-ok").click()
    wait_until(lambda: not all_css(browser, "dialog.name-dialog"), message="the name dialog to close")


def add_from_row_menu(browser, episode, playlist_name):
    """Opens the episode's row menu in the library, chooses Add to playlist… and the playlist."""
    more = by_css(browser, f'.episode-list .episode[data-episode-id="{episode["id"]}"] .more-button')
    tap(browser, more)
    wait_until(lambda: all_css(browser, ".row-menu"), message="the row menu")
    items = [i.text for i in all_css(browser, ".row-menu [role=menuitem]")]
    assert items == ["Play next", "Add to queue", "Add to playlist…"], items
    by_css(browser, '.row-menu [data-action="playlist-add"]').click()
    wait_until(lambda: all_css(browser, "dialog.picker-dialog[open][data-loaded] .picker-choice"), message="the picker's playlists")
    assert by_css(browser, "dialog.picker-dialog .picker-episode").text == episode["title"]
    choice = next(c for c in all_css(browser, ".picker-choice") if c.find_element(By.CSS_SELECTOR, ".picker-name").text == playlist_name)
    choice.click()
    wait_until(lambda: not all_css(browser, "dialog.picker-dialog"), message="the picker to close")


def test_playlists_end_to_end(own_server, driver):
    server = own_server
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    first, second, third = demo_episodes(server)[:3]
    ids = [first["id"], second["id"], third["id"]]
    open_page(driver, server, "/")
    other = second_browser()
    try:
        open_page(other, server, "/")
        go_to_playlists(other)
        wait_until(lambda: by_css(other, ".view .empty").is_displayed(), message="the empty state")

        # Make a playlist in the Playlists view; the other browser shows it at once.
        go_to_playlists(driver)
        tap(driver, by_css(driver, ".playlist-new"))
        fill_name_dialog(driver, "  Road   trip ")
        wait_until(lambda: server_playlist(server, "Road trip"), message="the playlist on the server")
        wait_until(lambda: card_names(other) == ["Road trip"], message="the second browser's list")
        wait_until(lambda: card_names(driver) == ["Road trip"], message="this browser's list")
        # A name in use (ignoring case) is refused in the dialog, which stays open to fix it.
        tap(driver, by_css(driver, ".playlist-new"))
        field = by_css(driver, "dialog.name-dialog[open] .name-input")
        field.send_keys("ROAD TRIP")
        by_css(driver, "dialog.name-dialog[open] .name-ok").click()
        wait_until(lambda: "already exists" in by_css(driver, "dialog.name-dialog .form-message").text, message="the refusal")
        by_css(driver, "dialog.name-dialog .name-cancel").click()
        assert [p["name"] for p in server_playlists(server)] == ["Road trip"]

        # Add three episodes from the library's row menus, in order.
        open_page(driver, server, "/")
        for episode in (first, second, third):
            add_from_row_menu(driver, episode, "Road trip")
        wait_for_ids(server, "Road trip", ids, "added from the row menu in order")
        wait_until(lambda: other.find_element(By.CSS_SELECTOR, ".playlist-facts").text.startswith("3 episodes"),
                   message="the count in the second browser")

        # Again: the picker shows it is already there and adding is not offered.
        tap(driver, by_css(driver, f'.episode-list .episode[data-episode-id="{first["id"]}"] .more-button'))
        by_css(driver, '.row-menu [data-action="playlist-add"]').click()
        wait_until(lambda: all_css(driver, "dialog.picker-dialog[open][data-loaded] .picker-choice"), message="the picker")
        choice = by_css(driver, ".picker-choice")
        assert choice.get_attribute("aria-disabled") == "true" and "Already in it" in choice.text
        choice.click()
        assert all_css(driver, "dialog.picker-dialog[open]"), "choosing a playlist that has it does nothing"
        by_css(driver, ".picker-close").click()
        assert server_playlist(server, "Road trip")["episodeIds"] == ids

        # The second browser opens the playlist; this one reorders it.
        playlist_id = server_playlist(server, "Road trip")["id"]
        tap(other, by_css(other, f'.playlist-card[data-playlist-id="{playlist_id}"] .playlist-name'))
        wait_until(lambda: item_ids(other) == ids, message="the playlist in the second browser")
        open_page(driver, server, f"/playlist/{playlist_id}")
        wait_until(lambda: item_ids(driver) == ids, message="the playlist here")
        assert item_button(driver, first["id"], "up").get_attribute("disabled") is not None
        assert item_button(driver, third["id"], "down").get_attribute("disabled") is not None
        tap(driver, item_button(driver, first["id"], "down"))
        wait_for_ids(server, "Road trip", [second["id"], first["id"], third["id"]], "moved down")
        wait_until(lambda: item_ids(other) == [second["id"], first["id"], third["id"]], message="the move elsewhere")
        wait_until(lambda: item_ids(driver) == [second["id"], first["id"], third["id"]], message="the move here")
        tap(driver, item_button(driver, third["id"], "up"))
        order = [second["id"], third["id"], first["id"]]
        wait_for_ids(server, "Road trip", order, "moved up")
        wait_until(lambda: item_ids(other) == order, message="the second move elsewhere")
        assert [t.text for t in all_css(other, ".playlist-item .episode-title")] == [second["title"], third["title"], first["title"]]

        # Rename: the other browser's heading follows.
        tap(driver, by_css(driver, '.playlist-header-actions [data-playlist-action="rename"]'))
        assert by_css(driver, "dialog.name-dialog[open] .name-input").get_attribute("value") == "Road trip"
        fill_name_dialog(driver, "Long drive")
        wait_until(lambda: server_playlist(server, "Long drive"), message="the new name on the server")
        wait_until(lambda: by_css(other, ".playlist-header .view-title").text == "Long drive", message="the new name elsewhere")

        # Screenshots, desktop and phone, with nothing too small or overflowing.
        for size, (width, height) in {"desktop": (1280, 800), "phone": (390, 844)}.items():
            set_viewport(driver, width, height, mobile=size == "phone")
            try:
                open_page(driver, server, f"/playlist/{playlist_id}")
                wait_until(lambda: item_ids(driver) == order, message="the playlist")
                match_baseline(driver, f"playlist-{size}")
                assert small_targets(driver, ".playlist-items button, .playlist-header button, .back-link") == []
                assert overflow(driver)[0] <= overflow(driver)[1], "the playlist overflows sideways"
                go_to_playlists(driver)
                wait_until(lambda: card_names(driver) == ["Long drive"], message="the list")
                match_baseline(driver, f"playlists-{size}")
                assert small_targets(driver, ".playlist-list button, .playlists-head button, .app-header a") == []
                assert overflow(driver)[0] <= overflow(driver)[1], "the list overflows sideways"
                tap(driver, by_css(driver, ".playlist-new"))
                wait_until(lambda: all_css(driver, "dialog.name-dialog[open]"), message="the name dialog")
                match_baseline(driver, f"playlist-name-{size}")
                assert small_targets(driver, "dialog.name-dialog button, dialog.name-dialog input") == []
                by_css(driver, "dialog.name-dialog .name-cancel").click()
                open_page(driver, server, "/")
                tap(driver, by_css(driver, ".episode-list .more-button"))
                wait_until(lambda: all_css(driver, ".row-menu"), message="the row menu")
                match_baseline(driver, f"playlist-row-menu-{size}")
                assert small_targets(driver, ".row-menu button") == []
                tap(driver, by_css(driver, ".episode-list .more-button"))
                open_page(driver, server, f"/episode/{first['id']}")
                tap(driver, by_css(driver, '.episode-page [data-action="playlist-add"]'))
                wait_until(lambda: all_css(driver, "dialog.picker-dialog[open][data-loaded] .picker-choice"), message="the picker")
                match_baseline(driver, f"playlist-picker-{size}")
                assert small_targets(driver, "dialog.picker-dialog button, dialog.picker-dialog input") == []
                by_css(driver, ".picker-close").click()
            finally:
                set_viewport(driver, 1280, 800)

        # Remove one; then play: Up Next becomes the playlist and its first episode plays.
        open_page(driver, server, f"/playlist/{playlist_id}")
        wait_until(lambda: item_ids(driver) == order, message="the playlist")
        tap(driver, item_button(driver, first["id"], "remove"))
        order = [second["id"], third["id"]]
        wait_for_ids(server, "Long drive", order, "removed")
        wait_until(lambda: item_ids(other) == order, message="the removal elsewhere")
        command(driver, "queue.add", episode=first["id"])  # something else queued first: it goes
        tap(driver, by_css(driver, ".playlist-play-all"))
        wait_until(lambda: (s := server.state())["queue"] == order and (s["episode"] or {}).get("id") == second["id"]
                   and not s["paused"], message=f"the playlist to play (state {server.state()})")
        start = server.state()["position"]
        wait_until(lambda: server.state()["position"] > start + 0.5, timeout=10, message="the episode to advance")
        wait_until(lambda: "is-current" in by_css(other, f'.playlist-item[data-episode-id="{second["id"]}"]').get_attribute("class"),
                   message="the second browser to mark the playing episode")
        # A row's play button plays the playlist from that episode.
        tap(driver, item_button(driver, third["id"], "play"))
        wait_until(lambda: (s := server.state())["queue"] == order and (s["episode"] or {}).get("id") == third["id"],
                   message="the playlist from the third episode")
        command(driver, "pause")

        # A new playlist straight from the episode page's picker.
        open_page(driver, server, f"/episode/{first['id']}")
        tap(driver, by_css(driver, '.episode-page [data-action="playlist-add"]'))
        wait_until(lambda: all_css(driver, "dialog.picker-dialog[open][data-loaded] .picker-choice"), message="the picker")
        by_css(driver, "dialog.picker-dialog .name-input").send_keys("Later")
        by_css(driver, "dialog.picker-dialog .picker-create").click()
        wait_until(lambda: not all_css(driver, "dialog.picker-dialog"), message="the picker to close")
        wait_for_ids(server, "Later", [first["id"]], "the new playlist with the episode")

        # Delete (after confirming): gone here and in the other browser, whose page says so.
        open_page(driver, server, f"/playlist/{playlist_id}")
        tap(driver, by_css(driver, '.playlist-header-actions [data-playlist-action="delete"]'))
        by_css(driver, "dialog.confirm-dialog .confirm-ok").click()
        wait_until(lambda: server_playlist(server, "Long drive") is None, message="the playlist deleted")
        wait_until(lambda: driver.current_url.endswith("/playlists"), message="back to the list")
        wait_until(lambda: card_names(driver) == ["Later"], message="the list without it")
        wait_until(lambda: by_css(other, ".view-title").text == "Playlist not found", message="the other browser told")
        assert server.state()["queue"] == order, "deleting a playlist leaves Up Next alone"
    finally:
        other.quit()
