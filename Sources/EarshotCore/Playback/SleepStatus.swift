import FoundationEssentials

/// The sleep timer as clients see it (`state.sleep`, null when none is set).
public struct SleepStatus: Codable, Sendable, Equatable {
    public var mode: SleepTimer.Mode
    /// Seconds of playing left when the state was sent (it counts down only while playing);
    /// nil when the episode's length is unknown.
    public var remaining: Double?
    /// Chapter mode: the media position the timer stops at (nil: the episode's end).
    public var end: Double?
    /// The fade's length: the volume goes down over the last `fade` seconds.
    public var fade: Double

    public init(mode: SleepTimer.Mode, remaining: Double?, end: Double?, fade: Double) {
        self.mode = mode; self.remaining = remaining; self.end = end; self.fade = fade
    }

    enum CodingKeys: String, CodingKey { case mode, remaining, end, fade }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(mode, forKey: .mode)
        try c.encode(remaining, forKey: .remaining) // explicit null: unknown
        try c.encode(end, forKey: .end)
        try c.encode(fade, forKey: .fade)
    }
}
