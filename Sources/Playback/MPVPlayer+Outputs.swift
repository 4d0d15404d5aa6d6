import CMPV
import EarshotCore

extension MPVPlayer {
    /// Plays through `name`, one of `audio-device-list`'s names ("auto": the system's choice).
    /// mpv reopens its output at once, mid-episode included.
    public func setAudioDevice(_ name: String) { setProperty("audio-device", name) }

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
