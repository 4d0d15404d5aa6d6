"""Skip silence and leveling heard for real (issue 18): the real server plays through libmpv
into the private PulseAudio (soundserver.py) and the test records the sink.

Skip silence: an episode of three tones (2 s of 440 Hz, 3 s of 660 Hz, 3 s of 880 Hz) with pauses
of 3 s and 2 s between them, and chapters at the second and third tone. With the podcast's skip
silence "strong" it must end at least 4 s sooner than its 13 s, every tone heard whole (nothing
of what is said is lost or sped up), each chapter reached when its own tone is heard, the final
position the file's end, and the listener's speed shown as 1× throughout.

Leveling: two episodes, the same tone at −30 and at −14 dBFS, come out within 2 dB of each other
with the podcast's leveling on (and 16 dB apart with it off, measured the same way): streamed
(ffmpeg's loudnorm as they play), then downloaded (measured once, EBU R128, and played at the fixed
gain `state.levelGain` shows)."""

import json
import time

import audio
import hostserver
from soundserver import earshot, sound  # noqa: F401  (the private PulseAudio, Earshot playing into it)

RATE = 44100
SOUND_DB = -50  # a 10 ms window louder than this is sound


def tones_with_pauses():
    """(samples, tone spans as (start s, seconds, Hz)): 440 Hz 2 s, 3 s pause, 660 Hz 3 s, 2 s
    pause, 880 Hz 3 s."""
    from array import array
    silence = array("h", [0] * RATE)
    samples = (audio.sine_second(440, RATE) * 2 + silence * 3 + audio.sine_second(660, RATE) * 3
               + silence * 2 + audio.sine_second(880, RATE) * 3)
    return samples, [(0, 2, 440), (5, 3, 660), (10, 3, 880)]


def heard_runs(samples, rate, start):
    """Every stretch of sound from `start` on, as (start s, seconds) relative to `start`."""
    levels = audio.window_levels(samples[start:], rate, 0.01)
    runs, begun = [], None
    for i, level in enumerate(levels + [audio.SILENCE_DB]):
        if level > SOUND_DB and begun is None:
            begun = i
        elif level <= SOUND_DB and begun is not None:
            runs.append((begun / 100, (i - begun) / 100))
            begun = None
    return runs


def test_skip_silence_plays_pauses_through(sound, earshot, tmp_path):  # noqa: F811
    samples, tones = tones_with_pauses()
    with hostserver.FileServer() as files:
        wav = audio.write_wav(tmp_path / "pauses.wav", samples, RATE)
        chapters = files.put("/chapters.json", json.dumps({"version": "1.2.0", "chapters": [
            {"startTime": 0, "title": "First"}, {"startTime": 5, "title": "Second"}, {"startTime": 10, "title": "Third"}]}),
            "application/json+chapters")
        feed = hostserver.tone_feed(files, "Pauses", [("With pauses", files.put_file("/pauses.wav", wav), 13, chapters)])
        podcast = earshot.subscribe(feed)
        episode = earshot.episodes(podcast["id"])[0]
        client = earshot.socket()
        client.command("podcast.settings", podcast=podcast["id"], skipSilence="strong")
        _, state = client.wait_state(lambda m: m["settings"]["podcasts"].get(str(podcast["id"]), {}).get("skipSilence") == "strong",
                                     what="the podcast's skip silence to show")
        recording = sound.record("speakers")
        time.sleep(0.3)
        sent = time.monotonic()
        client.command("play", episode=episode["id"])
        client.wait_state(lambda m: m["episode"] and m["episode"]["id"] == episode["id"] and len(m["chapters"]) == 3,
                          timeout=10, what="the episode with its three chapters")
        ended_at, ended = client.wait_state(lambda m: m["episode"] and m["episode"]["id"] == episode["id"] and m["paused"]
                                            and m["position"] > 12, timeout=20, what="the episode to end")
        recording.wait_until(ended_at + 0.3)
        recorded = recording.samples()
        start = recording.index_at(sent)
        runs = heard_runs(recorded, RATE, start)
        # Chapter changes as clients saw them, from the first chapter on: (arrival, index, position).
        changes, last = [], 0
        for arrival, message in client.received(types=("state",), after=sent):
            if message["episode"] and message["chapter"] > 0 and message["chapter"] != last:
                changes.append((arrival, message["chapter"], message["position"]))
                last = message["chapter"]
        rates = {message["rate"] for _, message in client.received(after=sent)}
        audio.report("skip_silence", runs=runs, chapter_changes=[(round(a - sent, 2), i, round(p, 2)) for a, i, p in changes],
                     final=ended["position"], duration=ended["duration"], rates=sorted(rates))
        assert len(runs) == 3, f"heard {len(runs)} stretches of sound, not the three tones: {runs}"
        for (begun, length), (_, seconds, hertz) in zip(runs, tones):
            assert abs(length - seconds) <= 0.08, f"the {hertz} Hz tone was heard for {length} s, not {seconds} s: {runs}"
            at = start + int((begun + 0.05) * RATE)
            frequency, purity = audio.dominant_frequency(recorded, RATE, at, at + RATE // 10)
            assert frequency is not None and abs(frequency - hertz) < 5 and purity > 0.9, (
                f"the stretch at {begun} s began with {frequency} Hz (purity {purity:.3f}), not {hertz} Hz")
        pauses = [runs[1][0] - (runs[0][0] + runs[0][1]), runs[2][0] - (runs[1][0] + runs[1][1])]
        total = runs[2][0] + runs[2][1] - runs[0][0]
        assert total <= 13 - 4, f"the episode took {total:.2f} s, not at least 4 s less than 13 (pauses heard: {pauses})"
        assert all(0.1 <= pause <= 0.8 for pause in pauses), f"pauses heard for {pauses} s: a breath should stay"
        # Each chapter is reached when its own tone is heard: the state said so at most 0.35 s
        # from the tone's first sound, at a position of the file's chapter start.
        for (arrival, index, position), (begun, _), chapter_start in zip(changes, runs[1:], (5, 10)):
            heard = recording.time_of(start + int(begun * RATE))
            assert abs(arrival - heard) <= 0.35, f"chapter {index} was shown {arrival - heard:+.2f} s from its tone"
            assert chapter_start - 0.05 <= position <= chapter_start + 0.5, f"chapter {index} shown at {position} s"
        assert [index for _, index, _ in changes] == [1, 2], f"chapters went {changes}"
        assert ended["position"] == ended["duration"] and abs(ended["duration"] - 13) < 0.05, ended
        assert rates == {1}, f"the listener's speed shown was {rates}: the pauses' speed leaked out"
        stored = [e for e in earshot.episodes(podcast["id"]) if e["id"] == episode["id"]][0]
        assert stored["played"], "the episode played to its end is not marked played"


def play_level(client, recording, episode, seconds):
    """Plays `episode` and returns the median level (dBFS) of its seconds 2 to `seconds` − 1."""
    sent = time.monotonic()
    client.command("play", episode=episode)
    arrival, _ = client.wait_state(lambda m: m["episode"] and m["episode"]["id"] == episode and not m["buffering"]
                                   and not m["paused"], timeout=10, after=sent, what="the episode to play")
    recording.wait_until(arrival + seconds - 0.5)
    client.command("pause")
    samples = recording.samples()
    begin = recording.index_at(arrival)
    return audio.median_level(samples, RATE, begin + 2 * RATE, begin + (seconds - 1) * RATE)


def test_leveling_evens_two_shows(sound, earshot, tmp_path):  # noqa: F811
    with hostserver.FileServer() as files:
        shows = []
        for level in (-30, -14):
            wav = audio.write_wav(tmp_path / f"tone{-level}.wav", audio.sine_second(440, RATE, level + 3.01) * 8, RATE)
            shows.append((f"At {level} dBFS", files.put_file(f"/tone{-level}.wav", wav), 8))
        feed = hostserver.tone_feed(files, "Two levels", shows)
        podcast = earshot.subscribe(feed)
        quiet, loud = [e["id"] for e in earshot.episodes(podcast["id"])]
        client = earshot.socket()
        recording = sound.record("speakers")
        # A steady tone at a fixed gain is steady from its first seconds; loudnorm's measure (a 3 s
        # window) settles first, so only the plays through it are measured longer.
        off = [play_level(client, recording, quiet, 5), play_level(client, recording, loud, 5)]
        client.command("podcast.settings", podcast=podcast["id"], leveling="normalize")
        client.command("seek", to=0)
        on_loud = play_level(client, recording, loud, 7)
        client.command("play", episode=quiet)
        client.command("seek", to=0)
        on_quiet = play_level(client, recording, quiet, 7)
        assert abs(off[1] - off[0] - 16) < 1, f"without leveling the shows measured {off}: not 16 dB apart"
        assert abs(on_loud - on_quiet) <= 2, f"with leveling the shows measured {on_quiet:.1f} and {on_loud:.1f} dBFS"

        # Downloaded: measured after they land, then played at a fixed gain.
        client.command("pause")
        for episode in (quiet, loud):
            client.command("download", episode=episode)
        gains = {}
        for episode in (quiet, loud):
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                client.command("stop")
                client.command("play", episode=episode)
                client.command("pause")
                gains[episode] = earshot.state()["levelGain"]
                if gains[episode] is not None:
                    break
                time.sleep(0.3)
            assert gains.get(episode) is not None, f"episode {episode} was never played at a measured gain: {earshot.state()}"
        client.command("seek", to=0)
        fixed_loud = play_level(client, recording, loud, 5)
        client.command("play", episode=quiet)
        client.command("seek", to=0)
        fixed_quiet = play_level(client, recording, quiet, 5)
        audio.report("leveling", off=[round(x, 2) for x in off], on=[round(on_quiet, 2), round(on_loud, 2)],
                     gains=[gains[quiet], gains[loud]], downloaded=[round(fixed_quiet, 2), round(fixed_loud, 2)])
        assert abs(gains[quiet] - 14.7) < 0.6 and abs(gains[loud] - -1.3) < 0.6, f"gains {gains}: not −16 LUFS less each one's loudness"
        assert abs(fixed_loud - fixed_quiet) <= 2, f"downloaded, with leveling the shows measured {fixed_quiet:.1f} and {fixed_loud:.1f} dBFS"
