"""Which leveling filter (issue 18): each candidate's output loudness for the same speech and the
same tone fed in at −30 and −14 dBFS, and the CPU it takes per hour of audio. Through libmpv itself
(ctypes: the library Earshot plays with), decoding as fast as it can (ao=null, untimed), with
ffmpeg's ebur128 after the candidate measuring what comes out.

Speech: the demo's 66 s episode (espeak-ng); tone: 60 s of 440 Hz. The input level is set by a
`volume` filter first, so every candidate hears the same two shows.

Run: `python3 bench/leveling.py` (make bench). Prints a Markdown table."""

import ctypes
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEECH = ROOT / "Public/demo/audio/02-browser.mp3"

CANDIDATES = [
    ("off", ""),
    ("loudnorm (normalize)", "loudnorm=I=-16:TP=-1.5:LRA=11"),
    ("speechnorm + loudnorm (boost)", "speechnorm=e=6:r=0.0005:l=1,loudnorm=I=-14:TP=-1.5:LRA=7"),
    ("dynaudnorm", "dynaudnorm=f=250:g=15:p=0.9:m=20"),
    ("speechnorm", "speechnorm=e=12.5:r=0.0001:l=1"),
]


class MPV:
    def __init__(self):
        self.lib = ctypes.CDLL("libmpv.so.2")
        lib = self.lib
        lib.mpv_create.restype = ctypes.c_void_p
        lib.mpv_wait_event.restype = ctypes.c_void_p
        lib.mpv_wait_event.argtypes = [ctypes.c_void_p, ctypes.c_double]
        lib.mpv_get_property_string.restype = ctypes.c_void_p
        lib.mpv_get_property_string.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.mpv_free.argtypes = [ctypes.c_void_p]
        lib.mpv_set_option_string.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
        lib.mpv_initialize.argtypes = [ctypes.c_void_p]
        lib.mpv_command.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p)]
        lib.mpv_terminate_destroy.argtypes = [ctypes.c_void_p]

    def run(self, path, chain, seconds=None):
        """Plays `path` through `chain` (an af value) as fast as it can; returns the last
        af-metadata of the `meter` filter."""
        lib = self.lib
        handle = lib.mpv_create()
        options = [("vid", "no"), ("ao", "null"), ("ao-null-untimed", "yes"), ("idle", "yes"), ("config", "no"),
                   ("audio-pitch-correction", "no"), ("af", chain)]
        if seconds:
            options.append(("length", str(seconds)))
        for name, value in options:
            lib.mpv_set_option_string(handle, name.encode(), value.encode())
        lib.mpv_initialize(handle)
        args = (ctypes.c_char_p * 3)(b"loadfile", str(path).encode(), None)
        lib.mpv_command(handle, args)
        last = {}
        while True:
            event = ctypes.cast(lib.mpv_wait_event(handle, 0.05), ctypes.POINTER(ctypes.c_int)).contents.value
            raw = lib.mpv_get_property_string(handle, b"af-metadata/meter")
            if raw:
                text = ctypes.string_at(raw).decode()
                lib.mpv_free(raw)
                data = json.loads(text)
                if "lavfi.r128.I" in data:
                    last = data
            if event in (7, 1):  # end-file, shutdown
                break
        lib.mpv_terminate_destroy(handle)
        return last


def write_tone(path, seconds=60, rate=44100):
    import math
    import wave
    from array import array
    amplitude = 32767 * 10 ** (-3.01 / 20)  # 0 dBFS RMS; the volume filter sets the level
    one = array("h", (int(amplitude * math.sin(2 * math.pi * 440 * i / rate)) for i in range(rate)))
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(one.tobytes() * seconds)
    return path


def main():
    mpv = MPV()
    tone = write_tone(Path(os.environ.get("TMPDIR", "/tmp")) / "earshot-leveling-tone.wav")
    # Each source's loudness as it is, so −30 and −14 mean "that many LUFS in".
    base = {name: float(mpv.run(path, "@meter:lavfi=[ebur128=metadata=1]")["lavfi.r128.I"])
            for name, path in (("speech", SPEECH), ("tone", tone))}
    rows = []
    for label, candidate in CANDIDATES:
        outputs = {}
        cpu = 0.0
        audio_seconds = 0.0
        for name, path in (("speech", SPEECH), ("tone", tone)):
            for target in (-30, -14):
                gain = target - base[name]
                inner = f"volume={gain:.2f}dB" + (f",{candidate}" if candidate else "") + ",ebur128=metadata=1"
                before = resource.getrusage(resource.RUSAGE_SELF)
                started = time.monotonic()
                meta = mpv.run(path, f"@meter:lavfi=[{inner}]")
                after = resource.getrusage(resource.RUSAGE_SELF)
                cpu += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                audio_seconds += 66 if name == "speech" else 60
                outputs[(name, target)] = float(meta.get("lavfi.r128.I", "nan"))
                del started
        rows.append((label, outputs, cpu / audio_seconds * 3600))
    print("## Leveling: loudness out (LUFS) for shows fed in at −30 and −14 LUFS\n")
    print("| filter | speech −30 → | speech −14 → | speech apart | tone −30 → | tone −14 → | tone apart | CPU s per hour of audio |")
    print("|---|---|---|---|---|---|---|---|")
    for label, out, cpu in rows:
        s30, s14, t30, t14 = out[("speech", -30)], out[("speech", -14)], out[("tone", -30)], out[("tone", -14)]
        print(f"| {label} | {s30:.1f} | {s14:.1f} | {abs(s14 - s30):.1f} dB | {t30:.1f} | {t14:.1f} | {abs(t14 - t30):.1f} dB | {cpu:.0f} |")
    print("\nCPU includes decoding and the ebur128 meter (the `off` row is that alone).")


if __name__ == "__main__":
    sys.exit(main())
