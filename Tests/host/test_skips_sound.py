"""A podcast's skips heard for real (issue 18): the real server plays through libmpv into the
private PulseAudio (soundserver.py) and the test records the sink. The episode is 6 s of 440 Hz
(its "intro") then 660 Hz: with the podcast's intro skip at 6 s, the first thing heard is 660 Hz,
and the position the server shows starts at 6 s."""

import time

import audio
import hostserver
from soundserver import earshot, sound  # noqa: F401  (the private PulseAudio, Earshot playing into it)

RATE = 44100
INTRO = 6


def write_intro_and_show(path, intro, rest):
    """A mono WAV: `intro` s of 440 Hz, then `rest` s of 660 Hz (whole seconds of whole-hertz
    sines join without a click)."""
    return audio.write_wav(path, audio.sine_second(440, RATE) * intro + audio.sine_second(660, RATE) * rest, RATE)


def test_intro_skip_is_never_heard(sound, earshot, tmp_path):  # noqa: F811
    with hostserver.FileServer() as files:
        wav = write_intro_and_show(tmp_path / "show.wav", INTRO, 24)
        feed = hostserver.tone_feed(files, "Intro show", [("With an intro", files.put_file("/show.wav", wav), INTRO + 24)])
        podcast = earshot.subscribe(feed)
        episode = earshot.episodes(podcast["id"])[0]
        client = earshot.socket()
        client.command("podcast.settings", podcast=podcast["id"], introSkip=INTRO)
        recording = sound.record("speakers")
        time.sleep(0.3)
        sent = time.monotonic()
        client.command("play", episode=episode["id"])
        _, state = client.wait_state(lambda m: m["episode"] and m["episode"]["id"] == episode["id"] and not m["buffering"]
                                     and not m["paused"], timeout=10, what="the episode to play")
        assert state["position"] >= INTRO, f"the server shows {state['position']} s, not past the intro"
        assert state["skipped"] and state["skipped"]["kind"] == "intro" and state["skipped"]["to"] == INTRO, state["skipped"]
        recording.wait_until(sent + 4)
        samples = recording.samples()
        levels = audio.window_levels(samples[recording.index_at(sent):], RATE, 0.01)
        begun = next((i for i, db in enumerate(levels) if db > -60), None)
        assert begun is not None, "nothing was heard"
        first = recording.index_at(sent) + begun * RATE // 100
        # From 20 ms after the first 10 ms window with sound (the onset lies somewhere in that
        # window): 660 Hz, clean, at once and for the rest of the first second. And no 440 Hz in
        # the first 200 ms (the intro's last moments would be there if the skip came late).
        start = first + RATE // 50
        frequency, purity = audio.dominant_frequency(samples, RATE, start, start + RATE // 20)
        steady = audio.tone_purity(samples, RATE, 660, start, first + RATE)
        intro = audio.tone_purity(samples, RATE, 440, first, first + RATE // 5)
        audio.report("intro_skip", began_s=round(begun / 100, 2), first_hz=round(frequency or 0, 1),
                     first_purity=round(purity, 3), second_purity_660=round(steady, 3), purity_440=round(intro, 4))
        assert frequency is not None and abs(frequency - 660) < 5 and purity > 0.9, (
            f"heard {frequency} Hz (purity {purity:.3f}) in the first 50 ms: not the show after the intro")
        assert steady > 0.9, f"the first second is not a clean 660 Hz: purity {steady:.3f}"
        assert intro < 0.05, f"440 Hz (the intro) is {intro:.3f} of the first 200 ms"
