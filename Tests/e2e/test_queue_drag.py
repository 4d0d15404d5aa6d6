"""Dragging Up Next into a new order by a row's grip: with the mouse and with a finger (pointer
events, one mechanism for both), Escape putting a row back; the server's queue and a second
browser's Queue view follow."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.keys import Keys

from conftest import all_css, by_css, command, open_page, play_from_start, set_viewport, wait_until
from screens import match_baseline, rewind
from test_queue import demo_episodes, go_to_queue, queue_ids, reset, second_browser, wait_for_queue

STEPS = 8  # pointer moves per drag: the row must follow the pointer, not jump


def grip(browser, episode_id):
    return by_css(browser, f'.queue-item[data-episode-id="{episode_id}"] .queue-grip')


def offsets(browser, rows):
    """Whole-pixel moves that add up to `rows` rows (±) and a third more: a row lands where its
    middle passes the other rows' middles, as a hand overshoots a little."""
    total = round((rows + (0.35 if rows > 0 else -0.35)) * row_step(browser))
    marks = [round(total * i / STEPS) for i in range(STEPS + 1)]
    return [b - a for a, b in zip(marks, marks[1:])]


def row_step(browser):
    """Pixels from one row's top to the next one's."""
    return browser.execute_script("""
        const rows = document.querySelectorAll('.queue-list .queue-item');
        return rows[1].getBoundingClientRect().top - rows[0].getBoundingClientRect().top;
    """)


def mouse_drag(browser, episode_id, rows):
    """Holds the mouse on the row's grip, moves it `rows` rows (±) in small steps, releases."""
    chain = ActionChains(browser, duration=20).click_and_hold(grip(browser, episode_id))
    for dy in offsets(browser, rows):
        chain.move_by_offset(0, dy).pause(0.02)
    chain.release().perform()


def touch_drag(browser, episode_id, rows):
    """The same with a finger (touch pointer events), in one gesture: chromedriver does not
    carry a touch that is down into a later action sequence."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(browser, mouse=finger, duration=20)
    actions.pointer_action.move_to(grip(browser, episode_id)).pointer_down()
    for dy in offsets(browser, rows):
        actions.pointer_action.move_by(0, dy).pause(0.02)
    actions.pointer_action.pointer_up()
    actions.perform()


def test_drag_to_reorder_by_mouse_and_touch(own_server, driver):
    server = own_server  # a fresh library: the screenshots must not show what earlier tests left
    first, second, third = demo_episodes(server)[:3]
    a, b, c = first["id"], second["id"], third["id"]
    open_page(driver, server, "/")
    reset(driver)
    play_from_start(driver, server, first)
    command(driver, "queue.clear")
    for episode in (b, c):
        assert command(driver, "queue.add", episode=episode)["type"] == "ack"
    wait_for_queue(server, [a, b, c], "three queued")

    other = second_browser()
    try:
        open_page(other, server, "/")
        go_to_queue(other)
        wait_until(lambda: queue_ids(other) == [a, b, c], message="the second browser's queue")
        go_to_queue(driver)
        wait_until(lambda: queue_ids(driver) == [a, b, c], message="the queue view")
        assert grip(driver, a).get_attribute("aria-hidden") == "true", "the move buttons are the accessible way"

        # The mouse: the playing episode two rows down, to the end.
        mouse_drag(driver, a, 2)
        wait_for_queue(server, [b, c, a], "dragged to the end")
        wait_until(lambda: queue_ids(other) == [b, c, a], message="the drag in the other browser")
        wait_until(lambda: queue_ids(driver) == [b, c, a], message="the drag here")
        assert by_css(driver, "#view > p[role=status]").get_attribute("textContent") \
            == f"Moved {first['title']} to position 3"

        # A finger, on a phone-sized screen: the last row one up.
        set_viewport(driver, 390, 844, mobile=True)
        try:
            open_page(driver, server, "/")
            go_to_queue(driver)
            wait_until(lambda: queue_ids(driver) == [b, c, a], message="the queue view on a phone")
            touch_drag(driver, a, -1)
            wait_for_queue(server, [b, a, c], "dragged up by touch")
            wait_until(lambda: queue_ids(other) == [b, a, c], message="the touch drag in the other browser")
            scroll_width, inner = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
            assert scroll_width <= inner, f"the queue overflows sideways: {scroll_width} > {inner}"
        finally:
            set_viewport(driver, 1280, 800)

        # Escape puts the row back: nothing is sent.
        rewind(driver, server)  # the screenshot below shows the same chapter every run
        open_page(driver, server, "/")
        go_to_queue(driver)
        try:
            wait_until(lambda: queue_ids(driver) == [b, a, c], message="the queue view again")
        except AssertionError as error:  # say what was there instead (one clean run timed out here)
            raise AssertionError(f"{error}: the view shows {queue_ids(driver)}, the server's queue is "
                                 f"{server.state()['queue']}, expected {[b, a, c]}") from error
        ActionChains(driver).click_and_hold(grip(driver, b)).move_by_offset(0, sum(offsets(driver, 2))).perform()
        assert all_css(driver, ".queue-item.is-dragging"), "the row follows the pointer"
        match_baseline(driver, "queue-dragging")
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        ActionChains(driver).release().perform()
        assert not all_css(driver, ".queue-item.is-dragging")
        assert command(driver, "ping")["type"] == "ack"  # anything sent has been handled by now
        assert server.state()["queue"] == [b, a, c]
        assert queue_ids(driver) == [b, a, c]
        assert driver.execute_script(
            "return [...document.querySelectorAll('.queue-item')].every((row) => row.style.transform === '')")
    finally:
        other.quit()
        reset(driver)
