import FoundationEssentials

/// How Earshot evens loudness (issue 18): off, `normalize` (every show at the same loudness) or
/// `boost` (that, plus quiet voices raised: for a noisy room).
///
/// Chosen by measurement (bench/leveling.py: the demo's speech and a tone fed in at −30 and −14
/// LUFS; Tests/host/test_listening_sound.py): ffmpeg's `loudnorm` in its one-pass mode brings
/// both shows to the same loudness (0.0 dB apart, speech and tone alike) from the first seconds,
/// keeps mpv's positions true, and costs about 62 CPU seconds per hour of audio (1.7 % of a
/// core, decoding included). `dynaudnorm` evens a whole episode of speech (0.3 dB) but not a
/// steady tone (1.7 dB) and, its window being long, left two 6 s shows 5 dB apart;
/// `speechnorm` alone left them 1.9 dB (speech) and 12.8 dB (tone) apart: it shapes within a
/// voice, not between shows. Boost therefore puts `speechnorm` (quiet syllables raised) before
/// `loudnorm`.
/// A downloaded episode measured at download time (EBU R128) is evened by a fixed gain
/// instead: its own dynamics stay as they were mastered.
public enum Leveling: String, Codable, Sendable, CaseIterable {
    case off, normalize, boost

    /// The loudness aimed at (LUFS): −16, the common target for spoken podcasts.
    public var target: Double {
        switch self {
        case .off: return 0
        case .normalize: return -16
        case .boost: return -14
        }
    }

    /// The highest true peak a fixed gain may raise an episode to (dBTP).
    public static let peakCeiling: Double = -1
    /// The most a fixed gain adds or takes away (dB).
    public static let gainRange: ClosedRange<Double> = -20...20

    /// The fixed gain (dB) that brings an episode measured at `loudness` LUFS with a true peak
    /// of `peak` dBTP to this target, held below the peak ceiling and within `gainRange`.
    public func gain(for measured: Loudness?) -> Double? {
        measured.flatMap { gain(loudness: $0.integrated, peak: $0.truePeak) }
    }

    public func gain(loudness: Double, peak: Double) -> Double? {
        guard self != .off, loudness.isFinite, loudness > -70 else { return nil }
        var gain = target - loudness
        if peak.isFinite { gain = min(gain, Self.peakCeiling - peak) }
        // Hundredths of a dB: what mpv is given and clients show.
        return (min(max(gain, Self.gainRange.lowerBound), Self.gainRange.upperBound) * 100).rounded() / 100
    }

    /// The filters in mpv's chain (ffmpeg's option syntax), in order; empty when off. `gain`: a
    /// measured episode's fixed gain (then no `loudnorm`).
    public func filters(gain: Double?) -> [String] {
        var chain: [String] = []
        if self == .boost { chain.append("speechnorm=e=6:r=0.0005:l=1") }
        switch self {
        case .off: return []
        case .normalize, .boost:
            if let gain {
                chain.append("volume=\(gain)dB")
            } else {
                // One pass, live: it looks 3 s ahead and holds true peaks below −1.5 dBTP.
                chain.append("loudnorm=I=\(Int(target)):TP=-1.5:LRA=\(self == .boost ? 7 : 11)")
            }
        }
        return chain
    }
}

/// mpv's audio filter chain for one episode: the silence detector first (it must hear the file as
/// it is, before any speed change), then leveling, then `scaletempo2` (speed keeps the pitch).
public struct AudioFilterChain: Sendable, Equatable {
    public var skipSilence: SilenceSkipping
    public var leveling: Leveling
    public var gain: Double?

    public init(skipSilence: SilenceSkipping = .off, leveling: Leveling = .off, gain: Double? = nil) {
        self.skipSilence = skipSilence; self.leveling = leveling; self.gain = gain
    }

    /// Labels mpv knows the filters by (`af-metadata/silence` is read by its label).
    public static let silenceLabel = "silence", levelLabel = "level", tempoLabel = "tempo"

    /// The `af` option's value.
    public var mpvValue: String {
        var parts: [String] = []
        if let detector = skipSilence.detector { parts.append("@\(Self.silenceLabel):lavfi=[\(detector)]") }
        let level = leveling.filters(gain: gain)
        if !level.isEmpty { parts.append("@\(Self.levelLabel):lavfi=[\(level.joined(separator: ","))]") }
        parts.append("@\(Self.tempoLabel):scaletempo2")
        return parts.joined(separator: ",")
    }
}
