/// Where the engine's loaded file stands with mpv: one value, so that "a seek waiting for a file
/// that is not loaded" or "positions stale while nothing is open" cannot be written.
public enum LoadPhase: Sendable, Equatable {
    /// mpv holds no file of the episode in the state (none chosen, or it ended or failed).
    case idle
    /// `loadfile` was sent and the file is not open yet; a seek asked for meanwhile waits here
    /// (mpv would refuse it now) and is sent when it opens.
    case opening(pendingSeek: Double?)
    /// The file is open. `unanswered`: seeks sent that mpv has not answered yet; `awaitingRestart`: a
    /// seek mpv took in has not restarted playback yet. Either way the positions mpv reports are from
    /// before a seek. mpv takes a seek command in and answers it, then carries it out and restarts
    /// playback, so a restart that comes while a seek is unanswered is an earlier one's: the later
    /// one has not even begun (two quick "previous" presses: the first's restart at 25 s, then
    /// mpv's reports of 25.1 s… while the second's 0 s waited).
    case open(awaitingRestart: Bool, unanswered: Int = 0)

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
        self == .open(awaitingRestart: false, unanswered: 0)
    }

    /// mpv opened the file: the phase after, and the seek to send now (the one that waited).
    public func fileOpened() -> (phase: LoadPhase, seek: Double?) {
        switch self {
        case .opening(let target?): return (.open(awaitingRestart: false, unanswered: 1), target)
        case .opening(nil): return (.open(awaitingRestart: false), nil)
        case .idle, .open: return (self, nil)
        }
    }

    /// mpv restarted playback (a load or seek finished): the seeks it took in are carried out. Its
    /// positions are current again unless a seek sent since is still unanswered.
    public func playbackRestarted() -> LoadPhase {
        guard case .open(true, let unanswered) = self else { return self }
        return .open(awaitingRestart: false, unanswered: unanswered)
    }

    /// The listener seeks to `target`: the phase after, and whether to send the seek to mpv now.
    /// A seek sent to an open file makes positions stale until mpv has answered it and restarted
    /// playback: its reports already on their way are from before it (a "previous" at 0 s read back
    /// as 25 s once).
    public func seekRequested(_ target: Double) -> (phase: LoadPhase, sendNow: Bool) {
        switch self {
        case .idle: return (self, false)
        case .opening: return (.opening(pendingSeek: target), false)
        case .open(let awaiting, let unanswered): return (.open(awaitingRestart: awaiting, unanswered: unanswered + 1), true)
        }
    }

    /// mpv answered a seek: taken in (its restart is still to come), or refused (no restart will follow it).
    public func seekAnswered(accepted: Bool) -> LoadPhase {
        guard case .open(let awaiting, let unanswered) = self else { return self }
        return .open(awaitingRestart: awaiting || accepted, unanswered: max(0, unanswered - 1))
    }
}
