import FoundationEssentials

/// When the periodic refresh of every feed runs: every `interval`, give or take `jitter` (a fraction
/// of it), so a house full of players does not hit a publisher on the same second, and one
/// player's refreshes drift instead of landing at the same hour every day.
///
/// A pure value: the delay comes from a random number the caller supplies, so tests need no clock.
public struct RefreshSchedule: Sendable, Equatable {
    /// Six hours: fresh enough for a daily show, gentle on publishers.
    public static let defaultInterval: TimeInterval = 6 * 3_600
    /// Shorter intervals are refused: polling a feed every few seconds helps nobody.
    public static let minimumInterval: TimeInterval = 60

    public var interval: TimeInterval
    /// A fraction of `interval` (0 ≤ jitter < 1): each delay lies within interval × (1 ± jitter).
    public var jitter: Double

    public init(interval: TimeInterval = Self.defaultInterval, jitter: Double = 0.1) {
        self.interval = max(interval, Self.minimumInterval)
        self.jitter = min(max(jitter, 0), 0.99)
    }

    /// The shortest and longest delay this schedule gives.
    public var range: ClosedRange<TimeInterval> { interval - interval * jitter...interval + interval * jitter }

    /// The delay for `unit`, a uniform random number in 0…1: 0 gives the shortest, 1 the longest,
    /// ½ exactly `interval`. Values outside 0…1 are clamped.
    public func delay(unit: Double) -> TimeInterval {
        let u = unit.isFinite ? min(max(unit, 0), 1) : 0.5
        return interval + interval * jitter * (2 * u - 1)
    }

    /// The wait before the next run (the first one too: nothing is fetched right at start).
    public func nextDelay<G: RandomNumberGenerator>(using generator: inout G) -> TimeInterval {
        delay(unit: Double.random(in: 0...1, using: &generator))
    }

    /// Reads `--refresh-interval HOURS` (or an environment value): a positive number of hours,
    /// fractions allowed; `0` or `off` means never (nil). Throws a sentence for anything else.
    public static func parse(hours text: String) throws(RefreshScheduleError) -> RefreshSchedule? {
        let trimmed = text.trimmed.lowercased()
        if trimmed == "off" || trimmed == "never" { return nil }
        guard let hours = Double(trimmed), hours.isFinite, hours >= 0 else {
            throw RefreshScheduleError(description: "the refresh interval must be a number of hours (e.g. 6 or 0.5) or 0/off, not \"\(text)\"")
        }
        if hours == 0 { return nil }
        guard hours * 3_600 >= minimumInterval else {
            throw RefreshScheduleError(description: "the refresh interval must be at least one minute (0.02 hours), not \(text)")
        }
        return RefreshSchedule(interval: hours * 3_600)
    }
}
