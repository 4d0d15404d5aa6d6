import Foundation

/// Where an episode starts when a listener plays it, and where a skip lands: pure decisions.
public enum ResumePoint {
    /// Closer than this to the end counts as finished (outros, ads): marked played when the
    /// listener stops there, and started again from the top.
    public static let finishedMargin: Double = 30

    /// The saved position, unless the episode was played through or the position is nonsense.
    public static func start(saved: Double, duration: Double, played: Bool) -> Double {
        guard !played, saved.isFinite, saved > 1 else { return 0 }
        return isFinished(position: saved, duration: duration) ? 0 : saved
    }

    /// Whether a position is as good as the end: the last 30 s (the last tenth of a short one).
    public static func isFinished(position: Double, duration: Double) -> Bool {
        guard duration > 0 else { return false }
        return position >= duration - min(finishedMargin, duration / 10)
    }

    /// A relative skip clamped to the episode (the end is left open when the duration is unknown).
    public static func skip(from position: Double, by delta: Double, duration: Double) -> Double {
        let target = max(0, position + delta)
        return duration > 0 ? min(target, max(0, duration - 0.25)) : target
    }
}
