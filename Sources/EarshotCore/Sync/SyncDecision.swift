import FoundationEssentials

/// What an episode action from a phone does to Earshot's library: a pure decision with property
/// tests. The newest word wins: an action older than Earshot's own last change to the episode
/// (its position or played mark) changes nothing, and neither does any action while the episode
/// is playing here (the listener is at the speakers now). Times are Unix seconds, already capped
/// by `SyncClock` (no clock in the future).
public enum SyncDecision: Sendable, Equatable {
    /// Move the episode to `position` (seconds), and mark it played or not.
    case move(position: Double, played: Bool)
    /// Leave the episode as it is, for this reason (logged at debug level, counted in tests).
    case keep(Reason)

    public enum Reason: String, Sendable, Equatable {
        /// Earshot's own change is as new or newer.
        case older
        /// The episode is playing on the speakers.
        case playingHere
        /// `download`/`delete`: stored for the other devices, nothing to do here.
        case notAboutListening
        /// The action would leave the episode as it already is.
        case same
    }

    /// The episode as the library holds it.
    public struct Local: Sendable, Equatable {
        public var position: Double
        public var played: Bool
        /// When Earshot last changed the position or the played mark (nil: never).
        public var changedAt: Double?
        /// The feed's duration (0: unknown).
        public var duration: Double
        public var playingHere: Bool

        public init(position: Double, played: Bool, changedAt: Double?, duration: Double, playingHere: Bool = false) {
            self.position = position; self.played = played; self.changedAt = changedAt; self.duration = duration
            self.playingHere = playingHere
        }
    }

    /// `action`'s effect, its time `at` (capped), with the listener's played margin.
    /// - `play`: the position moves to the action's; at or past the end (the action's `total`, else
    ///   the feed's duration, less the played margin as `ResumePoint.isFinished` counts it) the
    ///   episode is marked played (which rewinds it, as marking played here does), else unplayed.
    /// - `new`: the phone marked it new (unplayed): unplayed, from the start.
    public static func decide(_ action: EpisodeAction, at time: Double, local: Local,
                              margin: Double = ResumePoint.defaultFinishedMargin) -> SyncDecision {
        let target: (position: Double, played: Bool)
        switch action.kind {
        case .download, .delete, .flattr:
            return .keep(.notAboutListening)
        case .new:
            target = (0, false)
        case .play:
            let position = Double(action.position ?? 0)
            let total = Double(action.total ?? 0) > 0 ? Double(action.total ?? 0) : local.duration
            target = ResumePoint.isFinished(position: position, duration: total, margin: margin) ? (0, true) : (position, false)
        }
        if local.playingHere { return .keep(.playingHere) }
        if let changed = local.changedAt, changed >= time { return .keep(.older) }
        if target.played == local.played, abs(target.position - local.position) < 1 { return .keep(.same) }
        return .move(position: target.position, played: target.played)
    }
}

/// Clients' clocks: a time in the future is capped at now (a phone whose clock runs ahead must not
/// win every conflict for hours); how far it ran ahead is said so the server can log it.
public enum SyncClock {
    /// Ahead by less than this is ordinary drift, not worth a log line.
    public static let toleratedSkew: Double = 60

    /// The time to use for `claimed` (nil: the client did not say, so it is now), and by how many
    /// seconds it was ahead of `now` when it was (nil when it was not, or by less than `toleratedSkew`).
    public static func cap(_ claimed: Double?, now: Double) -> (time: Double, skew: Double?) {
        guard let claimed, claimed.isFinite else { return (now, nil) }
        guard claimed > now else { return (claimed, nil) }
        let ahead = claimed - now
        return (now, ahead >= toleratedSkew ? ahead : nil)
    }
}
