"""Screenshots at desktop and phone size, and the phone layout's rules: no sideways scrolling,
44 px touch targets in the players, and the mini-player never covering the last row."""

from conftest import (MIN_TARGET, SCREENSHOTS, by_css, demo_episode, open_page, overflow, play_from_start,
                      set_viewport, small_targets, wait_until)
from screens import match_baseline, rewind

SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}


def small_row_links(driver):
    """Episode-title links whose tap area (what a finger at the row's text hits) is under 44 px."""
    return driver.execute_script("""
        const small = [];
        for (const link of document.querySelectorAll('.episode-list .episode-title')) {
          link.scrollIntoView({block: 'center'});  // elementFromPoint sees only the viewport
          const body = link.closest('.episode-body').getBoundingClientRect();
          if (body.height === 0) continue;
          // Probe the text block's corners: each must land on this link (the stretched ::after).
          const probes = [[body.left + 2, body.top + 2], [body.right - 2, body.bottom - 2],
                          [body.left + body.width / 2, body.top + body.height / 2]];
          const hits = probes.every(([x, y]) => {
            const el = document.elementFromPoint(x, y);
            return el && el.closest('.episode-title') === link;
          });
          if (!hits || body.height < arguments[0] - 0.5) small.push(`${link.textContent}: ${body.width}x${body.height} hits=${hits}`);
        }
        return small;
    """, MIN_TARGET)


def check_last_row_clear(driver, page):
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    last_bottom, mini_top = driver.execute_script("""
        const rows = document.querySelectorAll('.episode-list .episode');
        return [rows[rows.length - 1].getBoundingClientRect().bottom,
                document.getElementById('mini-player').getBoundingClientRect().top];""")
    assert last_bottom <= mini_top, f"{page}: last row ends at {last_bottom}, mini-player starts at {mini_top}"


def test_screenshots_and_phone_layout(own_server, driver):
    server = own_server  # a fresh library: the screenshots must not show what earlier tests left
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    episode = demo_episode(server)
    open_page(driver, server, "/")
    play_from_start(driver, server, episode)
    try:
        for size, (width, height, mobile) in SIZES.items():
            set_viewport(driver, width, height, mobile)
            phone = size == "phone"

            rewind(driver, server)  # before each page with a screenshot: the same chapter every run
            open_page(driver, server, "/")
            wait_until(lambda: by_css(driver, "#mini-player").is_displayed(), message="the mini-player")
            match_baseline(driver, f"library-{size}")
            if phone:
                scroll_width, inner = overflow(driver)
                assert scroll_width <= inner, f"library overflows sideways: {scroll_width} > {inner}"
                assert small_targets(driver, "#mini-player a, #mini-player button") == []
                assert small_targets(driver, ".episode-list button") == []
                assert small_row_links(driver) == []
                check_last_row_clear(driver, "library")
                open_page(driver, server, f"/podcast/{episode['podcastId']}")
                wait_until(lambda: len(driver.find_elements("css selector", ".episode-list .episode")) >= 3,
                           message="the podcast page's episodes")
                assert small_row_links(driver) == []
                check_last_row_clear(driver, "podcast page")

            rewind(driver, server)
            open_page(driver, server, f"/episode/{episode['id']}")
            wait_until(lambda: by_css(driver, ".episode-page h1").text == episode["title"], message="the episode page")
            match_baseline(driver, f"episode-{size}")
            if phone:
                scroll_width, inner = overflow(driver)
                assert scroll_width <= inner, f"episode page overflows sideways: {scroll_width} > {inner}"

            rewind(driver, server)
            open_page(driver, server, "/player")
            wait_until(lambda: by_css(driver, ".player-title").text == episode["title"], message="the full player")
            match_baseline(driver, f"player-{size}")
            if phone:
                scroll_width, inner = overflow(driver)
                assert scroll_width <= inner, f"player overflows sideways: {scroll_width} > {inner}"
                assert small_targets(driver, ".player a, .player button, .player select") == []
        # Dark theme at phone size, for a look.
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        for name, path in (("library", "/"), ("player", "/player")):
            rewind(driver, server)
            open_page(driver, server, path)
            match_baseline(driver, f"{name}-phone-dark")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        set_viewport(driver, 1280, 800)
    for name in ("library", "episode", "player"):
        for size in SIZES:
            assert (SCREENSHOTS / f"{name}-{size}.png").stat().st_size > 10_000
