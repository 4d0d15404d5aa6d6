/// What an MPRIS method call or property write asks of Earshot, decided from the state it
/// arrived in. Pure: the bridge carries the answer out through the same command path the web
/// UI's socket uses (`ClientCommand`), so a media key does exactly what the Play button does.
public enum MPRISCall: Sendable, Equatable {
    /// Run this command.
    case command(ClientCommand)
    /// Open a feed or media address (`OpenUri`).
    case open(String)
    /// Nothing is loaded or queued: play the unfinished episode heard last, else the newest
    /// unplayed one (a headset's Play on a quiet box should play something).
    case playOn
    /// The spec says the call has no effect here (Pause while stopped, Raise without a window, …).
    case nothing
    /// Refused with a D-Bus error carrying this message.
    case refuse(String)

    /// A method of the root or `Player` interface.
    public static func method(_ interface: String, _ name: String, _ arguments: [DBusValue], state: PlaybackState) -> MPRISCall {
        let loaded = state.episode != nil
        switch (interface, name) {
        case (MPRISInterface.root, "Raise"), (MPRISInterface.root, "Quit"):
            return .nothing // CanRaise and CanQuit are false
        case (MPRISInterface.player, "Play"):
            // A call handler's Play after its Pause resumes where it was (mpv kept the position).
            if loaded { return state.paused ? .command(.resume) : .nothing }
            return state.queue.isEmpty ? .playOn : .command(.next)
        case (MPRISInterface.player, "Pause"):
            return loaded && !state.paused ? .command(.pause) : .nothing
        case (MPRISInterface.player, "PlayPause"):
            if loaded { return .command(.toggle) }
            return state.queue.isEmpty ? .playOn : .command(.next)
        case (MPRISInterface.player, "Stop"):
            return loaded ? .command(.stop) : .nothing
        case (MPRISInterface.player, "Next"):
            return state.queue.isEmpty ? .nothing : .command(.next)
        case (MPRISInterface.player, "Previous"):
            return loaded || !state.queue.isEmpty ? .command(.previous) : .nothing
        case (MPRISInterface.player, "Seek"):
            guard let offset = arguments.first?.int64 else { return .refuse("Seek takes an offset in microseconds (x)") }
            return loaded ? .command(.skip(by: Double(offset) / 1_000_000)) : .nothing
        case (MPRISInterface.player, "SetPosition"):
            guard arguments.count == 2, let track = arguments[0].string, let position = arguments[1].int64 else {
                return .refuse("SetPosition takes a track id (o) and a position in microseconds (x)")
            }
            // The spec: a stale track id, or a position outside the track, is ignored.
            let length = state.duration > 0 ? state.duration : state.episode?.duration ?? 0
            let seconds = Double(position) / 1_000_000
            guard loaded, track == MPRISInterface.trackID(state.episode?.id), seconds >= 0,
                  length <= 0 || seconds <= length else { return .nothing }
            return .command(.seek(to: seconds))
        case (MPRISInterface.player, "OpenUri"):
            guard let uri = arguments.first?.string, !uri.isEmpty else { return .refuse("OpenUri takes an address (s)") }
            let scheme = uri.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            guard scheme == "http" || scheme == "https" else {
                return .refuse("only http and https addresses can be opened (SupportedUriSchemes), not \(uri)")
            }
            return .open(uri)
        default:
            return .refuse("no method \(interface).\(name)")
        }
    }

    /// A write to a `readwrite` property of `Player`.
    public static func set(_ property: String, _ value: DBusValue, state: PlaybackState) -> MPRISCall {
        switch property {
        case "Rate":
            guard let rate = value.double, rate.isFinite else { return .refuse("Rate is a number (d)") }
            // The spec: 0 is a pause; outside Minimum/MaximumRate is clamped (PlaybackSpeed's grid).
            if rate <= 0 { return state.episode != nil && !state.paused ? .command(.pause) : .nothing }
            return .command(.rate(PlaybackSpeed.snapped(rate)))
        case "Volume":
            guard let volume = value.double, volume.isFinite else { return .refuse("Volume is a number (d)") }
            return .command(.volume(min(max(volume, 0), 1.3) * 100))
        case "Shuffle":
            guard let on = value.bool else { return .refuse("Shuffle is a boolean (b)") }
            return .command(.shuffle(on))
        case "LoopStatus":
            guard let text = value.string, let mode = MPRISPlayer.repeatMode(text) else {
                return .refuse("LoopStatus is None, Track or Playlist")
            }
            return .command(.repeatMode(mode))
        default:
            return .refuse("\(property) cannot be set")
        }
    }
}
