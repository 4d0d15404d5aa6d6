"""The library page: server-rendered first paint, the client's episode list, the add-feed form."""

import html

from selenium.webdriver.common.by import By

from conftest import by_css, demo_episode, open_page, wait_until


def test_first_paint_contains_the_library_and_the_client_lists_the_episodes(server, driver):
    status, page = server.get("/")
    assert status == 200
    text = html.unescape(page)
    episodes = server.get_json("/api/episodes?limit=100")["episodes"]
    demo = [e for e in episodes if e["podcast"] == "Earshot Demo"]
    assert len(demo) >= 3
    for episode in demo:
        assert episode["title"] in text, f"{episode['title']!r} is not in the server-rendered page"
    assert "Earshot Demo" in text
    # The mini-player is in the template, outside the view container, so it survives navigation.
    assert page.index('id="mini-player"') > page.index("</main>")

    open_page(driver, server, "/")
    shown = wait_until(lambda: [a.text for a in driver.find_elements(By.CSS_SELECTOR, ".episode-list .episode-title")],
                       message="the episode list")
    for episode in demo:
        assert episode["title"] in shown
    assert "Earshot Demo" in [t.text for t in driver.find_elements(By.CSS_SELECTOR, ".podcast-tile-title")]
    # Each row offers a play button named after its episode.
    button = by_css(driver, f'.episode[data-episode-id="{demo[0]["id"]}"] button[data-action="play"]')
    assert button.get_attribute("aria-label") == f"Play {demo[0]['title']}"


def test_a_feed_that_cannot_be_fetched_shows_the_servers_error(server, driver):
    dead = "http://127.0.0.1:9/feed.xml"
    status, body = server.post_json("/api/subscriptions", {"url": dead})
    assert status == 502 and body["error"], (status, body)

    open_page(driver, server, "/")
    field = by_css(driver, "#feed-url")
    field.clear()
    field.send_keys(dead)
    by_css(driver, "#add-feed button[type=submit]").click()
    message = wait_until(lambda: by_css(driver, ".form-message.is-error").text, timeout=30,
                         message="the error message under the form")
    assert message == body["error"]
    # The form is usable again and kept what was typed.
    assert by_css(driver, "#add-feed button[type=submit]").is_enabled()
    assert field.get_attribute("value") == dead


def test_demo_podcast_page_lists_its_episodes(server, driver):
    episode = demo_episode(server)
    open_page(driver, server, f"/podcast/{episode['podcastId']}")
    wait_until(lambda: by_css(driver, "h1").text == "Earshot Demo", message="the podcast header")
    titles = [a.text for a in driver.find_elements(By.CSS_SELECTOR, ".episode-list .episode-title")]
    expected = server.get_json(f"/api/podcasts/{episode['podcastId']}/episodes")["episodes"]
    assert titles == [e["title"] for e in expected]
