#if canImport(Glibc)
import Glibc
#endif

/// A long run of character data between a tag's `>` and the next `<`, which the feed parser hands to its
/// handler itself rather than through libxml2 (`XMLEventStream`), as it does CDATA sections
/// (`CDATASection`): libxml2 reads text a character at a time and calls back once per entity reference,
/// and show notes written as escaped HTML (`&lt;p&gt;…`) are little else. Only what reads one way is
/// taken: valid UTF-8 of XML characters without a carriage return (libxml2 would turn line ends into line
/// feeds), no `]]>` (an error in text), and references only to the five predefined entities or to
/// characters; anything else is left to libxml2, which reports it.
///
/// Pure: no libxml2, only bytes.
enum XMLTextRun {
    /// Runs shorter than this are left to libxml2: a call into it more costs what a short one saves.
    static let minimumLength = 256

    /// The text `run` stands for, appended to `decoded` (only when it holds a reference: otherwise the run
    /// is its own text and `decoded` is left empty), and its line feeds; nil when libxml2 must read it.
    static func decode(_ run: UnsafeRawBufferPointer, into decoded: inout [UInt8]) -> Int? {
        decoded.removeAll(keepingCapacity: true)
        if CDATASection.find(CDATASection.closing, in: run, from: 0) != nil { return nil }
        guard let base = run.baseAddress else { return 0 }
        var lineFeeds = 0
        var index = 0
        var copied = 0  // how much of `run` is in `decoded` (once a reference was seen)
        while index < run.count {
            let rest = run.count - index
            guard let found = memchr(base + index, Int32(UInt8(ascii: "&")), rest) else {
                guard let feeds = CDATASection.checkedLineFeeds(UnsafeRawBufferPointer(rebasing: run[index...])) else { return nil }
                lineFeeds += feeds
                break
            }
            let ampersand = base.distance(to: UnsafeRawPointer(found))
            guard let feeds = CDATASection.checkedLineFeeds(UnsafeRawBufferPointer(rebasing: run[index..<ampersand])),
                  let (scalar, length) = reference(run, at: ampersand) else { return nil }
            lineFeeds += feeds
            decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: run[copied..<ampersand]))
            appendUTF8(scalar, to: &decoded)
            index = ampersand + length
            copied = index
        }
        if copied > 0 { decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: run[copied...])) }
        return lineFeeds
    }

    /// The character a reference at `at` (`&lt;`, `&#233;`, `&#xE9;`) stands for and the reference's
    /// length; nil for any other entity, a malformed reference or one to no XML character.
    static func reference(_ run: UnsafeRawBufferPointer, at start: Int) -> (UInt32, Int)? {
        var end = start + 1
        while end < run.count, end - start <= 12, run[end] != UInt8(ascii: ";") { end += 1 }
        guard end < run.count, run[end] == UInt8(ascii: ";"), end > start + 1 else { return nil }
        let name = UnsafeRawBufferPointer(rebasing: run[(start + 1)..<end])
        let length = end - start + 1
        if name[0] == UInt8(ascii: "#") {
            var value: UInt32 = 0
            let hex = name.count > 1 && name[1] == UInt8(ascii: "x")
            let digits = UnsafeRawBufferPointer(rebasing: name[(hex ? 2 : 1)...])
            guard !digits.isEmpty, digits.count <= 8 else { return nil }
            for digit in digits {
                let number: UInt32
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): number = UInt32(digit - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: number = UInt32(digit - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: number = UInt32(digit - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value * (hex ? 16 : 10) + number
            }
            switch value {
            case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return (value, length)
            default: return nil
            }
        }
        for (entity, scalar) in predefined where entity.count == name.count && entity.elementsEqual(name) {
            return (scalar, length)
        }
        return nil
    }

    private static let predefined: [([UInt8], UInt32)] = [
        (Array("lt".utf8), 0x3C), (Array("gt".utf8), 0x3E), (Array("amp".utf8), 0x26),
        (Array("quot".utf8), 0x22), (Array("apos".utf8), 0x27),
    ]

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            out.append(UInt8(scalar))
        case ..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case ..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
