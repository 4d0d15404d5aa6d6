import EarshotCore

/// An mpv event decoded into Swift values before the next `mpv_wait_event` (the C memory dies then).
public enum MPVEvent: Sendable, Equatable {
    case property(MPVProperty)
    case startFile
    case fileLoaded
    case endFile(MPVEndReason)
    case playbackRestart
    case seek
    /// The reply to an async command that failed (e.g. `loadfile` of a dead URL); seeks have their own.
    case commandFailed(String)
    /// mpv's reply to a `seek`: taken in (`refusal` nil: it is carried out and playback restarts
    /// after), or refused, with mpv's reason.
    case seekAnswered(refusal: String?)
    case shutdown
}

/// Why mpv stopped playing a file.
public enum MPVEndReason: Sendable, Equatable {
    case eof
    case stopped
    case error(String)
    /// A new file replaced it, or the client quit.
    case other
}

/// The observed properties, one case each: the table in `MPVPlayer+Properties.swift` maps names to these.
public enum MPVProperty: Sendable, Equatable {
    case timePosition(Double?)
    case duration(Double?)
    case paused(Bool)
    case speed(Double)
    case volume(Double)
    case muted(Bool)
    case pausedForCache(Bool)
    case seeking(Bool)
    case chapters([Chapter])
    case chapter(Int)
    /// mpv's `audio-device-list`: the host's outputs (changes when a device comes or goes).
    case audioDevices([AudioDevice])
    /// `silencedetect`'s last reports (`af-metadata/silence`): where the last pause found began
    /// and where the last one that ended ended, in seconds of the file.
    case silence(start: Double?, end: Double?)
}

/// A failure reported by libmpv, with its own words.
public struct MPVError: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var operation: String
    public var description: String { "\(operation): \(message) (mpv error \(code))" }
}
