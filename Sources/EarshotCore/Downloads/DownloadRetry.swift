import FoundationEssentials

/// When a failed download tries again: after each transient failure the next delay of the
/// schedule; past its end (or after a failure that is not transient) it is `failed`.
public struct DownloadRetry: Sendable, Equatable {
    /// Seconds to wait before attempt 2, 3, …
    public var delays: [Double]

    /// 5 s, 30 s, 2 min, 10 min: a blip passes unseen, an outage gives up within a quarter hour.
    public static let standard = DownloadRetry(delays: [5, 30, 120, 600])

    public init(delays: [Double]) { self.delays = delays }

    /// The wait before the next attempt, after `failures` failed ones in a row (1 = the first
    /// failure); nil: give up.
    public func delay(afterFailures failures: Int, _ failure: DownloadFailure) -> Double? {
        guard failure.isTransient, failures >= 1, failures <= delays.count else { return nil }
        return delays[failures - 1]
    }
}
