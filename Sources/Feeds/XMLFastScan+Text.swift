import EarshotCore
#if canImport(Glibc)
import Glibc
#endif

/// Character data: text between tags, CDATA sections and references.
extension XMLFastScan {
    /// Text up to the next markup, then that markup.
    mutating func content() throws {
        // The document ends inside an element (unless a piece of a split read ends here).
        guard index < count || meetAt == count else { throw Unsupported() }
        let start = index
        let less = nextMarkup(from: index)
        if less > meetAt {
            // A split read's meeting point passed inside a CDATA section or comment (the piece after it
            // started in the wrong place): said before any byte after it is changed.
            meetAt = Int.max
            meeting?.passed()
        }
        try validate(through: less)
        if less > start { try text(start..<less) }
        index = less
        if less == meetAt {
            // A split read's meeting point, reached as markup.
            meetAt = Int.max
            switch meeting?.reached(context(withHeader: false)) {
            case .stop?:
                stoppedAtMeeting = true
                return
            case .readOn(let next)?:
                meetAt = next
            case nil:
                break
            }
        }
        guard index < count else { throw Unsupported() }
        let next = index + 1 < count ? bytes[index + 1] : 0
        switch next {
        case UInt8(ascii: "/"): try endTag()
        case UInt8(ascii: "!"):
            if starts(with: "<![CDATA[") { try cdata() } else if !(try miscellany()) { throw Unsupported() }
        case UInt8(ascii: "?"): guard try miscellany() else { throw Unsupported() }
        default: try startTag()
        }
    }

    /// The next `<` at or after `from` (`count`: none). Between tags there is mostly a line end and some
    /// indentation: sixteen bytes are looked at in place before memchr is called.
    @inline(__always)
    func nextMarkup(from: Int) -> Int {
        var at = from
        for _ in 0..<2 where at + 8 <= count {
            let word = UnsafeRawPointer(bytes + at).loadUnaligned(as: UInt64.self).littleEndian
            let less = ByteWord.equal(word, UInt8(ascii: "<"))
            if less != 0 { return at + (less.trailingZeroBitCount >> 3) }
            at += 8
        }
        return document.nextIndex(of: UInt8(ascii: "<"), from: at) ?? count
    }

    /// Character data: references decoded, line ends made line feeds, in place.
    mutating func text(_ range: Range<Int>) throws {
        var read = range.lowerBound
        var write = read
        while read < range.upperBound {
            let byte = bytes[read]
            switch byte {
            case UInt8(ascii: "&"):
                let end = try reference(at: read, limit: range.upperBound, into: &write, inAttribute: false)
                read = end
            case 0x0D:
                bytes[write] = 0x0A
                write += 1
                read += read + 1 < range.upperBound && bytes[read + 1] == 0x0A ? 2 : 1
            case UInt8(ascii: "]"):
                // "]]>" may not stand in text.
                if read + 2 < range.upperBound, bytes[read + 1] == UInt8(ascii: "]"), bytes[read + 2] == UInt8(ascii: ">") {
                    throw Unsupported()
                }
                bytes[write] = byte
                write += 1
                read += 1
            default:
                // The common case: a run of plain bytes, copied (or left, while nothing was decoded yet),
                // found eight bytes at a time.
                var end = read + 1
                while end + 8 <= range.upperBound {
                    let word = UnsafeRawPointer(bytes + end).loadUnaligned(as: UInt64.self).littleEndian
                    if ByteWord.equal(word, UInt8(ascii: "&")) | ByteWord.equal(word, 0x0D) | ByteWord.equal(word, UInt8(ascii: "]")) != 0 { break }
                    end += 8
                }
                while end < range.upperBound {
                    let b = bytes[end]
                    if b == UInt8(ascii: "&") || b == 0x0D || b == UInt8(ascii: "]") { break }
                    end += 1
                }
                if write != read { memmove(bytes + write, bytes + read, end - read) }
                write += end - read
                read = end
            }
        }
        if write > range.lowerBound {
            let text = UnsafeBufferPointer(start: UnsafePointer(bytes + range.lowerBound), count: write - range.lowerBound)
            emit { handler, _ in handler.characters(inDocument: text) }
        }
    }

    /// `<![CDATA[…]]>` at `index`: its text as written (libxml2 2.9's push parser hands a section's
    /// carriage returns over as they are).
    mutating func cdata() throws {
        let start = index + 9
        guard let end = find("]]>", from: start), end - start < Self.maximumTokenLength else { throw Unsupported() }
        try validate(through: end + 3)
        if end > start {
            let text = UnsafeBufferPointer(start: UnsafePointer(bytes + start), count: end - start)
            emit { handler, _ in handler.characters(inDocument: text) }
        }
        index = end + 3
    }

    /// A reference at `at` (an `&`) within `limit`: decoded to `write` (advanced); returns where it ends.
    /// In an attribute value an `&` it produces is written `&#38;`, as libxml2 hands it over.
    func reference(at: Int, limit: Int, into write: inout Int, inAttribute: Bool) throws -> Int {
        // A character reference or one of the five predefined entities, read as text runs read them; any
        // other entity only a document type could declare: libxml2's to report.
        guard let (scalar, length) = XMLTextRun.reference(UnsafeRawBufferPointer(start: bytes, count: limit), at: at)
        else { throw Unsupported() }
        if inAttribute, scalar == 0x26 {
            for byte in "&#38;".utf8 {
                bytes[write] = byte
                write += 1
            }
        } else {
            write += Self.encode(scalar, into: bytes + write)  // never longer than the reference
        }
        return at + length
    }

    /// Writes `scalar` as UTF-8; returns how many bytes.
    static func encode(_ scalar: UInt32, into target: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case ..<0x80:
            target[0] = UInt8(scalar)
            return 1
        case ..<0x800:
            target[0] = UInt8(0xC0 | scalar >> 6)
            target[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            target[0] = UInt8(0xE0 | scalar >> 12)
            target[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            target[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            target[0] = UInt8(0xF0 | scalar >> 18)
            target[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            target[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            target[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
