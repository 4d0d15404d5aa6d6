import FoundationEssentials

/// Where an episode starts when a listener plays it, and where a skip lands: pure decisions.
public enum ResumePoint {
    /// Closer than this to the end counts as finished (outros, ads) unless the listener chose
    /// another margin (`PlaybackSettings.playedMargin`): marked played when the listener stops
    /// there, and started again from the top.
    public static let defaultFinishedMargin: Double = 30

    /// The saved position, unless the episode was played through or the position is nonsense.
    public static func start(saved: Double, duration: Double, played: Bool,
                             margin: Double = defaultFinishedMargin) -> Double {
        guard !played, saved.isFinite, saved > 1 else { return 0 }
        return isFinished(position: saved, duration: duration, margin: margin) ? 0 : saved
    }

    /// Whether a position is as good as the end: the last `margin` seconds, but never more than
    /// the last tenth of the episode (a short clip is not "heard" half-way through).
    public static func isFinished(position: Double, duration: Double, margin: Double = defaultFinishedMargin) -> Bool {
        guard duration > 0 else { return false }
        let margin = margin.isFinite ? max(0, margin) : defaultFinishedMargin
        return position >= duration - min(margin, duration / 10)
    }

    /// A relative skip clamped to the episode (the end is left open when the duration is unknown).
    public static func skip(from position: Double, by delta: Double, duration: Double) -> Double {
        let target = max(0, position + delta)
        return duration > 0 ? min(target, max(0, duration - 0.25)) : target
    }
}
