/// The `Player` interface's properties for one playback state: what `Get`/`GetAll` answer and
/// what `PropertiesChanged` carries. Pure: the bridge (Sources/MPRIS/MPRISBridge.swift) builds one
/// per engine message and emits the difference.
public struct MPRISPlayer: Sendable, Equatable {
    /// Every property but `Position` (which the spec says is never signalled: clients ask for it).
    public var properties: [String: DBusValue]
    /// The position in microseconds when this was built (`MPRISClock` moves it on while playing).
    public var position: Int64
    public var trackID: String

    /// - Parameters:
    ///   - artURL: the episode's artwork as a local file (`file://…`), nil when none is on disk.
    ///   - mediaURL: the episode's enclosure address.
    public init(state: PlaybackState, artURL: String? = nil, mediaURL: String? = nil) {
        let loaded = state.episode != nil
        trackID = MPRISInterface.trackID(state.episode?.id)
        position = Self.microseconds(state.position)
        var metadata: [String: DBusValue] = ["mpris:trackid": .objectPath(trackID)]
        if let episode = state.episode {
            let duration = state.duration > 0 ? state.duration : episode.duration
            if duration > 0 { metadata["mpris:length"] = .int64(Self.microseconds(duration)) }
            metadata["xesam:title"] = .string(episode.title)
            metadata["xesam:artist"] = .strings([episode.podcast])
            metadata["xesam:album"] = .string(episode.podcast)
            if let artURL { metadata["mpris:artUrl"] = .string(artURL) }
            if let mediaURL { metadata["xesam:url"] = .string(mediaURL) }
        }
        let status = !loaded ? "Stopped" : (state.paused ? "Paused" : "Playing")
        properties = [
            "PlaybackStatus": .string(status),
            "LoopStatus": .string(Self.loopStatus(state.repeatMode)),
            "Rate": .double(state.rate),
            "MinimumRate": .double(PlaybackSpeed.range.lowerBound),
            "MaximumRate": .double(PlaybackSpeed.range.upperBound),
            "Shuffle": .bool(state.shuffle),
            "Metadata": .dictionary(metadata),
            // MPRIS's 1.0 is Earshot's 100 % (mpv's volume above 100 amplifies: up to 1.3 here).
            "Volume": .double(state.muted ? 0 : state.volume / 100),
            "CanGoNext": .bool(!state.queue.isEmpty),
            // Previous restarts the episode (or goes back in Up Next): there is always somewhere to go.
            "CanGoPrevious": .bool(loaded),
            // With nothing loaded or queued, Play plays on from the library (`MPRISCall.playOn`).
            "CanPlay": .bool(true),
            "CanPause": .bool(loaded),
            "CanSeek": .bool(loaded && (state.duration > 0 || state.episode?.duration ?? 0 > 0)),
            "CanControl": .bool(true),
        ]
    }

    /// What `Get`/`GetAll` answer: the properties with `Position` as of `position`.
    public func all(position: Int64) -> [String: DBusValue] {
        var all = properties
        all["Position"] = .int64(position)
        return all
    }

    /// The properties whose values differ from `old`'s (all of them when there was none).
    public func changes(since old: MPRISPlayer?) -> [String: DBusValue] {
        guard let old else { return properties }
        return properties.filter { old.properties[$0.key] != $0.value }
    }

    /// Repeat one is a track's loop, repeat all Up Next's ("Playlist" in MPRIS).
    public static func loopStatus(_ mode: RepeatMode) -> String {
        switch mode {
        case .off: "None"
        case .one: "Track"
        case .all: "Playlist"
        }
    }

    public static func repeatMode(_ loopStatus: String) -> RepeatMode? {
        switch loopStatus {
        case "None": .off
        case "Track": .one
        case "Playlist": .all
        default: nil
        }
    }

    public static func microseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int64((seconds * 1_000_000).rounded())
    }
}
