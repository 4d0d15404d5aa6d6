import EarshotCore
#if canImport(Glibc)
import Glibc
#endif

/// Readers for the loosely formatted values feeds carry: durations, dates, HTML show notes, links.
///
/// Each has a `String` entry point for callers and a byte-buffer one the parser uses on libxml2's text
/// directly, so the hot path builds no intermediate Strings. None uses Foundation's regex or
/// `DateFormatter`.
public enum FeedValues {}

/// ASCII whitespace as XML and HTML define it (space, tab, CR, LF, form feed).
@inline(__always)
func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C
}

@inline(__always)
func isASCIIDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

@inline(__always)
func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

extension UnsafeBufferPointer<UInt8> {
    /// The range left after dropping leading and trailing ASCII whitespace.
    func trimmedRange() -> Range<Int> {
        var start = 0
        var end = count
        while start < end, isASCIIWhitespace(self[start]) { start += 1 }
        while end > start, isASCIIWhitespace(self[end - 1]) { end -= 1 }
        return start..<end
    }

    /// True when every byte is ASCII whitespace (or there are none).
    var isBlank: Bool { trimmedRange().isEmpty }

    /// The index of the next `byte` at or after `start`, or nil (libc's `memchr`, which reads many bytes
    /// at a time: attribute values, skipped content and plain text are long).
    func nextIndex(of byte: UInt8, from start: Int) -> Int? {
        guard start < count, let base = baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(byte), count - start) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace (Unicode's, line breaks included): what
    /// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` gives, without Foundation.
    func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }

    /// The text with ASCII letters lowercased and everything else as it is: the right fold for the
    /// ASCII tokens feeds use as keywords (MIME types, roles, flags, URL schemes), and no copy when
    /// nothing is uppercase (the usual case; `lowercased()` is Unicode-aware and far slower).
    func asciiLowercased() -> String {
        let hasUppercase = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 >= 0x41 && $0 <= 0x5A }
        } ?? utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
        guard hasUppercase else { return String(self) }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Where `text` first occurs, as Foundation's `range(of:)`.
    func range(of text: String) -> Range<Index>? { firstRange(of: text) }
}

extension String {
    /// The string without leading and trailing ASCII whitespace; no copy when there is none
    /// (Foundation's `trimmingCharacters` bridges through NSString and is slow on Linux).
    func trimmingASCIIWhitespace() -> String {
        let bytes = utf8
        guard let first = bytes.first, let last = bytes.last else { return self }
        if !isASCIIWhitespace(first) && !isASCIIWhitespace(last) { return self }
        return withUTF8Bytes { FeedValues.trimmed(bytes: $0) } ?? ""
    }

    /// Runs `body` over the string's UTF-8 bytes (contiguous, so no copy for native strings).
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = self
        return copy.withUTF8(body)
    }
}

extension FeedValues {
    /// `text` with runs of whitespace collapsed to one space and the ends trimmed: what titles get.
    public static func squashedWhitespace(_ text: String) -> String {
        text.withUTF8Bytes { squashedWhitespace(bytes: $0) }
    }

    static func squashedWhitespace(bytes: UnsafeBufferPointer<UInt8>) -> String {
        let range = bytes.trimmedRange()
        var needsWork = false
        var previousWasSpace = false
        var start = range.lowerBound
        // Eight bytes a step while they hold no whitespace but single spaces (titles, subtitles and
        // authors nearly always): giantbomb's 730 subtitles and summaries were a turn of the loop a byte.
        while start + 8 <= range.upperBound {
            let word = ByteWord.load(bytes, at: start)
            let spaces = ByteWord.equal(word, 0x20)
            guard ByteWord.below(word, 0x21) == spaces else { break }  // a tab, line break, control: bytewise
            if spaces & (spaces << 8) != 0 || previousWasSpace && spaces & 0x80 != 0 {
                needsWork = true
                break
            }
            previousWasSpace = spaces >> 63 != 0
            start += 8
        }
        for index in start..<(needsWork ? start : range.upperBound) {
            let byte = bytes[index]
            if isASCIIWhitespace(byte) {
                if previousWasSpace || byte != 0x20 { needsWork = true; break }
                previousWasSpace = true
            } else {
                previousWasSpace = false
            }
        }
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if !needsWork { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var pendingSpace = false
        for byte in slice {
            if isASCIIWhitespace(byte) {
                pendingSpace = true
            } else {
                if pendingSpace { out.append(0x20); pendingSpace = false }
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` with the ends trimmed, or nil when nothing is left.
    static func trimmed(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let range = bytes.trimmedRange()
        if range.isEmpty { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
