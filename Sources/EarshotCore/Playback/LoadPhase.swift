/// Where the engine's loaded file stands with mpv: one value, so that "a seek waiting for a file
/// that is not loaded" or "positions stale while nothing is open" cannot be written.
public enum LoadPhase: Sendable, Equatable {
    /// mpv holds no file of the episode in the state (none chosen, or it ended or failed).
    case idle
    /// `loadfile` was sent and the file is not open yet; a seek asked for meanwhile waits here
    /// (mpv would refuse it now) and is sent when it opens.
    case opening(pendingSeek: Double?)
    /// The file is open. `awaitingRestart`: a seek was sent and mpv has not restarted playback
    /// yet, so the positions it reports are from before the seek.
    case open(awaitingRestart: Bool)

    /// Whether mpv holds the episode's file (opening or open).
    public var isLoaded: Bool { self != .idle }

    /// Whether the file is open (seeks go to mpv at once; the next episode may be preloaded).
    public var isOpen: Bool {
        if case .open = self { return true }
        return false
    }

    /// Whether mpv's reported positions are the episode's: the file open, and no seek on its way.
    /// Not while it opens: mpv has no position for a file before it is loaded, so one reported then
    /// is the previous file's, queued before the `loadfile` (a stop at 37 s, then a play from 0, read
    /// back as 37 s now and then).
    public var positionsAreCurrent: Bool {
        self == .open(awaitingRestart: false)
    }

    /// mpv opened the file: the phase after, and the seek to send now (the one that waited).
    public func fileOpened() -> (phase: LoadPhase, seek: Double?) {
        switch self {
        case .opening(let target?): return (.open(awaitingRestart: true), target)
        case .opening(nil): return (.open(awaitingRestart: false), nil)
        case .idle, .open: return (self, nil)
        }
    }

    /// mpv restarted playback (a load or seek finished): its positions are current again.
    public func playbackRestarted() -> LoadPhase {
        self == .open(awaitingRestart: true) ? .open(awaitingRestart: false) : self
    }

    /// The listener seeks to `target`: the phase after, and whether to send the seek to mpv now.
    /// A seek sent to an open file makes positions stale until playback restarts: mpv's reports
    /// already on their way are from before it (a "previous" at 0 s read back as 25 s once).
    public func seekRequested(_ target: Double) -> (phase: LoadPhase, sendNow: Bool) {
        switch self {
        case .idle: return (self, false)
        case .opening: return (.opening(pendingSeek: target), false)
        case .open: return (.open(awaitingRestart: true), true)
        }
    }

    /// mpv refused a command (a seek it could not make, say): no restart will follow, so its
    /// positions count again.
    public func commandRefused() -> LoadPhase {
        self == .open(awaitingRestart: true) ? .open(awaitingRestart: false) : self
    }
}
