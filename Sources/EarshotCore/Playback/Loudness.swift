#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// An episode's loudness as EBU R128 measures it (ffmpeg's `ebur128`, at download time): what a
/// fixed gain needs to bring it to the leveling target without clipping.
public struct Loudness: Codable, Sendable, Equatable {
    /// Integrated loudness, LUFS.
    public var integrated: Double
    /// True peak, dBTP (−∞ for digital silence).
    public var truePeak: Double

    public init(integrated: Double, truePeak: Double) {
        self.integrated = integrated; self.truePeak = truePeak
    }

    /// A true peak measured as a linear amplitude (1 = full scale), in dBTP.
    public static func decibels(_ amplitude: Double) -> Double {
        amplitude > 0 ? 20 * log10(amplitude) : -.infinity
    }
}
