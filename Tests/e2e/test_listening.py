"""Skip silence and volume leveling from the web UI (issue 18): the player's defaults (shown on
a second client), a podcast's own choice in its Skips fold ("Default (…)" names what applies),
and mpv's filter chain following while an episode plays."""

import io
import math
import wave
from array import array

from selenium.webdriver.support.ui import Select

from conftest import SCREENSHOTS, by_css, command, open_page, overflow, set_viewport, tap, wait_until
from feeds import item, rss
from test_controls import open_player, start
from test_queue import second_browser


def quiet_tone(seconds=20, rate=44100):
    """A mono WAV of 440 Hz at −30 dBFS RMS (peak −27 dBFS)."""
    amplitude = 32767 * 10 ** (-27 / 20)
    frames = array("h", (int(amplitude * math.sin(2 * math.pi * 440 * i / rate)) for i in range(seconds * rate)))
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(frames.tobytes())
    return out.getvalue()


def settings(server):
    return server.state()["settings"]


def shot(browser, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def test_skip_silence_and_leveling_from_the_player_and_the_podcast_page(own_server, driver):
    server = own_server
    episode = start(driver, server)
    podcast = episode["podcastId"]
    other = second_browser()
    try:
        open_player(driver, server)
        silence = Select(by_css(driver, ".player .skip-silence-select"))
        leveling = Select(by_css(driver, ".player .leveling-select"))
        assert silence.first_selected_option.text == "Off" and leveling.first_selected_option.text == "Off"
        assert [o.text for o in silence.options] == ["Off", "Mild", "Medium", "Strong"]
        assert [o.text for o in leveling.options] == ["Off", "Even loudness", "Voice boost"]
        open_player(other, server)

        silence.select_by_value("strong")
        leveling.select_by_value("normalize")
        wait_until(lambda: settings(server)["skipSilence"] == "strong" and settings(server)["leveling"] == "normalize",
                   message="the server keeps the player's defaults")
        theirs = Select(by_css(other, ".player .skip-silence-select"))
        wait_until(lambda: theirs.first_selected_option.text == "Strong", message="the second client shows Strong")
        wait_until(lambda: Select(by_css(other, ".player .leveling-select")).first_selected_option.text == "Even loudness",
                   message="the second client shows Even loudness")
        shot(driver, "listening-player-desktop")
        set_viewport(driver, 390, 844, mobile=True)
        by_css(driver, ".listening-settings").location_once_scrolled_into_view
        width, inner = overflow(driver)
        assert width <= inner, f"the player overflows sideways at phone size: {width} > {inner}"
        shot(driver, "listening-player-phone")
        set_viewport(driver, 1280, 800)

        # The podcast's own: "Default (Strong)" until it has one.
        open_page(driver, server, f"/podcast/{podcast}")
        tap(driver, wait_until(lambda: by_css(driver, ".podcast-skips summary"), message="the skips fold"))
        own = Select(wait_until(lambda: by_css(driver, ".podcast-silence-select"), message="the podcast's skip silence"))
        wait_until(lambda: own.first_selected_option.text == "Default (Strong)", message="Default names the player's choice")
        own.select_by_value("off")
        wait_until(lambda: settings(server)["podcasts"].get(str(podcast), {}).get("skipSilence") == "off",
                   message="the server keeps the podcast's own skip silence")
        own_level = Select(by_css(driver, ".podcast-leveling-select"))
        own_level.select_by_value("boost")
        wait_until(lambda: settings(server)["podcasts"][str(podcast)].get("leveling") == "boost", message="the podcast's own leveling")
        wait_until(lambda: by_css(driver, ".podcast-skips .skips-summary").text == "silence off · voice boost",
                   message="the fold's summary says what is its own")
        shot(driver, "listening-podcast-desktop")
        own.select_by_value("default")
        Select(by_css(driver, ".podcast-leveling-select")).select_by_value("default")
        wait_until(lambda: str(podcast) not in settings(server)["podcasts"], message="back to the defaults: nothing of its own")
        wait_until(lambda: by_css(driver, ".podcast-skips .skips-summary").text == "Off", message="the summary says Off")
    finally:
        other.quit()


def test_a_downloaded_episode_plays_at_its_measured_gain(own_server, driver, feed_server):
    """A download is measured when it lands; with leveling on, the player shows the fixed gain it
    plays at: a 440 Hz sine at −30 dBFS RMS measures −30.7 LUFS (R128's K weighting is −0.7 dB at
    440 Hz), so +14.7 dB brings it to −16 LUFS."""
    server = own_server
    audio = feed_server.put("/leveling.wav", quiet_tone(), content_type="audio/wav")
    feed = feed_server.put("/leveling.xml", rss("Leveling", [item("Measured", "measured-1", audio)]))
    podcast = server.subscribe(feed)
    episode = server.get_json(f"/api/episodes?podcast={podcast['id']}")["episodes"][0]
    open_page(driver, server, "/")
    assert command(driver, "settings", leveling="normalize")["type"] == "ack"
    reply = command(driver, "download", episode=episode["id"])
    assert reply["type"] == "ack", reply

    def measured_gain():
        # The gain is taken when an episode loads: load it again until the measurement is in.
        command(driver, "stop")
        command(driver, "play", episode=episode["id"])
        return server.state()["levelGain"]
    gain = wait_until(measured_gain, timeout=20, interval=0.3, message="the download measured and played at its gain")
    assert abs(gain - 14.7) < 0.5, f"gain {gain}: not −16 LUFS less the tone's −30.7"
    open_player(driver, server)
    shown = wait_until(lambda: (g := by_css(driver, ".player .leveling-gain")).is_displayed() and g.text, message="the gain shown")
    assert shown == f"+{gain:.1f} dB", shown
    set_viewport(driver, 390, 844, mobile=True)
    by_css(driver, ".leveling-gain").location_once_scrolled_into_view
    shot(driver, "listening-gain-phone")
    set_viewport(driver, 1280, 800)
    assert command(driver, "settings", leveling="off")["type"] == "ack"
    wait_until(lambda: not by_css(driver, ".player .leveling-gain").is_displayed(), message="no gain shown with leveling off")
