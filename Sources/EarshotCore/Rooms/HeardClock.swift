import FoundationEssentials

/// What the rooms hear, given where mpv is: Snapcast plays audio about `lead` seconds after mpv
/// writes it (its buffer, and the pipe before it). While playing, the rooms are `lead` seconds of
/// listening behind mpv — `lead × rate` of the episode — but never behind where this stretch of
/// listening began (after a resume or a seek the rooms are silent, then play from there). A speed
/// change leaves the old speed's audio in the buffer: the rooms play it out, then the new speed
/// from where it began. Paused, everything written is heard in the end: mpv's own position.
/// A pure value: the engine tells it what happened, and asks it what to show and save.
public struct HeardClock: Sendable, Equatable {
    /// Seconds from mpv writing audio to the rooms playing it (0: the host's own output).
    public var lead: Double
    /// Where the rooms went on from: the last resume, seek or speed change.
    public var floor: Double = 0
    /// The speed mpv writes at now.
    public private(set) var rate: Double = 1
    /// The speed of the audio the rooms still hear before `floor` (after a speed change); nil after
    /// a resume or seek, when there is only silence before it.
    public private(set) var before: Double?

    public init(lead: Double = 0) { self.lead = lead }

    /// Playback went on (a resume, a seek, a load) from `position`.
    public mutating func wentOn(from position: Double) { floor = position; before = nil }

    /// mpv writes at `rate` from `position` on; the rooms hear the new speed once the buffer has
    /// played out. (mpv, SDL and the pipe still hold about 0.14 s made at the old speed — bench/rooms.py —
    /// so for that second the position shown is off by at most that much times the change.)
    /// Also right while nothing plays.
    public mutating func speedChanged(at position: Double, to rate: Double) {
        before = self.rate
        floor = position
        self.rate = max(rate, 0.01)
    }

    /// The position to show and save when mpv is at `mpvPosition`.
    public func heard(mpvPosition: Double, playing: Bool) -> Double {
        guard playing, lead > 0 else { return mpvPosition }
        let written = max(0, mpvPosition - floor) / rate // seconds of listening since `floor`
        if written >= lead { return mpvPosition - lead * rate }
        guard let old = before else { return min(floor, mpvPosition) }
        return floor - (lead - written) * old
    }
}
