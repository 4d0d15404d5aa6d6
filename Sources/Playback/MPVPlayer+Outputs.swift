import CMPV
import EarshotCore

extension MPVPlayer {
    /// Plays through `name`, one of `audio-device-list`'s names ("auto": the system's choice), or
    /// `SnapcastOutput.name`: the rooms. mpv reopens its output at once, mid-episode included.
    ///
    /// The rooms are SDL's "disk" audio driver writing into the file `SDL_DISKAUDIOFILE` names —
    /// a link the server points at the snapserver's pipe (earshot's main.swift sets both variables
    /// before anything starts when Snapcast is on). Measured against mpv's `ao=pcm` into the same
    /// pipe: pcm writes 1.4 s blocks holding mpv's audio lock, so a pause was heard 2.7 s later and
    /// mpv's answers stalled; SDL writes a period at a time at the pipe's pace, and a pause, a
    /// resume or a seek is heard after Snapcast's 1 s buffer and a few hundredths.
    ///
    /// The snapserver takes 48000:16:2: mpv's own output format options make it (`roomsFormat`).
    /// A lavfi filter doing the same ran short of SDL's pulls with mpv's 0.2 s of decoded audio in
    /// hand (64 frames of silence about every second in snapclient's output) and needed 1 s of it,
    /// which held a speed change back by that second; the output's own conversion needs neither.
    public func setAudioDevice(_ name: String) {
        if name == SnapcastOutput.name {
            guard !lock.withLock({ intoRooms }) else { return }
            lock.withLock { intoRooms = true }
            for (option, value) in Self.roomsFormat { setProperty(option, value) }
            setProperty("ao", "sdl")
            return
        }
        if lock.withLock({ intoRooms }) {
            lock.withLock { intoRooms = false }
            // Back to the host's own output: the one chosen at start, or mpv's own pick ("").
            setProperty("ao", audioOutput ?? "")
            for (option, value) in Self.hostFormat { setProperty(option, value) }
        }
        setProperty("audio-device", name)
    }

    /// What the snapserver's pipe takes: 48 kHz, 16-bit, stereo; and short buffers, because a
    /// speed change is heard only once the audio made at the old speed has played out: mpv's
    /// buffer (0.1 s here, 0.2 s by default), SDL's period (1024 samples, 21 ms: `sdl-buflen` is
    /// rounded up to a power of two) and the pipe (`RoomsPipeLink.pipeBytes`, 43 ms), before
    /// Snapcast's second. Measured by bench/rooms.py, release build: speed 1× → 2× heard after
    /// 1.14 s (1.36 s with mpv's own 0.26 s and SDL's 4096-sample periods). Shorter buffers made
    /// mpv run dry under load; these did only with two busy loops on both cores, at the start.
    static let roomsFormat = [("audio-format", "s16"), ("audio-samplerate", "48000"), ("audio-channels", "stereo"),
                              ("sdl-buflen", "0.02"), ("audio-buffer", "0.1")]

    /// How long (ms) SDL's disk driver sleeps after writing a period into the rooms' pipe
    /// (`SDL_DISKAUDIODELAY`, set by earshot's main.swift). SDL's own choice is the period's length
    /// rounded down (85 ms for 4096 samples of 85.3 ms), which barely keeps up with the
    /// snapserver's reading: with a little load the writer fell behind, the snapserver found the
    /// pipe empty and resynced its stream time, and both rooms heard a jump about every second
    /// (test_rooms failed 1 run in 6 on it). 12 ms for a 21 ms period runs the writer well ahead,
    /// and the pipe paces it: a full pipe blocks the write. Not much shorter: at the start, before
    /// the pipe is full, the writer pulls at 1.8× and mpv must keep up; into /dev/null (no
    /// snapserver) it plays at that speed, and 0 would spin.
    public static let roomsWriterSleep = 12

    /// `roomsFormat` undone, leaving the rooms: the file's own rate and channels, mpv's own
    /// buffer (`sdl-buflen` only concerns SDL). `audio-format`
    /// has no "automatic" to go back to while mpv runs, so 16-bit stays (a podcast's MP3 or AAC
    /// loses nothing to it).
    static let hostFormat = [("audio-samplerate", "0"), ("audio-channels", "auto-safe"), ("audio-buffer", "0.2")]

    /// Puts `url` after the playing file in mpv's playlist: with `prefetch-playlist` mpv opens it
    /// while the current one ends and moves on to it by itself, without the engine's round trip.
    /// It starts at 0: `load` gives its file's start as that file's own option, so no `start` is
    /// left set for the next one.
    public func append(_ url: String) {
        command(["loadfile", url, "append"])
    }

    /// Removes every playlist entry but the playing one (what `append` added).
    public func clearPlaylist() { command(["playlist-clear"]) }

    /// audio-device-list is an array of maps {name, description}.
    static func audioDevices(_ data: UnsafeMutableRawPointer?) -> [AudioDevice] {
        guard let node = data?.load(as: mpv_node.self), node.format == MPV_FORMAT_NODE_ARRAY,
              let list = node.u.list?.pointee else { return [] }
        var result: [AudioDevice] = []
        for i in 0..<Int(list.num) {
            let entry = list.values[i]
            guard entry.format == MPV_FORMAT_NODE_MAP, let map = entry.u.list?.pointee else { continue }
            var name = "", description = ""
            for j in 0..<Int(map.num) {
                let key = String(cString: map.keys[j]!)
                let value = map.values[j]
                guard value.format == MPV_FORMAT_STRING, let s = value.u.string else { continue }
                if key == "name" { name = String(cString: s) }
                if key == "description" { description = String(cString: s) }
            }
            if !name.isEmpty { result.append(AudioDevice(name: name, description: description.isEmpty ? name : description)) }
        }
        return result
    }
}
