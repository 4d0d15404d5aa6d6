/// The pairing desk as a pure value: at most one open code, the guesses against it, and the
/// per-address throttle. Times are seconds on a monotonic clock the caller passes in.
public struct PairingState: Sendable {
    /// How long a code is good for.
    public static let lifetime = 120.0
    /// Wrong guesses (from anyone) that close a code: 5 in a million.
    public static let maxWrongGuesses = 5

    public private(set) var session: PairingSession?
    public private(set) var throttle = PairingThrottle()

    public init() {}

    /// The open session at `now`, or nil (an expired one counts as none).
    public func active(now: Double) -> PairingSession? {
        guard let session, now < session.expires else { return nil }
        return session
    }

    /// Opens a new code (replacing any open one) with the random `code` and `secret` given.
    @discardableResult
    public mutating func open(code: String, secret: String, now: Double) -> PairingSession {
        let opened = PairingSession(code: code, secret: secret, opened: now, expires: now + Self.lifetime)
        session = opened
        return opened
    }

    /// Closes the open code, if any.
    public mutating func close() { session = nil }

    /// Judges one attempt from `address`. A throttled address is refused before its guess is
    /// compared, so waiting is the only way on; every other wrong attempt (no code open included:
    /// a scanner probing then pays too) counts against the address.
    public mutating func attempt(_ proof: PairingProof, from address: String, now: Double) -> PairingOutcome {
        if let wait = throttle.retryAfter(address, now: now) {
            return .throttled(retryAfter: Int(wait.rounded(.up)))
        }
        guard var open = active(now: now) else {
            session = nil
            throttle.failed(address, now: now)
            return .noCode
        }
        let right: Bool
        switch proof {
        case .code(let code): right = secretsMatch(code, open.code)
        case .secret(let secret): right = secretsMatch(secret, open.secret)
        }
        if right {
            session = nil
            throttle.succeeded(address)
            return .paired
        }
        throttle.failed(address, now: now)
        open.wrongGuesses += 1
        if open.wrongGuesses >= Self.maxWrongGuesses {
            session = nil
            return .invalidated
        }
        session = open
        return .wrong
    }

    /// A uniformly random 6-digit code, zero-padded.
    public static func randomCode<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let number = UInt32.random(in: 0..<1_000_000, using: &generator)
        let digits = String(number)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// 128 random bits as 32 hex digits, for the pairing URL.
    public static func randomSecret<G: RandomNumberGenerator>(using generator: inout G) -> String {
        Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The digits of what a person typed ("123 456", "123-456" → "123456"); nil unless six digits.
    public static func normalizedCode(_ typed: String) -> String? {
        let digits = typed.filter { $0 != " " && $0 != "-" && $0 != "\u{00A0}" }
        guard digits.utf8.count == 6, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return digits
    }
}
