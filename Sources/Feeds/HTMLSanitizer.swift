import EarshotCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The single pass behind `ShowNotes.sanitize`: a lenient HTML tokenizer (comments, bogus comments,
/// raw-text elements, quoted attributes, character references, as browsers read them) feeding a small
/// tree builder that keeps only the allowlisted elements (`NoteElement`) and attributes.
///
/// The output is `SanitizedHTML`: only kept elements and attributes, every value and text escaped, so
/// it reads back into exactly the tree those elements make (and a page only ever gets that tree, never
/// markup). The work is linear in the input (every search either consumes what it finds or ends the
/// input), and the tree is at most `maxDepth` deep, so encoding it can never exhaust the stack.
struct HTMLSanitizer {
    /// Deeper elements are unwrapped (their text kept).
    static let maxDepth = 24

    struct Open {
        let element: NoteElement
        /// Where its start tag begins in the output, and where its content begins (after the tag).
        let start: Int
        let contentStart: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let baseURL: URL?
    var index = 0
    var stack: [Open] = [Open(element: .root, start: 0, contentStart: 0)]
    /// The sanitized HTML so far. A start tag is written when its element opens and taken back if the
    /// element closes with nothing in it.
    var out = SanitizedHTML.Writer()
    /// Whitespace was seen: a space goes out before the next text, unless a line starts there.
    var pendingSpace = false
    /// A block began or ended, or a line break was made: whitespace here is not shown.
    var atLineStart = true
    /// An unwrapped block (a `div`) ended a line: a `br` goes out before the next content.
    var pendingBreak = false
    /// `<![CDATA[` openers seen, whose `]]>` is dropped.
    var openCDATA = 0
    /// `Scratch.inputIsValidUTF8`.
    var inputIsValidUTF8 = false
    /// The address of the link or image being opened (`keepURL`), when it was decoded or resolved.
    var url: [UInt8] = []
    /// Where the address stands in the notes when it is kept as it is written (nearly always).
    var urlInNotes: Range<Int>?
    /// The address holds nothing an attribute value escapes, or is escaped already (`&amp;` its only
    /// reference; `keepURL` looked): it is written as it is.
    var urlIsPlain = false
    /// The `alt` of the image being added (`keepAlternative`), when it was decoded or squashed.
    var alt: [UInt8] = []
    /// Where the `alt` stands in the notes when it shows as it is written (nearly always).
    var altInNotes: Range<Int>?

    /// The buffers one pass leaves to the next: a feed sanitizes thousands of notes in a row.
    struct Scratch {
        var stack: [Open] = []
        var out: [UInt8] = []
        var url: [UInt8] = []
        var alt: [UInt8] = []
        /// The bytes to sanitize are well-formed UTF-8 (a `String`'s, or text `XMLFastScan` checked): the
        /// output, made of runs of them cut at ASCII bytes, of ASCII and of encoded scalars, is then too,
        /// and is not checked again (a large feed's notes are megabytes).
        var inputIsValidUTF8 = false
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, baseURL: URL?) {
        self.bytes = bytes
        self.baseURL = baseURL
    }

    /// Runs over the bytes with `scratch`'s buffers, which keep their capacity for the next run.
    mutating func run(reusing scratch: inout Scratch) -> SanitizedHTML {
        inputIsValidUTF8 = scratch.inputIsValidUTF8
        swap(&stack, &scratch.stack)
        swap(&url, &scratch.url)
        swap(&alt, &scratch.alt)
        out = SanitizedHTML.Writer()
        out.reuse(&scratch.out)
        // The output is nearly always shorter than the input (attributes dropped, whitespace squashed).
        out.reserve(bytes.count + bytes.count / 8 + 64)
        stack.removeAll(keepingCapacity: true)
        stack.reserveCapacity(8)  // notes nest a few deep (a list's item's link): grown from one, three allocations a feed
        stack.append(Open(element: .root, start: 0, contentStart: 0))
        let result = run()
        swap(&stack, &scratch.stack)
        swap(&url, &scratch.url)
        swap(&alt, &scratch.alt)
        scratch.out = out.takeBuffer()
        return result
    }

    private mutating func run() -> SanitizedHTML {
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"):
                markup()
            case UInt8(ascii: "&"):
                textReference()
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
                pendingSpace = true
                index = Self.pastBlanks(bytes, from: index + 1)
            case 0x00...0x1F, 0x7F:
                index += 1  // control characters say nothing
            case UInt8(ascii: "]") where openCDATA > 0 && Self.matches(bytes, "]]>", at: index):
                openCDATA -= 1
                index += 3
            case UInt8(ascii: ">"), UInt8(ascii: "]"):
                beforeContent()
                out.text(byte: byte)  // escaped
                index += 1
            default:
                // A run of ordinary bytes, single spaces between words included, is copied in one go:
                // it holds nothing to escape.
                let start = index
                let end = Self.endOfRun(bytes, from: start + 1)
                index = end
                beforeContent()
                out.text(escaped: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            }
        }
        while stack.count > 1 { popTop() }
        dropTrailingBreaks(from: 0)
        return SanitizedHTML(writtenBy: out, checking: !inputIsValidUTF8)
    }

    /// Past the bytes from `start` up to 0x20 (whitespace and control characters): within a run of
    /// whitespace none of them changes anything (a space is pending already, a control character says
    /// nothing). Eight a step: the lines and indentation between tags were a turn of the loop a byte.
    static func pastBlanks(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let others = ~ByteWord.below(ByteWord.load(bytes, at: index), 0x21) & ByteWord.highs
            if others != 0 { return index + others.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < bytes.count, bytes[index] <= 0x20 { index += 1 }
        return index
    }

    /// Where a run of ordinary bytes starting before `start` ends (a local loop: the hot one).
    static func endOfRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteWord.endOfRun(bytes, from: start, stops: { word in
            // `<` and `>` differ only in bit 1: one test finds both.
            ByteWord.below(word, 0x21) | ByteWord.equal(word | ByteWord.ones &* 2, UInt8(ascii: ">"))
                | ByteWord.equal(word, UInt8(ascii: "&")) | ByteWord.equal(word, UInt8(ascii: "]"))
                | ByteWord.equal(word, 0x7F)
        }, isOrdinary: isOrdinary)
    }

    /// Not whitespace, a control character, `]` (the end of a wrapped CDATA section) or a character
    /// the output escapes (`<`, `&`, `>`): one bit each in `ordinaryBits`.
    @inline(__always)
    static func isOrdinary(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte < 0x40 ? ordinaryLow : ordinaryHigh) >> UInt64(byte & 0x3F) & 1 != 0
    }

    /// Bits 0x21–0x3F but `&`, `<`, `>`; bits 0x40–0x7E but `]`.
    private static let ordinaryLow: UInt64 = ~0 << 0x21 & ~(1 << 0x26 | 1 << 0x3C | 1 << 0x3E)
    private static let ordinaryHigh: UInt64 = ~0 >> 1 & ~(1 << (0x5D - 0x40))

    // MARK: Text

    /// A character reference in text, or a lone `&`.
    private mutating func textReference() {
        guard let (value, end) = HTMLEntities.decode(bytes, at: index, inAttribute: false) else {
            beforeContent()
            out.text(byte: UInt8(ascii: "&"))
            index += 1
            return
        }
        index = end
        switch value {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D: pendingSpace = true
        case 0x00...0x1F, 0x7F: break
        default:
            beforeContent()
            out.text(scalar: value)
        }
    }

    /// Settles pending line breaks and spaces before something is added at the current place.
    mutating func resolvePending() {
        if pendingBreak {
            pendingBreak = false
            appendBreak()
            atLineStart = true
            pendingSpace = false
        }
        if pendingSpace {
            pendingSpace = false
            if !atLineStart { out.text(byte: 0x20) }
        }
    }

    /// Before visible content (text, an image).
    mutating func beforeContent() {
        if pendingBreak || pendingSpace { resolvePending() }
        atLineStart = false
    }

    /// A line break in the current element.
    mutating func appendBreak() {
        out.markup(NoteElement.br.startTag)
    }

    /// Writes to `out` with the address `keepURL` kept (where it stands in the notes, or in `url`) and
    /// whether it needs escaping. `out` is handed to `write`, not captured: a closure capturing it
    /// borrowed the whole sanitizer, and each write then copied the output written so far.
    mutating func writeWithKeptURL(_ write: (inout SanitizedHTML.Writer, UnsafeBufferPointer<UInt8>, Bool) -> Void) {
        let escaping = !urlIsPlain
        if let range = urlInNotes {
            write(&out, UnsafeBufferPointer(rebasing: bytes[range]), escaping)
        } else {
            url.withUnsafeBufferPointer { write(&out, $0, escaping) }
        }
    }

    /// An image in the current element, its address the one `keepURL` kept, its `alt` the one
    /// `keepAlternative` kept when `withAlternative`.
    mutating func appendImage(withAlternative: Bool) {
        guard withAlternative else {
            writeWithKeptURL { $0.markup(Self.imageSource, $1, escaping: $2, Self.tagEnd) }
            return
        }
        // Attributes in name order: `alt`, then `src`.
        if let range = altInNotes {
            let alt = UnsafeBufferPointer(rebasing: bytes[range])
            writeWithKeptURL { $0.markup(Self.imageAlternative, alt, escaping: true, Self.thenSource, $1, escapingSecond: $2, Self.tagEnd) }
        } else {
            // `alt` is lent to the writer by a copy of its reference: the array itself is not borrowed
            // while `out` is written.
            let text = alt
            text.withUnsafeBufferPointer { alt in
                writeWithKeptURL { $0.markup(Self.imageAlternative, alt, escaping: true, Self.thenSource, $1, escapingSecond: $2, Self.tagEnd) }
            }
        }
    }

    // The markup around links' and images' attribute values, packed (`ShowNotesTests` holds each to its
    // text): `<a href="`, `<img src="`, `<img alt="`, `" src="`, `">`.
    static var linkStart: SanitizedHTML.Writer.Markup { .init(low: 0x3d6665726820613c, high: 0x22, count: 9) }
    static var imageSource: SanitizedHTML.Writer.Markup { .init(low: 0x63727320676d693c, high: 0x223d, count: 10) }
    static var imageAlternative: SanitizedHTML.Writer.Markup { .init(low: 0x746c6120676d693c, high: 0x223d, count: 10) }
    static var thenSource: SanitizedHTML.Writer.Markup { .init(low: 0x223d6372732022, high: 0, count: 7) }
    static var tagEnd: SanitizedHTML.Writer.Markup { .init(low: 0x3e22, high: 0, count: 2) }

    /// Whether the current element already shows something.
    var currentHasContent: Bool {
        @inline(__always) get { out.count > stack[stack.count - 1].contentStart }
    }

    // MARK: Tree

    /// Opens `element` inside the current one (a link with its `href` the address `keepURL` kept).
    mutating func push(_ element: NoteElement) {
        let start = out.count
        if element == .a {
            writeWithKeptURL { $0.markup(Self.linkStart, $1, escaping: $2, Self.tagEnd) }
        } else {
            out.markup(element.startTag)
        }
        stack.append(Open(element: element, start: start, contentStart: out.count))
    }

    /// Closes the current element; an element left empty is taken back.
    mutating func popTop() {
        let open = stack.removeLast()
        dropTrailingBreaks(from: open.contentStart)
        if out.count == open.contentStart {
            out.truncate(to: open.start)
        } else {
            out.markup(open.element.endTag)
        }
    }

    /// Line breaks that end an element break nothing (feeds pad their notes with them). Text that reads
    /// `<br>` is written escaped, so the output ending in `<br>` is always a break element.
    mutating func dropTrailingBreaks(from contentStart: Int) {
        while out.endsWithBreak(after: contentStart) { out.truncate(to: out.count - 4) }
    }

    /// The depth of the innermost open `element`, or nil. `stopAtLists` ends the search at a list (the
    /// scope of a list item).
    @inline(__always)
    func openDepth(of element: NoteElement, stopAtLists: Bool = false) -> Int? {
        var depth = stack.count - 1
        while depth > 0 {
            let open = stack[depth].element
            if open == element { return depth }
            if stopAtLists, open == .ul || open == .ol { return nil }
            depth -= 1
        }
        return nil
    }

    mutating func close(downTo depth: Int) {
        while stack.count > depth { popTop() }
    }

    // MARK: Byte searches

    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString, at position: Int) -> Bool {
        literal.withUTF8Buffer { pattern in
            guard position + pattern.count <= bytes.count else { return false }
            for offset in 0..<pattern.count where bytes[position + offset] != pattern[offset] { return false }
            return true
        }
    }
}
