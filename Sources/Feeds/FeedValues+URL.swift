import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

extension FeedValues {
    /// `link` as an absolute URL string, resolved against `base` (the feed's own URL) when relative.
    /// Surrounding whitespace is dropped; nil when nothing is left.
    ///
    /// Absolute `http(s)` links, nearly all of them, are returned as written without a trip through `URL`;
    /// only relative ones pay for Foundation's resolution. Spaces inside a link are percent-encoded.
    public static func resolve(_ link: String, against base: URL) -> String? {
        // The usual case, an absolute http(s) link with nothing to trim or encode, is the string itself.
        let asWritten = link.withUTF8Bytes { bytes in
            hasHTTPScheme(bytes) && !isASCIIWhitespace(bytes[bytes.count - 1])
                && memchr(bytes.baseAddress!, 0x20, bytes.count) == nil  // a byte a step cost 3 instructions a byte
        }
        if asWritten { return link }
        return link.withUTF8Bytes { resolve(bytes: $0, against: base) }
    }

    static func resolve(bytes: UnsafeBufferPointer<UInt8>, against base: URL) -> String? {
        let range = bytes.trimmedRange()
        if range.isEmpty { return nil }
        let link = UnsafeBufferPointer(rebasing: bytes[range])
        var hasSpace = false
        for byte in link where byte == 0x20 { hasSpace = true; break }
        if !hasSpace, hasHTTPScheme(link) { return String(decoding: link, as: UTF8.self) }
        var text = String(decoding: link, as: UTF8.self)
        if hasSpace { text = text.replacing(" ", with: "%20") }
        if let resolved = URL(string: text, relativeTo: base)?.absoluteString { return resolved }
        // Characters URL refuses (non-ASCII, brackets): encode what is not already legal and try once more.
        if let resolved = URL(string: percentEncoded(text), relativeTo: base)?.absoluteString { return resolved }
        return text
    }

    /// An image address a page may load: http(s), or one beside the feed itself (a `file:` feed
    /// read by `earshot parse`, the bundled demo). `javascript:`, `data:` and the like are dropped,
    /// so no artwork can carry them into the first paint or the player.
    public static func imageAddress(_ url: String?, base: URL) -> String? {
        guard let url else { return nil }
        // Nearly every image: an http(s) address of characters any URL parser takes as they are.
        if url.withUTF8Bytes({ hasHTTPScheme($0) && $0.allSatisfy(isPlainURLByteByTable) }) { return url }
        guard let scheme = URL(string: url)?.scheme?.lowercased() else { return nil }
        return scheme == "http" || scheme == "https" || scheme == base.scheme?.lowercased() ? url : nil
    }

    /// `isPlainURLByte` as two words of bits (bytes 0x00–0x7F), one test a byte: the switch was a
    /// dozen comparisons a byte of every episode's image address.
    @inline(__always)
    static func isPlainURLByteByTable(_ byte: UInt8) -> Bool {
        byte < 0x80 && (byte < 0x40 ? plainURLBytesLow >> UInt64(byte) : plainURLBytesHigh >> UInt64(byte - 0x40)) & 1 != 0
    }

    // Literals (a test holds them to `isPlainURLByte`): a `static let` computed from it was a
    // `swift_once` call a byte.
    private static var plainURLBytesLow: UInt64 { 0xAFFF_FFFA_0000_0000 }
    private static var plainURLBytesHigh: UInt64 { 0x47FF_FFFE_87FF_FFFF }

    /// RFC 3986's unreserved and reserved characters and `%`: a URL made of these needs no encoding.
    /// The definition `isPlainURLByteByTable` is held to (a test).
    static func isPlainURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "/"),
             UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "!"),
             UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
             UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    private static func hasHTTPScheme(_ link: UnsafeBufferPointer<UInt8>) -> Bool {
        // "http://" or "https://", any case.
        guard link.count > 8, (link[0] | 0x20) == UInt8(ascii: "h"), (link[1] | 0x20) == UInt8(ascii: "t"),
              (link[2] | 0x20) == UInt8(ascii: "t"), (link[3] | 0x20) == UInt8(ascii: "p") else { return false }
        var index = 4
        if (link[index] | 0x20) == UInt8(ascii: "s") { index += 1 }
        return link[index] == UInt8(ascii: ":") && link[index + 1] == UInt8(ascii: "/")
            && link[index + 2] == UInt8(ascii: "/")
    }

    /// `text` with every byte percent-encoded that may not stand in a URL's query (`urlQueryAllowed`)
    /// except `#` and `%`, which are left as written (a fragment, an escape already made).
    static func percentEncoded(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.append(byte)
            case _ where "-._~!$&'()*+,;=:@/?#%".utf8.contains(byte):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
