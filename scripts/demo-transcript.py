#!/usr/bin/env python3
"""Writes the WebVTT transcript of one demo episode, a cue per sentence, timed from its audio.

Called by scripts/make-demo.sh once per episode, with the spoken segments it concatenated into
that episode, in order (each a WAV file as it went into the episode: espeak-ng's speech, the
leading silence cut, the pause appended — and the text it spoke):

    demo-transcript.py --voice en-us+m3 --wpm 150 OUT.vtt SEG0.wav TEXT0 [SEG1.wav TEXT1]...

No time is typed in or guessed from word counts: every cue's start and end is read off the
samples of the segment it is in.

- A segment starts where the one before ends (the episode is their concatenation), so offsets
  are the segments' exact sample counts added up.
- Inside a segment espeak-ng speaks sentence after sentence, pausing about 0.4 s after each
  (less at a comma or colon). The pauses are found in the samples (10 ms frames whose peak stays
  under -44 dBFS, runs of at least 0.12 s).
- Which pause ends which sentence: each sentence is also spoken alone (same voice and speed);
  those lengths added up say roughly where each sentence ends (within about 0.1 s over a
  paragraph), and the boundary is the measured pause whose end is nearest to that — sentence
  pauses are a second or more apart, so the choice is never close. A boundary with no pause
  within 0.6 s of where it should be stops the script: the text and the audio disagree.
- A cue runs from where its speech starts (the end of the pause before it) to where its speech
  stops (the start of the pause after it).

Python's standard library only (wave, subprocess); espeak-ng must be on PATH.
"""

import argparse
import html
import re
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

FRAME = 0.010  # seconds per analysis frame
SILENT_PEAK = 200  # a frame whose peak |sample| stays under this (of 32767, about -44 dBFS) is silent
MIN_PAUSE = 0.12  # seconds: shorter quiet stretches are inside words
MAX_MISS = 0.6  # seconds: a sentence end further than this from every pause is an error
SPEAKER = "Narrator"


def samples(path):
    """(frame rate, 16-bit mono samples) of a WAV file."""
    with wave.open(str(path), "rb") as wav:
        if wav.getsampwidth() != 2 or wav.getnchannels() != 1:
            sys.exit(f"demo-transcript: {path} is not 16-bit mono")
        rate, data = wav.getframerate(), wav.readframes(wav.getnframes())
    return rate, memoryview(data).cast("h")


def pauses(rate, pcm):
    """[(start, end)] in seconds of the quiet stretches of `pcm`, and where its speech ends."""
    step = round(rate * FRAME)
    silent = [max(map(abs, pcm[i:i + step]), default=0) < SILENT_PEAK for i in range(0, len(pcm), step)]
    runs, start = [], None
    for index, quiet in enumerate(silent + [False]):
        if quiet and start is None:
            start = index
        elif not quiet and start is not None:
            if (index - start) * FRAME >= MIN_PAUSE:
                runs.append((start * FRAME, min(index * step, len(pcm)) / rate))
            start = None
    voiced = [i for i, quiet in enumerate(silent) if not quiet]
    speech_end = (voiced[-1] + 1) * FRAME if voiced else 0.0
    return runs, min(speech_end, len(pcm) / rate)


def spoken_alone(sentence, voice, wpm, scratch):
    """Seconds espeak-ng takes to say `sentence` on its own, its closing pause included, and the
    leading silence it starts with (cut from the segments by make-demo.sh)."""
    out = scratch / "alone.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(wpm), "-w", str(out), sentence], check=True)
    rate, pcm = samples(out)
    lead = next((i for i, v in enumerate(pcm) if abs(v) >= SILENT_PEAK), 0)
    return len(pcm) / rate, lead / rate


def sentences(text):
    """The sentences of a segment's text, whitespace made single spaces."""
    flat = " ".join(text.split())
    return [s for s in re.split(r"(?<=[.?!])\s+", flat) if s]


def shown(sentence):
    """What the transcript writes for what the voice was given: letters spelled out for the
    synthesizer ("O P M L") are the word again ("OPML")."""
    return re.sub(r"\b[A-Z](?: [A-Z]\b)+", lambda m: m.group(0).replace(" ", ""), sentence)


def clock(seconds):
    millis = round(seconds * 1000)
    return f"{millis // 3_600_000:02d}:{millis // 60_000 % 60:02d}:{millis // 1000 % 60:02d}.{millis % 1000:03d}"


def segment_cues(path, text, offset, voice, wpm, scratch):
    """[(start, end, text)] of one segment, in episode seconds; (cues, the segment's length)."""
    rate, pcm = samples(path)
    runs, speech_end = pauses(rate, pcm)
    parts = sentences(text)
    expected, at, lead0 = [], 0.0, None
    for sentence in parts:
        length, lead = spoken_alone(sentence, voice, wpm, scratch)
        if lead0 is None:
            lead0 = lead  # make-demo.sh cut the segment's leading silence: its speech starts at 0
        at += length
        expected.append(at - lead0)
    cues, start, used = [], 0.0, -1
    for index, sentence in enumerate(parts):
        if index == len(parts) - 1:
            end = speech_end
        else:
            choices = [(abs(run[1] - expected[index]), k) for k, run in enumerate(runs) if k > used]
            if not choices or min(choices)[0] > MAX_MISS:
                sys.exit(f"demo-transcript: {path}: no pause near {expected[index]:.2f} s after {sentence!r}")
            used = min(choices)[1]
            end = runs[used][0]
        cues.append((offset + start, offset + end, shown(sentence)))
        if index < len(parts) - 1:
            start = runs[used][1]
    return cues, len(pcm) / rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--voice", required=True)
    parser.add_argument("--wpm", required=True, type=int)
    parser.add_argument("out")
    parser.add_argument("segments", nargs="+", help="WAV TEXT pairs, in the episode's order")
    args = parser.parse_args()
    if len(args.segments) % 2:
        sys.exit("demo-transcript: segments come in WAV TEXT pairs")
    cues, offset = [], 0.0
    with tempfile.TemporaryDirectory() as scratch:
        for path, text in zip(args.segments[0::2], args.segments[1::2]):
            found, length = segment_cues(Path(path), text, offset, args.voice, args.wpm, Path(scratch))
            cues += found
            offset += length
    lines = ["WEBVTT", ""]
    for number, (start, end, text) in enumerate(cues, 1):
        voice = f"<v {SPEAKER}>" if number == 1 else ""  # the speaker, once: later cues keep it
        lines += [str(number), f"{clock(start)} --> {clock(end)}", voice + html.escape(text, quote=False), ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
