"""Measuring recorded sound, in pure Python (no numpy): levels, a tone's frequency, where sound
starts and stops, gaps; and writing test tones as WAV files.

Samples are signed 16-bit integers (an `array('h')` from `Recording.samples()`); levels are
dBFS of RMS, full scale being 32768 (a full-scale sine measures −3.01 dBFS). Digital silence
measures `SILENCE_DB` instead of −∞ so levels can be compared and printed.
"""

import math
import wave
from array import array

FULL_SCALE = 32768.0
SILENCE_DB = -120.0


# -- levels -----------------------------------------------------------------------------------

def rms_db(samples, start=0, end=None):
    """RMS level of `samples[start:end]` in dBFS (SILENCE_DB for digital silence or nothing)."""
    end = len(samples) if end is None else min(end, len(samples))
    count = end - start
    if count <= 0:
        return SILENCE_DB
    total = 0
    for value in samples[start:end]:
        total += value * value
    if total == 0:
        return SILENCE_DB
    return max(SILENCE_DB, 10 * math.log10(total / count / (FULL_SCALE * FULL_SCALE)))


def window_levels(samples, rate, window=0.01):
    """The RMS level (dBFS) of each `window`-second window, in order."""
    size = max(1, int(round(window * rate)))
    return [rms_db(samples, start, start + size) for start in range(0, len(samples) - size + 1, size)]


def sound_span(levels, threshold_db):
    """(first, last) index of a window above `threshold_db`, or None when none is."""
    loud = [i for i, level in enumerate(levels) if level > threshold_db]
    return (loud[0], loud[-1]) if loud else None


def silent_runs(levels, threshold_db, window):
    """Every run of windows at or below `threshold_db` between two louder windows, as
    (start seconds, length seconds)."""
    runs, start = [], None
    seen_sound = False
    for i, level in enumerate(levels):
        if level > threshold_db:
            if start is not None and seen_sound:
                runs.append((start * window, (i - start) * window))
            start, seen_sound = None, True
        elif start is None:
            start = i
    return runs


def quiet_runs(levels, threshold_db, window):
    """Every run of windows at or below `threshold_db` (edges included), as (start seconds,
    length seconds): in a stretch that should sound throughout, its dropouts."""
    runs, start = [], None
    for i, level in enumerate(list(levels) + [threshold_db + 1]):
        if level <= threshold_db and start is None:
            start = i
        elif level > threshold_db and start is not None:
            runs.append((round(start * window, 3), round((i - start) * window, 3)))
            start = None
    return runs


def dropouts(samples, rate, start, end, threshold_db=-60.0, window=0.01):
    """`quiet_runs` of `samples[start:end]` in 10 ms windows: where a stretch that should sound
    throughout went quiet, as (seconds from `start`, seconds)."""
    return quiet_runs(window_levels(samples[max(0, start):end], rate, window), threshold_db, window)


def median_level(samples, rate, start, end, window=0.1):
    """The median of the `window`-second levels in `samples[start:end]`: the steady level of a
    stretch, unmoved by a dropout shorter than half of it (which `dropouts` reports)."""
    levels = window_levels(samples[max(0, start):end], rate, window)
    if not levels:
        return SILENCE_DB
    ordered = sorted(levels)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


# -- frequency ----------------------------------------------------------------------------------

def zero_crossing_frequency(samples, rate, start=0, end=None):
    """The frequency (Hz) of a clean tone in `samples[start:end]`: rising zero crossings counted,
    the first and last placed between samples by linear interpolation, so a second of a tone is
    measured to a small fraction of a hertz. None when there are fewer than two crossings."""
    end = len(samples) if end is None else min(end, len(samples))
    piece = samples[start:end]
    if len(piece) < 2:
        return None
    mean = sum(piece) / len(piece)
    first = last = None
    crossings = 0
    previous = piece[0] - mean
    for i in range(1, len(piece)):
        current = piece[i] - mean
        if previous < 0 <= current:
            moment = (i - 1) + (-previous) / (current - previous)
            if first is None:
                first = moment
            last = moment
            crossings += 1
        previous = current
    if crossings < 2 or last == first:
        return None
    return (crossings - 1) * rate / (last - first)


def goertzel_power(samples, rate, frequency, start=0, end=None):
    """Mean power of `samples[start:end]` at `frequency` (Goertzel), on the scale of the mean
    square: a pure sine of amplitude A gives A²/2 whatever the window's length (when the window
    holds whole periods, near enough otherwise)."""
    end = len(samples) if end is None else min(end, len(samples))
    count = end - start
    if count <= 0:
        return 0.0
    coefficient = 2 * math.cos(2 * math.pi * frequency / rate)
    s1 = s2 = 0.0
    for value in samples[start:end]:
        s1, s2 = value + coefficient * s1 - s2, s1
    power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
    return 2 * power / (count * count)


def tone_purity(samples, rate, frequency, start=0, end=None):
    """The share (0…1) of the window's power that is at `frequency`: near 1 for a clean tone
    at that frequency, near 0 for another sound."""
    end = len(samples) if end is None else min(end, len(samples))
    count = end - start
    if count <= 0:
        return 0.0
    total = 0
    for value in samples[start:end]:
        total += value * value
    if total == 0:
        return 0.0
    return goertzel_power(samples, rate, frequency, start, end) / (total / count)


def dominant_frequency(samples, rate, start=0, end=None):
    """(frequency Hz, purity): the tone's frequency by zero crossings and how much of the
    window's power is at it, so a caller can tell "a 440 Hz tone" from "noise that crosses zero
    880 times a second"."""
    frequency = zero_crossing_frequency(samples, rate, start, end)
    if frequency is None:
        return None, 0.0
    return frequency, tone_purity(samples, rate, frequency, start, end)


# -- test tones ----------------------------------------------------------------------------------

def sine_second(frequency, rate=44100, peak_db=-12.0):
    """One second of a sine (int16 mono) at `peak_db` dBFS peak (its RMS is 3.01 dB lower). A
    whole number of hertz fits a whole number of periods in a second, so repeating it is
    seamless."""
    amplitude = FULL_SCALE * 10 ** (peak_db / 20)
    step = 2 * math.pi * frequency / rate
    return array("h", (int(round(amplitude * math.sin(step * i))) for i in range(rate)))


def write_tone(path, frequency, seconds, rate=44100, peak_db=-12.0, fade=0.005):
    """Writes a mono 16-bit WAV of `seconds` (whole) of a sine; with `fade` seconds of
    raised-cosine fade in and out so its start and end are clean edges, not clicks."""
    second = sine_second(frequency, rate, peak_db)
    body = second * int(seconds)
    ramp = int(fade * rate)
    for i in range(ramp):
        gain = 0.5 - 0.5 * math.cos(math.pi * i / ramp)
        body[i] = int(body[i] * gain)
        body[-1 - i] = int(body[-1 - i] * gain)
    return write_wav(path, body, rate)


def write_wav(path, samples, rate=44100):
    """Writes `samples` (int16 mono, an `array("h")`) as a WAV file; returns `path`."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())
    return path


def wav_duration(path):
    with wave.open(str(path), "rb") as source:
        return source.getnframes() / source.getframerate()


# -- what a test measured ----------------------------------------------------------------------

def report(test, **values):
    """Prints a test's measurements and appends them as one JSON line to
    $TEST_OUTPUT/measurements/host-sound.jsonl (TEST_OUTPUT default: test-output in the
    repository), so repeated runs can be compared."""
    import json
    import os
    import time
    from pathlib import Path
    root = Path(os.environ.get("TEST_OUTPUT") or Path(__file__).resolve().parents[2] / "test-output")
    line = json.dumps({"test": test, "at": time.strftime("%Y-%m-%dT%H:%M:%S"), **values}, default=str)
    print(f"measured {test}: {values}")
    try:
        (root / "measurements").mkdir(parents=True, exist_ok=True)
        with open(root / "measurements" / "host-sound.jsonl", "a") as out:
            out.write(line + "\n")
    except OSError:
        pass
