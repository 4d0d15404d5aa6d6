"""Subscriptions from the UI: unsubscribing (with its confirm step, by mouse and by keyboard) while a
second client watches, and OPML import (a file picker) and export (a download link)."""

import xml.etree.ElementTree as ET
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import all_css, by_css, open_page, tap, wait_until
from feeds import simple_feed


def tile_selector(podcast):
    return f'.podcast-tile[href="/podcast/{podcast["id"]}"]'


def dialog_open(driver):
    return driver.execute_script("return !!document.querySelector('dialog.confirm-dialog[open]')")


def press(driver, key):
    ActionChains(driver).send_keys(key).perform()


def test_unsubscribe_asks_first_and_every_client_follows(server, driver, feed_server):
    audio = feed_server.put_audio("/unsubscribe/audio.mp3")
    url = feed_server.put("/unsubscribe/feed.xml", simple_feed("Leaving Soon", audio))
    podcast = server.subscribe(url)

    # The second client: the library in its own tab, which must update without a reload.
    open_page(driver, server, "/")
    watcher = driver.current_window_handle
    wait_until(lambda: all_css(driver, tile_selector(podcast)), message="the tile in the watching tab")
    driver.execute_script("window.__sameDocument = true")

    driver.switch_to.new_window("tab")
    actor = driver.current_window_handle
    try:
        open_page(driver, server, f"/podcast/{podcast['id']}")
        button = wait_until(lambda: by_css(driver, ".podcast-unsubscribe"), message="the Unsubscribe button")

        # Esc, Cancel and a tap outside all back out; focus returns to the button.
        tap(driver, button)
        wait_until(lambda: dialog_open(driver), message="the confirm step")
        assert driver.switch_to.active_element.text == "Cancel", "the safe answer should have focus"
        press(driver, Keys.ESCAPE)
        wait_until(lambda: not dialog_open(driver), message="Esc to close the confirm step")
        assert "podcast-unsubscribe" in driver.switch_to.active_element.get_attribute("class")
        tap(driver, by_css(driver, ".podcast-unsubscribe"))
        wait_until(lambda: dialog_open(driver), message="the confirm step again")
        by_css(driver, ".confirm-cancel").click()
        wait_until(lambda: not dialog_open(driver), message="Cancel to close it")
        tap(driver, by_css(driver, ".podcast-unsubscribe"))
        wait_until(lambda: dialog_open(driver), message="the confirm step once more")
        for kind in ("mousePressed", "mouseReleased"):  # a tap on the backdrop, far from the box
            driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": 4, "y": 300, "button": "left", "clickCount": 1})
        wait_until(lambda: not dialog_open(driver), message="a tap outside to close it")
        assert server.podcast_by_feed(url) is not None, "backing out must not unsubscribe"

        # By keyboard alone: Enter on the button, Tab to the confirming answer, Enter.
        driver.execute_script("document.querySelector('.podcast-unsubscribe').focus()")
        press(driver, Keys.ENTER)
        wait_until(lambda: dialog_open(driver), message="Enter to open the confirm step")
        press(driver, Keys.TAB)
        assert driver.switch_to.active_element.text == "Unsubscribe"
        press(driver, Keys.ENTER)

        wait_until(lambda: driver.current_url.rstrip("/") == server.url, message="back to the library")
        wait_until(lambda: not all_css(driver, tile_selector(podcast)), message="the tile to go")
        assert server.podcast_by_feed(url) is None
        titles = [e["title"] for e in server.get_json("/api/episodes?limit=500")["episodes"]]
        assert not any(t.startswith("Leaving Soon") for t in titles), titles
    finally:
        driver.close()
        driver.switch_to.window(watcher)

    wait_until(lambda: not all_css(driver, tile_selector(podcast)), message="the other client's library to update")
    assert driver.execute_script("return window.__sameDocument") is True, "the other client reloaded instead of updating"
    assert actor not in driver.window_handles


def test_opml_import_reports_each_feed_and_export_downloads_the_subscriptions(server, driver, feed_server, tmp_path):
    audio = feed_server.put_audio("/opml/audio.mp3")
    good = [feed_server.put(f"/opml/good-{n}.xml", simple_feed(f"Imported Show {n}", audio)) for n in (1, 2)]
    dead = "http://127.0.0.1:9/dead-feed.xml"  # nothing listens on the discard port
    opml = tmp_path / "from-another-app.opml"
    opml.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<opml version="1.0">
  <head><title>Another app</title></head>
  <body>
    <outline text="Podcasts">
      <outline type="rss" text="One" xmlUrl="{good[0]}"/>
      <outline text="Nested">
        <outline type="rss" text="Two" xmlUrl="{good[1]}"/>
      </outline>
    </outline>
    <outline type="rss" text="Dead" xmlUrl="{dead}"/>
  </body>
</opml>
""", encoding="utf-8")

    open_page(driver, server, "/")
    picker = by_css(driver, ".opml-file")
    assert picker.get_attribute("type") == "file"
    picker.send_keys(str(opml))
    result = wait_until(lambda: (t := by_css(driver, ".opml-result").text) and "Importing" not in t and t,
                        timeout=60, message="the import result")
    summary = by_css(driver, ".opml-summary").text
    assert summary.startswith("Added 2") and "1 failed" in summary, result
    failures = [li.text for li in all_css(driver, ".opml-failures li")]
    assert len(failures) == 1 and failures[0].startswith(dead + ":"), failures
    for url in good:
        podcast = server.podcast_by_feed(url)
        assert podcast, f"{url} was not imported"
        wait_until(lambda: all_css(driver, tile_selector(podcast)), message=f"the tile of {url}")
    assert server.podcast_by_feed(dead) is None

    # Export: a plain download link to /api/opml.
    link = by_css(driver, ".opml-export")
    assert link.get_attribute("download") is not None
    with urllib.request.urlopen(link.get_attribute("href"), timeout=10) as response:
        assert response.status == 200
        assert response.headers.get_content_type() == "text/x-opml"
        assert "attachment" in response.headers.get("Content-Disposition", "")
        document = ET.fromstring(response.read())
    assert document.tag == "opml" and document.get("version") == "2.0"
    outlines = [o for o in document.iter("outline") if o.get("xmlUrl")]
    exported = {o.get("xmlUrl") for o in outlines}
    assert set(good) <= exported, exported
    for outline in outlines:
        assert outline.get("type") == "rss" and outline.get("text"), outline.attrib
    titles = {o.get("xmlUrl"): o.get("text") for o in outlines}
    assert titles[good[0]] == "Imported Show 1"
