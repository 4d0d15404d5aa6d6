import FoundationEssentials

/// Listening moves between the speakers and a phone's own player (`handoff.*` commands).
public enum HandoffCommand: Sendable, Equatable {
    /// The phone takes the episode: the speakers pause (whatever they play) and the position is saved.
    case take(episode: Int64)
    /// Where the phone is in the episode (every few seconds, and when it pauses or ends).
    case position(episode: Int64, at: Double)
    /// The speakers take it back at the phone's position and play.
    case give(episode: Int64, at: Double)

    /// A reported position: seconds, not negative (NaN and infinities refused).
    static func position(_ value: Double) throws(CommandError) -> Double {
        guard value.isFinite, value >= 0 else { throw CommandError("\"position\" must be seconds ≥ 0") }
        return value
    }
}
