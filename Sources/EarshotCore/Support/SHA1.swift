/// SHA-1 (FIPS 180-4). Not for secrets: Podcast Index's API signs each request with the SHA-1 of
/// key + secret + time (its `Authorization` header), so Earshot must compute it. Pure Swift, as
/// SHA-256; checked against the FIPS vectors in the tests.
public enum SHA1 {
    /// The 20-byte digest of `bytes`.
    public static func digest<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        let message = DigestPadding.padded(bytes)
        var h: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
        var w = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 { w[i] = DigestPadding.word(message, block, i) }
            for i in 16..<80 { w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A827999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1BBCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62C1D6)
                }
                let t = rotl(a, 5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, rotl(b, 30), a, t)
            }
            for (i, value) in [a, b, c, d, e].enumerated() { h[i] = h[i] &+ value }
        }
        return DigestPadding.bytes(h)
    }

    /// The digest of `text`'s UTF-8 as 40 lower-case hex digits.
    public static func hex(_ text: String) -> String { Hex.encode(digest(text.utf8)) }

    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
}
