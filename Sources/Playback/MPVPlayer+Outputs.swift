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
    /// resume or a seek is heard after Snapcast's 1 s buffer alone.
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

    /// What the snapserver's pipe takes: 48 kHz, 16-bit, stereo. mpv's buffers stay its own: a
    /// speed change is heard once the audio already made at the old speed has played out, 1.3 s
    /// after the command in the rooms (bench/rooms.py). Shorter ones (50 ms, SDL periods of 20 ms)
    /// made that 1.1 s but put a click into the rooms' sound every third of a second (test_rooms).
    static let roomsFormat = [("audio-format", "s16"), ("audio-samplerate", "48000"), ("audio-channels", "stereo")]

    /// `roomsFormat` undone, leaving the rooms: the file's own rate and channels. `audio-format`
    /// has no "automatic" to go back to while mpv runs, so 16-bit stays (a podcast's MP3 or AAC
    /// loses nothing to it).
    static let hostFormat = [("audio-samplerate", "0"), ("audio-channels", "auto-safe")]

    /// Puts `url` after the playing file in mpv's playlist: with `prefetch-playlist` mpv opens it
    /// while the current one ends and moves on to it by itself, without the engine's round trip.
    /// `start` is cleared first (an option, not per file): the appended file starts at 0.
    public func append(_ url: String) {
        setProperty("start", "none")
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
