import FoundationEssentials

/// Readers for the small enumerated and numeric values of iTunes and Podcasting 2.0 tags.
extension FeedValues {
    /// `itunes:explicit`, `itunes:block`, `podcast:locked`: yes / explicit / true → true, no / clean /
    /// false → false (any case), anything else nil.
    static func flag(bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch squashedWhitespace(bytes: bytes).asciiLowercased() {
        case "yes", "explicit", "true": return true
        case "no", "clean", "false": return false
        default: return nil
        }
    }

    /// The value lowercased when it is one of `allowed`, else nil.
    static func keyword(bytes: UnsafeBufferPointer<UInt8>, in allowed: [String]) -> String? {
        let value = squashedWhitespace(bytes: bytes).asciiLowercased()
        return allowed.contains(value) ? value : nil
    }

    /// `itunes:keywords`: comma-separated, each trimmed, empty ones dropped.
    static func keywords(bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        // Split on the bytes (a comma is never part of a longer UTF-8 sequence), each keyword squashed.
        var keywords: [String] = []
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ",") {
            let keyword = squashedWhitespace(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            if !keyword.isEmpty { keywords.append(keyword) }
            start = index + 1
        }
        return keywords
    }

    /// A whole number of at least `minimum` (`itunes:episode` 7, `podcast:season` 2); a decimal with no
    /// fraction ("3.0") counts, anything else is nil.
    static func integer(bytes: UnsafeBufferPointer<UInt8>, minimum: Int) -> Int? {
        let text = squashedWhitespace(bytes: bytes)
        let value = Int(text) ?? Double(text).flatMap { $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil }
        guard let value, value >= minimum else { return nil }
        return value
    }

    /// An enclosure length in bytes; -1 when missing, not a number or negative.
    static func length(_ text: String?) -> Int64 {
        guard let text, let value = Int64(text.trimmingASCIIWhitespace()), value >= 0 else { return -1 }
        return value
    }

    /// Seconds in a Podcasting 2.0 time attribute ("73.5"), or nil.
    static func seconds(_ text: String) -> Double? {
        guard let value = Double(text.trimmingASCIIWhitespace()), value.isFinite, value >= 0 else { return nil }
        return value
    }

    /// Whether `text` starts with `http://` or `https://` (any case) after surrounding whitespace.
    static func isWebAddress(_ text: String) -> Bool {
        let lower = text.trimmingASCIIWhitespace().prefix(8).asciiLowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// podcastparser's test for HTML (`<[a-z][a-z0-9]*(?:\s.*?>|\/?>)`, any case): a start tag, so
    /// "a < b" and "<3" are text. Linear: one pass, with the last `>` found once.
    static func looksLikeHTML(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.count
        var lastClose = count - 1
        while lastClose >= 0, text[lastClose] != UInt8(ascii: ">") { lastClose -= 1 }
        if lastClose < 0 { return false }
        var index = 0
        while index + 1 < count {
            // Plain text (a summary) has no `<`: found by memchr, not byte by byte.
            guard let less = text.nextIndex(of: UInt8(ascii: "<"), from: index), less + 1 < count else { return false }
            index = less
            guard isASCIILetter(text[index + 1]) else {
                index += 1
                continue
            }
            var end = index + 2
            while end < count, isASCIILetter(text[end]) || isASCIIDigit(text[end]) { end += 1 }
            if end < count {
                let next = text[end]
                if next == UInt8(ascii: ">") { return true }
                if next == UInt8(ascii: "/"), end + 1 < count, text[end + 1] == UInt8(ascii: ">") { return true }
                if isPythonWhitespace(next), end < lastClose { return true }
            }
            index = end
        }
        return false
    }

    /// The ASCII characters Python's `\s` matches.
    @inline(__always)
    static func isPythonWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) || (byte >= 0x1C && byte <= 0x1F)
    }
}
