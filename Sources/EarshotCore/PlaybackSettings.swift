import FoundationEssentials

/// The listener's playback preferences: kept in the library (one settings row), changed with the
/// `settings` command, sent to every client in each `state`.
public struct PlaybackSettings: Codable, Sendable, Equatable {
    /// Seconds before the end that count as the end: stopping there marks the episode played
    /// (see `ResumePoint.isFinished`, which also caps it at the last tenth of an episode).
    public var playedMargin: Double

    /// Margins a listener may choose: from "only the very end" to the last 10 minutes.
    public static let playedMarginRange: ClosedRange<Double> = 0...600

    public init(playedMargin: Double = ResumePoint.defaultFinishedMargin) {
        self.playedMargin = playedMargin
    }

    /// A stored document with a key missing or out of range keeps that key's default: an old or
    /// hand-edited row never stops Earshot from starting.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let margin = (try? c.decodeIfPresent(Double.self, forKey: .playedMargin)) ?? nil
        playedMargin = margin.flatMap { Self.playedMarginRange.contains($0) ? $0 : nil } ?? ResumePoint.defaultFinishedMargin
    }
}
