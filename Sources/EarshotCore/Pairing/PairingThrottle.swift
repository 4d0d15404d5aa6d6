/// How often one client address may guess a pairing code: the first wrong guesses are free (typos),
/// then each one doubles the wait before the next is even looked at (5 s, 10 s, 20 s … 5 min).
/// Together with `PairingState.maxWrongGuesses` (a code dies after 5 wrong guesses from anyone)
/// this keeps a guesser at a handful of tries per code and per few minutes. Times are seconds on
/// any monotonic clock; the value holds no clock of its own, so tests step time by hand.
public struct PairingThrottle: Sendable, Equatable {
    struct Record: Sendable, Equatable {
        var failures: Int
        var lastFailure: Double
        var blockedUntil: Double
    }

    /// Wrong guesses an address may make before it has to wait.
    public static let freeFailures = 2
    /// The first wait, doubled with each further failure, up to `maxDelay`.
    public static let baseDelay = 5.0
    public static let maxDelay = 300.0
    /// An address quiet this long starts afresh.
    public static let forgetAfter = 900.0
    /// Addresses remembered at most: a flood of addresses cannot grow memory without bound.
    public static let maxAddresses = 1024

    private(set) var records: [String: Record] = [:]

    public init() {}

    /// The wait after `failures` wrong guesses in a row: 0 for the free ones.
    public static func delay(afterFailures failures: Int) -> Double {
        guard failures > freeFailures else { return 0 }
        let doublings = min(failures - freeFailures - 1, 16)
        return min(maxDelay, baseDelay * Double(1 << doublings))
    }

    /// Seconds `address` must still wait before its next guess is looked at; nil when it may guess now.
    public func retryAfter(_ address: String, now: Double) -> Double? {
        guard let record = records[address], record.blockedUntil > now else { return nil }
        return record.blockedUntil - now
    }

    /// Records a wrong guess; returns the wait it earns (0 while still free).
    @discardableResult
    public mutating func failed(_ address: String, now: Double) -> Double {
        var record = records[address] ?? Record(failures: 0, lastFailure: now, blockedUntil: now)
        if now - record.lastFailure > Self.forgetAfter { record.failures = 0 }
        record.failures += 1
        record.lastFailure = now
        let wait = Self.delay(afterFailures: record.failures)
        record.blockedUntil = now + wait
        records[address] = record
        if records.count > Self.maxAddresses { forgetOldest(now: now) }
        return wait
    }

    /// A right guess: the address starts afresh.
    public mutating func succeeded(_ address: String) { records[address] = nil }

    /// Wrong guesses `address` has made in a row (for tests and diagnostics).
    public func failures(of address: String) -> Int { records[address]?.failures ?? 0 }

    /// Drops addresses quiet for `forgetAfter`, then, if still too many, the longest quiet ones
    /// (an attacker would need more than `maxAddresses` addresses to win a fresh start this way).
    private mutating func forgetOldest(now: Double) {
        records = records.filter { now - $0.value.lastFailure <= Self.forgetAfter || $0.value.blockedUntil > now }
        guard records.count > Self.maxAddresses else { return }
        let oldest = records.sorted { $0.value.lastFailure < $1.value.lastFailure }.prefix(records.count - Self.maxAddresses)
        for (address, _) in oldest { records[address] = nil }
    }
}
