/// The message padding SHA-1 and SHA-256 share (FIPS 180-4 §5.1.1): a 1 bit, zeros to 56 bytes
/// mod 64, the bit length as a big-endian 64-bit number; then 64-byte blocks of big-endian words.
enum DigestPadding {
    static func padded<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        return message
    }

    /// Big-endian word `i` of the 64-byte block at `block`.
    static func word(_ message: [UInt8], _ block: Int, _ i: Int) -> UInt32 {
        let j = block + i * 4
        return UInt32(message[j]) << 24 | UInt32(message[j + 1]) << 16 | UInt32(message[j + 2]) << 8 | UInt32(message[j + 3])
    }

    /// The digest's words as bytes, big-endian.
    static func bytes(_ words: [UInt32]) -> [UInt8] {
        words.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }
}
