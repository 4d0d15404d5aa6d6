/// Where playback is between the engine's messages, and whether a new position is a jump
/// (`Seeked`) or time passing. Pure: times are seconds on any monotonic clock.
public struct MPRISClock: Sendable, Equatable {
    public var episode: Int64?
    /// Media seconds at `at`.
    public var position: Double
    public var at: Double
    public var rate: Double
    public var playing: Bool

    /// A position this far (in media seconds) from where time alone would have taken it is a seek.
    /// The engine reports the position about once a second; a late tick under load is well under this.
    public static let jumpThreshold = 1.5

    public init(episode: Int64? = nil, position: Double = 0, at: Double = 0, rate: Double = 1, playing: Bool = false) {
        self.episode = episode; self.position = position; self.at = at; self.rate = rate; self.playing = playing
    }

    /// The position at `now`, in seconds.
    public func position(at now: Double) -> Double {
        guard playing else { return position }
        return position + max(0, now - at) * rate
    }

    /// Takes a new report. Returns the new position (seconds) when it is a jump within the same
    /// episode; a new episode is a metadata change, not a seek.
    public mutating func update(episode: Int64?, position: Double, rate: Double, playing: Bool, at now: Double) -> Double? {
        let expected = self.position(at: now)
        let jumped = episode != nil && episode == self.episode && abs(position - expected) > Self.jumpThreshold
        self = MPRISClock(episode: episode, position: position, at: now, rate: rate, playing: playing)
        return jumped ? position : nil
    }
}
