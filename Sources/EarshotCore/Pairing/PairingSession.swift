/// One open invitation to pair: a 6-digit code to type and a one-time secret for the QR code's URL.
public struct PairingSession: Sendable, Equatable {
    /// Six decimal digits ("004217").
    public let code: String
    /// 32 hex digits (128 random bits), carried in the pairing URL's fragment.
    public let secret: String
    public let opened: Double
    public let expires: Double
    /// Wrong guesses against this code so far.
    public internal(set) var wrongGuesses = 0

    /// Seconds left at `now` (0 once expired).
    public func remaining(now: Double) -> Double { max(0, expires - now) }
}
