import FoundationEssentials

/// Coalesces a stream of changes into messages at most every `interval` seconds: the first change
/// after a quiet spell goes out at once, later ones wait for the interval to pass (and then go as one).
public struct PublishThrottle: Sendable, Equatable {
    public var interval: Double
    public private(set) var lastSent: Date?

    public init(interval: Double) { self.interval = interval }

    /// When the change made at `now` should be sent: `now` or later.
    public func sendTime(forChangeAt now: Date) -> Date {
        guard let lastSent else { return now }
        return max(now, lastSent.addingTimeInterval(interval))
    }

    /// Records a message sent at `now`.
    public mutating func sent(at now: Date) { lastSent = now }
}
