import FoundationEssentials

/// How much of a pause Earshot plays through fast (issue 18): off, or three strengths. A pause is
/// found by ffmpeg's `silencedetect` in mpv's filter chain; it plays on at `fastFactor` times
/// the listener's speed until its end is found, then playing goes on `keep` seconds before that
/// end (a seek within the pause: what follows starts clean, never sped up, and positions stay
/// those of the file).
public enum SilenceSkipping: String, Codable, Sendable, CaseIterable {
    case off, mild, medium, strong

    /// Samples below this (dB of full scale) count as silence.
    public var threshold: Double {
        switch self {
        case .off: return 0
        case .mild: return -50
        case .medium: return -45
        case .strong: return -40
        }
    }

    /// How long a quiet stretch must last to count as a pause (seconds of the file): shorter
    /// ones (between words) are never touched.
    public var minimum: Double {
        switch self {
        case .off: return .infinity
        case .mild: return 1.0
        case .medium: return 0.5
        case .strong: return 0.25
        }
    }

    /// How much of a pause's end is heard: speech keeps a breath before it.
    public var keep: Double {
        switch self {
        case .off: return 0
        case .mild: return 0.6
        case .medium: return 0.35
        case .strong: return 0.2
        }
    }

    /// Times the listener's speed a pause plays at while its end is looked for. scaletempo2 mutes
    /// above 4× (what plays is a pause); mpv allows up to 100×.
    public static let fastFactor: Double = 16
    public static let maximumSpeed: Double = 100

    /// The detector in mpv's chain (ffmpeg's option syntax), nil when off.
    public var detector: String? {
        guard self != .off else { return nil }
        return "silencedetect=n=\(Int(threshold))dB:d=\(minimum)"
    }
}
