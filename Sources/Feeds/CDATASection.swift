import EarshotCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A `<![CDATA[…]]>` section found in a document's bytes, whose text the feed parser hands to its handler
/// itself rather than through libxml2 (`XMLEventStream`): show notes come in CDATA, and libxml2's push
/// parser looks for a section's end and checks its characters byte by byte, most of its time on such
/// feeds (freakshow: 1.3 of 2.2 ms for 1.1 MB of CDATA). Finding one here says nothing of whether it is
/// markup (it could sit in a comment); the stream asks libxml2's state before it skips one.
///
/// Pure: no libxml2, only bytes.
struct CDATASection: Equatable {
    /// Where `<![CDATA[` starts, relative to the bytes searched.
    let start: Int
    /// The section's text: between `<![CDATA[` and `]]>`.
    let text: Range<Int>
    /// Just past `]]>`.
    var end: Int { text.upperBound + 3 }
    /// Line feeds in the text (libxml2's line count is moved on by them, so later messages name the right line).
    let lineFeeds: Int

    static let opening: [UInt8] = Array("<![CDATA[".utf8)
    static let closing: [UInt8] = Array("]]>".utf8)

    /// Sections shorter than this are left to libxml2: two calls into it more cost what a short one saves.
    static let minimumLength = 256

    /// What `next(in:)` found.
    enum Found: Equatable {
        /// A section whose text may be handed over as it is: whole, at least `minimumLength` long, valid
        /// UTF-8 of XML characters only, no carriage return (libxml2 would turn line ends into line feeds).
        case section(CDATASection)
        /// `<![CDATA[` at this offset, but not such a section (too short, not ended in these bytes, a
        /// character libxml2 must see): leave it to libxml2 and look again after it.
        case leaveToLibxml2(start: Int)

        /// The same, its offsets `offset` further on.
        func moved(by offset: Int) -> Found {
            switch self {
            case .section(let section):
                .section(CDATASection(start: section.start + offset, text: (section.text.lowerBound + offset)..<(section.text.upperBound + offset),
                                      lineFeeds: section.lineFeeds))
            case .leaveToLibxml2(let start): .leaveToLibxml2(start: start + offset)
            }
        }
    }

    /// The first `<![CDATA[` in `bytes` and what to do with it; nil when there is none.
    static func next(in bytes: UnsafeRawBufferPointer) -> Found? {
        guard let start = find(opening, in: bytes, from: 0) else { return nil }
        return starting(UnsafeRawBufferPointer(rebasing: bytes[start...]))?.moved(by: start)
    }

    /// What to do with the `<![CDATA[` that `bytes` start with; nil when they start with something else
    /// (the stream asks at each `<`).
    static func starting(_ bytes: UnsafeRawBufferPointer) -> Found? {
        guard bytes.count >= opening.count, let base = bytes.baseAddress,
              opening.withUnsafeBytes({ memcmp(base, $0.baseAddress!, opening.count) }) == 0 else { return nil }
        let textStart = opening.count
        guard let textEnd = find(closing, in: bytes, from: textStart) else { return .leaveToLibxml2(start: 0) }
        guard textEnd - textStart >= minimumLength,
              let lineFeeds = checkedLineFeeds(UnsafeRawBufferPointer(rebasing: bytes[textStart..<textEnd])) else {
            return .leaveToLibxml2(start: 0)
        }
        return .section(CDATASection(start: 0, text: textStart..<textEnd, lineFeeds: lineFeeds))
    }

    /// The offset of the first `needle` in `bytes` at or after `from`: `memchr` for its first byte, then a
    /// compare (glibc's `memmem` is not in Swift's Glibc module).
    static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        needle.withUnsafeBytes { find($0, in: bytes, from: from) }
    }

    /// The same for a literal (`"?>"`, `"]]>"`).
    static func find(_ needle: StaticString, in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        needle.withUTF8Buffer { find(UnsafeRawBufferPointer($0), in: bytes, from: from) }
    }

    private static func find(_ needle: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress, let first = needle.first else { return nil }
        var index = from
        while bytes.count - index >= needle.count {
            guard let hit = memchr(base + index, Int32(first), bytes.count - index - needle.count + 1) else { return nil }
            let at = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
            index = at + 1
        }
        return nil
    }

    /// The number of line feeds in `text` when it is valid UTF-8 of XML 1.0 characters (tab, line feed,
    /// U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF) without a carriage return; nil otherwise.
    /// Eight bytes at a time while they are printable ASCII.
    static func checkedLineFeeds(_ text: UnsafeRawBufferPointer) -> Int? {
        let count = text.count
        var index = 0
        var lineFeeds = 0
        let high: UInt64 = 0x8080_8080_8080_8080
        let spaces: UInt64 = 0x2020_2020_2020_2020
        while index < count {
            if index + 8 <= count {
                let word = text.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // No byte with its high bit set, none below 0x20: eight printable ASCII characters.
                if word & high == 0, (word &- spaces) & ~word & high == 0 {
                    index += 8
                    continue
                }
            }
            let byte = text[index]
            if byte < 0x80 {
                if byte >= 0x20 || byte == 0x09 {
                    index += 1
                } else if byte == 0x0A {
                    lineFeeds += 1
                    index += 1
                } else {
                    return nil  // a control character, or a carriage return
                }
                continue
            }
            guard let length = scalarLength(text, at: index) else { return nil }
            index += length
        }
        return lineFeeds
    }

    /// The length of the well-formed UTF-8 sequence of an XML character at `index` (a lead byte ≥ 0x80), or
    /// nil: `UTF8Check`'s sequences but U+FFFE and U+FFFF, which are no XML characters.
    private static func scalarLength(_ text: UnsafeRawBufferPointer, at index: Int) -> Int? {
        guard let length = UTF8Check.validSequenceLength(text, at: index) else { return nil }
        if length == 3, text[index] == 0xEF, text[index + 1] == 0xBF, text[index + 2] >= 0xBE { return nil }
        return length
    }
}
