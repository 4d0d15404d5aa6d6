/// Well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF), checked on bytes:
/// the sanitizer's output and the feed parser's repair of mislabelled documents share it.
public enum UTF8Check {
    /// Whether all of `bytes` is well-formed, eight ASCII bytes at a time: show notes are mostly ASCII,
    /// and `String`'s own check of 20 MB of them cost more than sanitizing them.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = raw.count
        var index = 0
        while index < count {
            if let base = raw.baseAddress, index + 8 <= count,
               (base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            if raw[index] < 0x80 {
                index += 1
                continue
            }
            guard let length = validSequenceLength(raw, at: index) else { return false }
            index += length
        }
        return true
    }

    /// The length of the well-formed multi-byte sequence at `index`, or nil (for ASCII too).
    public static func validSequenceLength(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { return nil }
        for offset in 2..<max(length, 2) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}
