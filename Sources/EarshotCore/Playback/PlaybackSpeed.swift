import FoundationEssentials

/// Playback speeds: the range a listener may choose, its 0.05 grid and the presets clients offer.
/// Pitch is kept at every speed (mpv's scaletempo2).
public enum PlaybackSpeed {
    public static let range: ClosedRange<Double> = 0.5...3
    /// Speeds are multiples of this: 1.23 becomes 1.25.
    public static let step: Double = 0.05
    /// The speeds a menu lists (any other multiple of `step` in `range` is allowed too).
    public static let presets: [Double] = [0.5, 0.75, 0.9, 1, 1.1, 1.2, 1.25, 1.3, 1.5, 1.75, 2, 2.5, 3]

    /// `rate` on the 0.05 grid, inside `range`.
    public static func snapped(_ rate: Double) -> Double {
        let grid = (rate / step).rounded() * step
        // Round again to 2 decimals so 1.15 is the literal 1.15, not 1.1500000000000001.
        let tidy = (grid * 100).rounded() / 100
        return min(max(tidy, range.lowerBound), range.upperBound)
    }

    /// The speed an episode of `podcast` starts at: the podcast's own, else the speed last chosen
    /// while playing a podcast without one (`general`).
    public static func starting(podcast: Int64, settings: PlaybackSettings, general: Double) -> Double {
        settings.podcastSpeeds[podcast] ?? general
    }
}
