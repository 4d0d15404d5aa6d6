import FoundationEssentials

/// What the rooms hear, given where mpv is: Snapcast plays audio about `lead` seconds after mpv
/// writes it (its buffer, and the pipe before it). While playing, the rooms are `lead` behind mpv —
/// but never behind where this stretch of listening began (after a resume or a seek the rooms are
/// silent, then play from there). Paused, everything written is heard in the end: mpv's own
/// position. A pure value: the engine tells it what happened, and asks it what to show and save.
public struct HeardClock: Sendable, Equatable {
    /// Seconds from mpv writing audio to the rooms playing it (0: the host's own output).
    public var lead: Double
    /// Where the rooms went on from: the last resume or seek.
    public var floor: Double = 0

    public init(lead: Double = 0) { self.lead = lead }

    /// Playback went on (a resume, a seek, a load) from `position`.
    public mutating func wentOn(from position: Double) { floor = position }

    /// The position to show and save when mpv is at `mpvPosition`.
    public func heard(mpvPosition: Double, playing: Bool) -> Double {
        guard playing, lead > 0 else { return mpvPosition }
        return max(min(floor, mpvPosition), mpvPosition - lead)
    }
}
