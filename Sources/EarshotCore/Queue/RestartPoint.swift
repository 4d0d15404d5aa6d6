/// Where `previous` takes the listener back to within the episode playing, when it is more than
/// `PlayQueue.restartThreshold` seconds in (the queue decides the rest).
///
/// An episode resumed deep in (40 minutes of 60) should not lose its place to one press of a
/// headset's or lock screen's "previous": the first press goes back to where this listening began —
/// the start of the chapter the resume point is in, or the resume point itself when the episode has
/// no chapters — and only a second press within `doublePressWindow` seconds goes to 0. An episode
/// started from the top (or resumed in its first seconds) restarts at 0, as before.
public struct RestartPoint: Sendable, Equatable {
    /// Seconds into the episode where this playback of it began (its resume point; 0 from the top).
    public var resumedAt: Double
    /// When `previous` last moved back within this episode (monotonic seconds).
    public var lastPress: Double?

    /// A second `previous` within this many seconds of the first goes to the very start.
    public static let doublePressWindow: Double = 3

    public init(resumedAt: Double = 0, lastPress: Double? = nil) {
        self.resumedAt = resumedAt
        self.lastPress = lastPress
    }

    /// Where to seek for a `previous` at `position` (now: monotonic seconds), given the episode's
    /// chapter starts; records the press.
    public mutating func press(position: Double, chapterStarts: [Double], now: Double) -> Double {
        defer { lastPress = now }
        if let lastPress, now - lastPress >= 0, now - lastPress <= Self.doublePressWindow { return 0 }
        guard resumedAt > PlayQueue.restartThreshold else { return 0 }
        let anchor: Double
        if chapterStarts.isEmpty {
            anchor = resumedAt
        } else {
            anchor = chapterStarts.filter { $0 <= resumedAt }.max() ?? 0
        }
        // Already at (or just after) where this listening began: the next step back is the start.
        return position > anchor + PlayQueue.restartThreshold ? anchor : 0
    }
}
