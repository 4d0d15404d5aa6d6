import Foundation

/// Audio made by the tests themselves: a mono 16-bit PCM WAV of a quiet sine tone.
/// WAV seeks exactly and decodes anywhere mpv runs, so timing assertions measure mpv, not the codec.
public enum GeneratedAudio {
    /// Writes `seconds` of a 440 Hz tone at `sampleRate` to `url` and returns the url.
    @discardableResult
    public static func writeWAV(to url: URL, seconds: Double, sampleRate: Int = 8_000) throws -> URL {
        try wav(seconds: seconds, sampleRate: sampleRate).write(to: url)
        return url
    }

    /// `seconds` of a 440 Hz tone whose peak is `amplitude` (of 32767), as WAV bytes.
    public static func wav(seconds: Double, sampleRate: Int = 8_000, amplitude: Double = 3000) -> Data {
        let frames = Int(seconds * Double(sampleRate))
        var data = Data(capacity: 44 + frames * 2)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + frames * 2))
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(frames * 2))
        for i in 0..<frames {
            let sample = sin(2 * Double.pi * 440 * Double(i) / Double(sampleRate)) * amplitude
            append(Int16(sample))
        }
        return data
    }
}
