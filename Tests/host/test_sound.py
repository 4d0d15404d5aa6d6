"""Earshot heard for real: the real server plays through libmpv into a private PulseAudio
(soundserver.py), a test records the sink's monitor with parec and measures what came out
(audio.py). Nothing is mocked: the tones are WAV files served over loopback HTTP as a podcast's
episodes, the speech is the bundled demo podcast.

Levels are RMS in dBFS: the test tone is a sine of −12 dBFS peak, −15.05 dBFS RMS. "Sound" is a
window above −60 dBFS (45 dB under the tone); the null sink's silence is digital zero
(reported as −120 dBFS).

Times on the recording are aligned with the test's monotonic clock through parec's chunk
arrivals (see soundserver.Recording): each sample is placed at the moment the null sink rendered
it, late by the smallest delivery delay seen (under 1 ms here). The sink renders one block (its
configured latency: 10 ms, set by the recorder's request) ahead of when a device would play it,
so where what a listener hears matters (pause) that latency is added. Latency figures are good
to about ±10 ms.

A machine that freezes (another job hogging the VM) is heard as a dropout whatever Earshot does:
soundserver watches for freezes, and failure messages name any that overlapped the measurement.
Steady levels are medians of 100 ms windows and dropouts are checked on their own, failing
unless such a freeze explains them.
"""

import math
import statistics
import time

import pytest

import audio
import hostserver
from soundserver import earshot, sound  # noqa: F401  (the private PulseAudio, Earshot playing into it)

RATE = 44100
TONE_RMS = -15.05  # a −12 dBFS-peak sine
SOUND_DB = -60.0  # above this a window holds sound
SILENT_DB = -70.0  # at or below this it is silence
SILENCE_MARK = -100.0


# -- fixtures -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tones():
    """The tone podcast's audio, written once: a long 440 Hz tone and two short tones of
    different pitch for the gapless test, served on a loopback HTTP server."""
    with hostserver.tone_podcast("Tones", [("Long tone", "long-440.wav", 440, 60),
                                           ("First tone", "first-440.wav", 440, 3),
                                           ("Second tone", "second-660.wav", 660, 3)]) as files:
        yield files


def tone_episodes(server, tones):
    """Subscribes the tone podcast; {title: episode}."""
    podcast = server.subscribe(tones.feed)
    return {episode["title"]: episode for episode in server.episodes(podcast["id"])}


def start_playing(client, episode):
    """`play` and wait until the server says it plays; returns the monotonic time of the ack."""
    sent = time.monotonic()
    client.command("play", episode=episode["id"])
    client.wait_state(lambda m: m["episode"] and m["episode"]["id"] == episode["id"] and not m["paused"]
                      and not m["buffering"], timeout=10, after=sent - 1, what=f"{episode['title']} to play")
    return sent


def level(recording, samples, start, end):
    """RMS dBFS of what was rendered between monotonic times `start` and `end`."""
    return audio.rms_db(samples, recording.index_at(start), recording.index_at(end))


def steady_level(recording, samples, start, end):
    """The median 100 ms level between monotonic times `start` and `end`: a steady level that a
    short dropout does not move (the dropouts are checked on their own)."""
    return audio.median_level(samples, RATE, recording.index_at(start), recording.index_at(end))


def check_dropouts(sound, recording, samples, start, end, what):  # noqa: F811
    """Asserts the tone sounded throughout `start`…`end` (monotonic): no 10 ms window at or
    below −60 dBFS. A dropout while the machine was seen frozen (soundserver's stall watch) is
    the machine's, not Earshot's: it is returned for the report, not failed. Returns the
    dropouts as (seconds from `start`, seconds)."""
    found = audio.dropouts(samples, RATE, recording.index_at(start), recording.index_at(end))
    stalls = sound.stalls(start, end)
    assert not found or stalls, (
        f"{what}: the sound dropped out (s from start, length s) {found} with no machine stall seen")
    return found


# -- the tests ----------------------------------------------------------------------------------

def test_demo_speech_is_audible(sound):  # noqa: F811
    server = hostserver.launch(env=sound.env, demo=True)
    try:
        podcasts = server.get_json("/api/podcasts")["podcasts"]
        demo = next((p for p in podcasts if p["title"] == "Earshot Demo"), None)
        assert demo, f"the demo podcast is subscribed at first start; podcasts: {[p['title'] for p in podcasts]}"
        first = server.episodes(demo["id"], sort="oldest")[0]
        client = server.socket()
        recording = sound.record("speakers")
        time.sleep(0.5)  # the floor: the sink with nothing playing
        sent = start_playing(client, first)
        recording.wait_until(sent + 6.5)
        samples = recording.samples()
        floor = audio.rms_db(samples, 0, recording.index_at(sent))
        levels = audio.window_levels(samples[recording.index_at(sent):], RATE, 0.1)
        begun = next((i for i, db in enumerate(levels) if db > -45), None)
        assert begun is not None and begun * 0.1 < 2.0, (
            f"no speech within 2 s of play: 100 ms levels {[round(x) for x in levels[:20]]}")
        body = levels[begun:begun + 50]  # 5 s of the episode
        median = statistics.median(body)
        loud_share = sum(db > -45 for db in body) / len(body)
        longest_quiet = max((length for _, length in audio.silent_runs(body, -45, 0.1)), default=0.0)
        spread = statistics.pstdev([db for db in body if db > -45])
        audio.report("demo_speech", floor_db=round(floor, 1), median_db=round(median, 1),
                     loud_share=round(loud_share, 2), longest_quiet_s=round(longest_quiet, 2),
                     spread_db=round(spread, 1), began_s=round(begun * 0.1, 2), episode=first["title"])
        described = (f"'{first['title']}': floor {floor:.1f} dBFS, median 100 ms level {median:.1f} dBFS, "
                     f"{loud_share:.0%} of windows above -45 dBFS, longest quiet {longest_quiet:.1f} s, "
                     f"level spread {spread:.1f} dB")
        assert median >= -35 and median >= floor + 40, "speech is not well above the floor: " + described
        assert loud_share >= 0.6 and longest_quiet < 1.0, "speech is not sustained: " + described
        assert spread >= 2.0, "a steady level, not speech: " + described
    finally:
        server.stop()


def test_double_speed_keeps_the_pitch(sound, earshot, tones):  # noqa: F811
    episodes = tone_episodes(earshot, tones)
    client = earshot.socket()
    recording = sound.record("speakers")
    start_playing(client, episodes["Long tone"])
    client.command("rate", value=2)
    client.wait_state(lambda m: m["rate"] == 2, timeout=5, what="rate 2")
    settled = time.monotonic() + 0.3
    # Reports come every 0.5 s: 4 s of them span at least 3 s of wall time, however they fall.
    end = settled + 4.0
    recording.wait_until(end)
    samples = recording.samples()
    found = []
    for second in range(3):
        start = recording.index_at(settled + second)
        frequency, purity = audio.dominant_frequency(samples, RATE, start, start + RATE)
        found.append((frequency, purity))
    reports = client.received(types=("time", "state"), after=settled, before=end)
    points = [(arrival, message["position"]) for arrival, message in reports if not message["paused"]]
    assert len(points) >= 7, f"expected a time message every 0.5 s for 4 s, got {len(points)}"
    wall = points[-1][0] - points[0][0]
    mean_t = sum(t for t, _ in points) / len(points)
    mean_p = sum(p for _, p in points) / len(points)
    slope = (sum((t - mean_t) * (p - mean_p) for t, p in points)
             / sum((t - mean_t) ** 2 for t, _ in points))
    audio.report("double_speed", frequencies_hz=[round(f or 0, 2) for f, _ in found],
                 purities=[round(p, 3) for _, p in found], media_per_wall=round(slope, 4),
                 wall_s=round(wall, 2), time_messages=len(points))
    assert wall >= 3.0, f"media time measured over {wall:.2f} s of wall time only"
    note = sound.stall_note(settled, end)
    assert abs(slope - 2.0) <= 0.1, (
        f"at rate 2 media time advanced {slope:.3f} s per second over {wall:.2f} s ({len(points)} reports){note}")
    for index, (frequency, purity) in enumerate(found):
        assert frequency is not None and purity >= 0.9 and abs(frequency - 440) <= 3, (
            f"second {index} at 2x: {frequency} Hz (purity {purity:.3f}); expected 440 ± 3 Hz, a clean tone{note}")


def test_half_volume_and_mute(sound, earshot, tones):  # noqa: F811
    """The steady level (median of 100 ms windows over 1 s) of the tone at volume 100, 50, muted,
    unmuted (still 50) and 130. mpv's `volume` is a cubic curve, gain = (volume/100)³: 50 is
    0.125, −18.06 dB; 130 is +6.84 dB. (Measured, not assumed: the assertions would fail for a
    linear curve, −6.0 dB, or for one in dB.)"""
    episodes = tone_episodes(earshot, tones)
    client = earshot.socket()
    recording = sound.record("speakers")
    start_playing(client, episodes["Long tone"])
    marks = {}
    time.sleep(0.3)
    marks["full"] = (time.monotonic(), time.monotonic() + 1.0)
    time.sleep(1.0)
    sent = {}
    for name, cmd, args in (("half", "volume", {"value": 50}), ("muted", "mute", {"on": True}),
                            ("unmuted", "mute", {"on": False}), ("loud", "volume", {"value": 130})):
        sent[name] = time.monotonic()
        client.command(cmd, **args)
        # The change is heard about 0.1 s after the command (measured below, for 50 %): the
        # level is taken from 0.6 s on, well clear of the step.
        time.sleep(0.6)
        marks[name] = (time.monotonic(), time.monotonic() + 1.0)
        time.sleep(1.0)
    recording.wait_until(marks["loud"][1])
    samples = recording.samples()
    levels = {name: steady_level(recording, samples, *span) for name, span in marks.items()}
    gaps = {name: check_dropouts(sound, recording, samples, *span, what=f"volume {name}")
            for name, span in marks.items() if name != "muted"}
    # When was 50 % heard: the first 5 ms window 9 dB under the full level after the command.
    start = recording.index_at(sent["half"])
    windows = audio.window_levels(samples[start:recording.index_at(marks["half"][0])], RATE, 0.005)
    heard = next((i * 0.005 for i, db in enumerate(windows) if db < levels["full"] - 9), None)
    client.wait_state(lambda m: m["volume"] == 130, timeout=5, what="volume 130")
    state = client.state
    expected = 60 * math.log10(0.5)  # mpv's volume is cubic: (50/100)^3
    expected_loud = 60 * math.log10(1.3)
    drop = levels["half"] - levels["full"]
    gain = levels["loud"] - levels["full"]
    audio.report("volume", **{f"{k}_db": round(v, 2) for k, v in levels.items()}, half_minus_full_db=round(drop, 2),
                 expected_db=round(expected, 2), loud_minus_full_db=round(gain, 2), expected_loud_db=round(expected_loud, 2),
                 half_heard_after_ms=None if heard is None else round(heard * 1000),
                 dropouts={k: v for k, v in gaps.items() if v}, stalls=sound.stalls(marks["full"][0], marks["loud"][1]))
    assert abs(levels["full"] - TONE_RMS) <= 1.0, f"at volume 100 the tone measures {levels['full']:.2f} dBFS, expected {TONE_RMS}"
    assert abs(drop - expected) <= 1.5, (
        f"volume 50 measures {drop:.2f} dB against volume 100 ({levels['half']:.2f} vs {levels['full']:.2f} dBFS); "
        f"mpv's cubic volume gives {expected:.2f} dB")
    assert levels["muted"] <= SILENT_DB, f"muted, the sink still measures {levels['muted']:.1f} dBFS"
    assert abs(levels["unmuted"] - levels["half"]) <= 0.5, (
        f"unmuted, the level is {levels['unmuted']:.2f} dBFS, not the 50 % level {levels['half']:.2f} (mute keeps the volume)")
    assert abs(gain - expected_loud) <= 1.5, (
        f"volume 130 measures {gain:+.2f} dB against volume 100; mpv's cubic volume gives {expected_loud:+.2f} dB")
    assert state["volume"] == 130 and state["muted"] is False, f"state after: volume {state['volume']}, muted {state['muted']}"


def test_pause_is_silent_within_200_ms(sound, earshot, tones):  # noqa: F811
    """Three times: play 1 s, send `pause`, find the last recorded sample louder than −60 dBFS
    peak. Its time on the test's clock (see the module notes) minus the moment `pause` was sent
    is when the null sink rendered the last sound; a real device would play that block for up
    to the sink's configured latency longer, so that is added before comparing with 200 ms."""
    episodes = tone_episodes(earshot, tones)
    client = earshot.socket()
    recording = sound.record("speakers")
    start_playing(client, episodes["Long tone"])
    threshold = 32768 * 10 ** (SOUND_DB / 20)
    latencies, sink_latency = [], None
    for attempt in range(3):
        if attempt:
            client.command("resume")
        time.sleep(1.0)
        sink_latency = sound.sink_latency("speakers")[1]
        _, sent = client.send("pause")
        client.wait_state(lambda m: m["paused"], timeout=5, after=sent, what="paused")
        recording.wait_until(sent + 0.8)
        samples = recording.samples()
        before = level(recording, samples, sent - 0.1, sent)
        assert before > TONE_RMS - 1, (f"pause {attempt + 1}: the tone was not playing when pause was sent "
                                       f"({before:.1f} dBFS){sound.stall_note(sent - 0.1, sent)}")
        first, end = recording.index_at(sent - 0.1), recording.index_at(sent + 0.8)
        last = max(i for i in range(first, end) if abs(samples[i]) > threshold)
        latencies.append(recording.time_of(last) - sent)
        after = audio.rms_db(samples, last + 1, end)
        assert after <= SILENT_DB, f"pause {attempt + 1}: sound again after it went quiet ({after:.1f} dBFS)"
    worst = max(latencies) + sink_latency
    audio.report("pause", last_sound_after_pause_ms=[round(x * 1000, 1) for x in latencies],
                 sink_latency_ms=round(sink_latency * 1000, 1), worst_ms=round(worst * 1000, 1),
                 clock_spread_ms=round(recording.error_bound * 1000, 1))
    assert worst <= 0.2, (
        f"the null sink rendered sound {[round(x * 1000, 1) for x in latencies]} ms after `pause` was sent "
        f"(±10 ms of clock alignment), plus its {sink_latency * 1000:.0f} ms latency: {worst * 1000:.0f} ms; "
        f"allowed 200 ms{sound.stall_note(recording.t0, time.monotonic())}")


def test_sleep_timer_fades_smoothly(sound, earshot, tones):  # noqa: F811
    """`sleep {minutes: 0.25}`: 15 s of playing, the last 10 s fading mpv's volume to silence,
    then a pause. The level of each 0.5 s window from the command on is the median of its five
    100 ms levels (so a dropout shorter than 250 ms, reported on its own, does not count as a
    fall and a rise).

    The bounds: the level may never rise by more than 1 dB from one window to the next, and
    never fall by more than 10 dB in one window while it is still above −60 dBFS (45 dB under
    the tone, plainly audible). A fade that takes mpv's volume linearly from 100 to 0 over 10 s
    falls 60·log10(v₁/v₂) dB per window, since mpv's gain is the cube of the volume: 1.3 dB at
    first, about 6 dB at −50 dBFS, 8.6 dB as it passes −60 dBFS; a step (a fade in a few coarse
    stages, a fade squeezed into 2 s, a cut to silence) falls 10 dB or more from an audible
    level. Below −60 dBFS a linear fade itself falls ever faster in dB and nothing is heard,
    so no bound applies there; what follows the pause must be silent. And the fade must use its
    time: the level first falls for good (0.5 dB, three 100 ms windows in a row) between 4.5 and
    6 s after the command, and stays above −60 dBFS until at least 12 s (a linear fade of mpv's
    volume passes −60 dBFS 8.2 s into the fade, at 13.2 s; one squeezed into half its time is
    quiet by about 10 s).
    """
    episodes = tone_episodes(earshot, tones)
    client = earshot.socket()
    recording = sound.record("speakers")
    start_playing(client, episodes["Long tone"])
    time.sleep(0.5)
    sent = time.monotonic()
    client.command("sleep", minutes=0.25)
    paused_at, paused = client.wait_state(lambda m: m["paused"], timeout=25, after=sent, what="the sleep timer to pause")
    recording.wait_until(paused_at + 1.0)
    samples = recording.samples()
    start = recording.index_at(sent)
    fine = audio.window_levels(samples[start:recording.index_at(paused_at + 1.0)], RATE, 0.1)
    levels = [statistics.median(fine[i:i + 5]) for i in range(0, len(fine) - 4, 5)]  # 0.5 s windows
    window = 0.5
    steady = levels[1:9]  # 0.5 … 4.5 s: before the fade
    before_fade = statistics.median(steady)
    fade_start = next((round(i * 0.1, 1) for i in range(10, len(fine) - 3)
                       if all(db < before_fade - 0.5 for db in fine[i:i + 3])), None)
    rises = [b - a for a, b in zip(levels, levels[1:])]
    cliffs = [(round(i * window, 1), round(a, 1), round(b, 1)) for i, (a, b) in enumerate(zip(levels, levels[1:]))
              if a > SOUND_DB and a - b > 10]
    audible_until = max((i + 1) * window for i, db in enumerate(levels) if db > SOUND_DB)
    after_pause = level(recording, samples, paused_at + 0.1, paused_at + 1.0)
    gaps = check_dropouts(sound, recording, samples, sent, sent + 12.0, what="before and in the fade")
    track = [round(x, 1) for x in levels]
    audio.report("sleep_fade", pause_after_s=round(paused_at - sent, 3), fade_start_s=fade_start,
                 largest_rise_db=round(max(rises), 2),
                 largest_audible_drop_db=round(max(a - b for a, b in zip(levels, levels[1:]) if a > SOUND_DB), 2),
                 audible_until_s=audible_until, after_pause_db=round(after_pause, 1), dropouts=gaps,
                 stalls=sound.stalls(sent, paused_at), levels=track)
    note = sound.stall_note(sent, paused_at)
    assert abs((paused_at - sent) - 15) <= 0.5, f"paused {paused_at - sent:.2f} s after `sleep 0.25`, expected 15 s{note}"
    assert paused["sleep"] is None and paused["volume"] == 100, (
        f"after the timer: sleep {paused['sleep']}, volume {paused['volume']} (the volume comes back)")
    assert all(abs(db - TONE_RMS) <= 0.5 for db in steady), f"the level moved before the fade: {track}{note}"
    assert fade_start is not None and 4.5 <= fade_start <= 6.0, (
        f"the level first fell 0.5 dB {fade_start} s after the command, the fade should begin at 5 s: {track}{note}")
    assert max(rises) <= 1.0, f"the level rose by {max(rises):.2f} dB within the fade: {track}{note}"
    assert not cliffs, f"cliffs (t, dB before, dB after) of more than 10 dB in 0.5 s while audible: {cliffs}; {track}{note}"
    assert audible_until >= 12.0, (
        f"sound above -60 dBFS ended {audible_until} s in: the fade should take its 10 s to reach silence at 15 s "
        f"(a linear fade of mpv's volume passes -60 dBFS at 13.2 s): {track}{note}")
    assert after_pause <= SILENT_DB, f"{after_pause:.1f} dBFS after the timer paused: {track}"


def test_queued_episodes_play_without_a_gap(sound, earshot, tones):  # noqa: F811
    """A 3 s 440 Hz episode, then a queued 3 s 660 Hz one. Each 10 ms window of the recording is
    quiet (≤ −50 dBFS), 440 or 660 (whichever Goertzel power is larger); the gap is the quiet
    time between the last 440 window and the first 660 window after it, and the "switch" also
    counts quiet windows in the first tone's last 0.5 s. Both must stay within 300 ms."""
    episodes = tone_episodes(earshot, tones)
    first, second = episodes["First tone"], episodes["Second tone"]
    client = earshot.socket()
    recording = sound.record("speakers")
    sent = start_playing(client, first)
    client.command("queue.add", episode=second["id"])
    client.wait_state(lambda m: m["episode"] and m["episode"]["id"] == second["id"] and not m["paused"],
                      timeout=10, after=sent, what="the second episode to play")
    recording.wait_until(time.monotonic() + 1.5)
    samples = recording.samples()
    window, size = 0.01, 441
    origin = recording.index_at(sent)
    kinds = []  # per 10 ms window: 440, 660 or None (quiet)
    for start in range(origin, len(samples) - size, size):
        if audio.rms_db(samples, start, start + size) <= -50:
            kinds.append(None)
            continue
        at440 = audio.goertzel_power(samples, RATE, 440, start, start + size)
        at660 = audio.goertzel_power(samples, RATE, 660, start, start + size)
        kinds.append(440 if at440 > at660 else 660)
    ones = [i for i, kind in enumerate(kinds) if kind == 440]
    assert ones, "the first tone (440 Hz) never sounded"
    last_first = ones[-1]
    later = [i for i, kind in enumerate(kinds) if kind == 660 and i > last_first]
    assert later, f"the second tone (660 Hz) never sounded after the first ended at {last_first * window:.2f} s"
    first_second = later[0]
    gap = (first_second - last_first - 1) * window  # silence between the two tones
    # Silence anywhere in the switch: the first tone's last 0.5 s and the gap (a stall just
    # before the end, then a few ms of the first tone, is a gap too).
    switch = sum(1 for kind in kinds[max(ones[0], last_first - 50):first_second] if kind is None) * window
    span = (last_first - ones[0] + 1) * window  # the first tone, first to last window
    heard = len(ones) * window  # how much of it sounded
    dropouts = [(round(ones[0] * window + start, 2), length) for start, length in
                audio.quiet_runs([SILENCE_MARK if kind is None else 0 for kind in kinds[ones[0]:last_first + 1]],
                                 SILENCE_MARK, window)]
    second_length = sum(1 for kind in kinds[first_second:] if kind == 660) * window
    note = sound.stall_note(sent, time.monotonic())
    audio.report("gapless", gap_ms=round(gap * 1000), switch_silence_ms=round(switch * 1000),
                 first_tone_span_s=round(span, 2), first_tone_heard_s=round(heard, 2),
                 dropouts_in_first=dropouts, second_tone_s_so_far=round(second_length, 2),
                 stalls=sound.stalls(sent, time.monotonic()))
    assert 2.8 <= heard <= 3.05, f"the 3 s first tone sounded for {heard:.2f} s (over {span:.2f} s; dropouts {dropouts}){note}"
    assert gap <= 0.3, (f"{gap * 1000:.0f} ms of silence between the end of the first episode "
                        f"({last_first * window:.2f} s in) and the start of the second ({first_second * window:.2f} s){note}")
    assert switch <= 0.3, (f"{switch * 1000:.0f} ms of silence in the switch from the first episode to the second "
                           f"(its last 0.5 s and the gap; dropouts (s, length) in the first: {dropouts}){note}")
