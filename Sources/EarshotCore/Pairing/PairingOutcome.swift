/// What became of one attempt to pair.
public enum PairingOutcome: Sendable, Equatable {
    /// Right: the device gets a token. The code and secret are used up.
    case paired
    /// Wrong; the code stays open.
    case wrong
    /// Wrong, and the code's last chance: it is closed (the host must open a new one).
    case invalidated
    /// No code is open (never opened, used, closed, or expired).
    case noCode
    /// This address guessed wrong too often: not even looked at. Seconds to wait, rounded up.
    case throttled(retryAfter: Int)
}
