import EarshotCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads a feed that is plainly well-formed XML in UTF-8 without libxml2, handing the same events to the
/// same handler (`FeedEvents`, or a `FeedTape`): the fast way for the documents nearly every publisher
/// writes. Anything else — another encoding, a document type declaration, an entity other than the five
/// predefined ones, a name that is not ASCII, a mismatched tag, a control character, invalid UTF-8,
/// libxml2's own limits (depth 256, 50,000-byte names, 10 MB tokens) — and the scan stops and says so:
/// the caller then reads the document with libxml2 from its start (`FeedParser`), which reports and
/// recovers from what is wrong as it always has. A document either is read here completely, with
/// libxml2's events, or is left to libxml2: nothing is ever read two ways.
///
/// What libxml2's SAX2 parser (with Earshot's options: no entity substitution) hands over, done here:
/// line ends read as line feeds (`\r\n` and a lone `\r`) outside CDATA sections; character references and the predefined
/// entities decoded in text; in attribute values the same, except that an `&` they produce is handed
/// over as `&#38;` (as libxml2 does without substitution), and whitespace characters written in a
/// value read as spaces; namespaces resolved (a prefix never declared keeps its name and no URI;
/// `xml:` is predefined); `xmlns` attributes are declarations, not attributes; CDATA sections are text.
///
/// Works in place on the document's bytes (the caller's mutable copy): names are NUL-terminated where
/// they end and values and text decoded where they lie (decoding never lengthens anything), so an event
/// costs no allocation and every pointer stays valid for the whole parse.
struct XMLFastScan {
    let bytes: UnsafeMutablePointer<UInt8>
    let count: Int
    // Unmanaged: `read` holds both for the whole scan, and a retain and release per event (what loading
    // an `unowned(unsafe)` reference for a call costs) showed.
    let stream: Unmanaged<XMLEventStream>
    var index = 0
    /// `byteClasses`, held here so the hot loops read it without a check that it is set up.
    let classes: UnsafePointer<UInt8>

    struct Open: Equatable {
        var prefix: Range<Int>?
        var local: Range<Int>
        var namespaceURI: UnsafePointer<UInt8>?
        /// How many namespace bindings it declared.
        var bindings: Int
    }

    struct Binding: Equatable {
        /// The prefix's bytes; empty for the default namespace.
        var prefix: Range<Int>
        /// NUL-terminated; nil for `xmlns=""` (no default namespace).
        var uri: UnsafePointer<UInt8>?
    }

    /// An attribute of the current start tag as written: its name's parts and its value (decoded).
    struct Written {
        var prefix: Range<Int>?
        var local: Range<Int>
        var value: Range<Int>
    }

    /// The open elements, innermost last: a stack of `maximumDepth` at most, allocated once (an array's
    /// uniqueness checks on every push and pop showed).
    var open: UnsafeMutablePointer<Open>
    var depth = 0
    var bindings: [Binding] = []
    /// The bytes before this were checked (`checkText`); the scan checks a block ahead of where it reads,
    /// so the rules' thread gets its first events without waiting for a pass over the whole document.
    var validated = 0
    static let validationBlock = 64 << 10
    /// The current start tag's attributes as written (reused from tag to tag).
    var written: UnsafeMutablePointer<Written>
    var writtenCapacity = 16
    /// libxml2's attribute layout: five pointers per attribute (local name, prefix, URI, value, value end).
    var attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    var attributeCapacity = 16
    /// Where a split read's next piece starts (`XMLFastScan+Split`): the offset of its `<` (`Int.max`:
    /// none), and who is told when the scan gets there.
    var meetAt = Int.max
    var meeting: Meeting?
    /// Whether the first start tag of the meeting's name is still to come (when the context is taken).
    var awaitsFirst = false
    /// Whether the scan stopped where a piece read elsewhere starts.
    var stoppedAtMeeting = false

    /// Documents up to this size are read whole and scanned; larger ones (which `FeedFile` reads a
    /// chunk at a time, so their bytes are never all held) go to libxml2.
    static let documentLimit = 8 << 20
    /// Documents from this size on have their references checked before the scan (`read`).
    static let referenceCheckSize = 64 << 10

    /// libxml2's limits without `XML_PARSE_HUGE`, past which it reports an error (left to it).
    static let maximumDepth = 200  // below libxml2's 256: what is near it is left to libxml2
    static let maximumNameLength = 50_000
    static let maximumTokenLength = 10_000_000

    /// The namespace of the predefined `xml:` prefix. A literal's bytes are NUL-terminated and live as
    /// long as the program: its `utf8Start` is what libxml2's own pointer to it would be.
    static let xmlNamespace: StaticString = "http://www.w3.org/XML/1998/namespace"

    /// Why a scan stopped without reading the document: it is one for libxml2.
    struct Unsupported: Error {}

    init(_ document: UnsafeMutableRawBufferPointer, stream: XMLEventStream) {
        bytes = document.baseAddress!.assumingMemoryBound(to: UInt8.self)
        count = document.count
        self.stream = Unmanaged.passUnretained(stream)
        classes = Self.byteClasses
        attributes = .allocate(capacity: attributeCapacity * 5)
        written = .allocate(capacity: writtenCapacity)
        open = .allocate(capacity: Self.maximumDepth + 1)
        bindings.reserveCapacity(16)
    }

    func deallocate() {
        attributes.deallocate()
        written.deallocate()
        open.deallocate()
    }

    /// Hands an event to the handler, the stream borrowed (a `let` of it: neither is retained).
    @inline(__always)
    func emit(_ event: (XMLEventHandler, XMLEventStream) -> Void) {
        stream._withUnsafeGuaranteedRef { event($0.handler, $0) }
    }

    /// Whether a handler stopped the stream.
    var isStopped: Bool { stream._withUnsafeGuaranteedRef { $0.isStopped } }

    /// Reads `document` (changing its bytes), calling `handler` for every event, and returns true; or
    /// returns false as soon as it meets something it leaves to libxml2, the events so far having been
    /// handed over (the caller starts again). A handler that stops the stream (`XMLEventStream.stop`)
    /// ends the read there, which counts as read.
    ///
    /// With `meeting`, the scan tells it when it gets to where the next piece of a split read starts,
    /// and stops there when told to (`XMLFastScan+Split`).
    ///
    /// `referencesChecked`: the caller made sure of the document's references (`referencesAreReadable`),
    /// as a split read does on both threads at once. A document under `referenceCheckSize` is not
    /// checked first: the scan reads every reference itself and gives up on one it cannot read, and
    /// what it read before that costs less than the check costs every document that passes it.
    static func read(_ document: UnsafeMutableRawBufferPointer, handler: XMLEventHandler, meeting: Meeting? = nil,
                     referencesChecked: Bool = false) -> Bool {
        guard document.count > 0 else { return false }
        if !referencesChecked, document.count >= referenceCheckSize, !referencesAreReadable(UnsafeRawBufferPointer(document)) {
            return false
        }
        let stream = XMLEventStream.scanning(handler: handler)
        var scan = XMLFastScan(document, stream: stream)
        defer { scan.deallocate() }
        if let meeting {
            scan.meeting = meeting
            scan.meetAt = meeting.offset
            scan.awaitsFirst = true
        }
        do {
            try scan.run()
            return true
        } catch {
            return false
        }
    }

    // MARK: The document

    /// Makes sure the bytes before `end` were checked, a block at a time: bytes are checked before they
    /// are changed in place or handed over, and the scan succeeds only once all are.
    mutating func validate(through end: Int) throws {
        while validated < end {
            let to = min(count, max(end, validated + Self.validationBlock))
            guard let reached = Self.checkText(UnsafeRawBufferPointer(start: bytes, count: count), from: validated, to: to)
            else { throw Unsupported() }
            validated = reached
        }
    }

    mutating func run() throws {
        try validate(through: min(count, Self.validationBlock))
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }  // UTF-8's byte order mark
        if starts(with: "<?xml"), index + 5 < count, isSpace(bytes[index + 5]) { try declaration() }
        // Before the root: whitespace, comments, processing instructions.
        while true {
            skipSpaces()
            guard index < count, bytes[index] == UInt8(ascii: "<") else { throw Unsupported() }
            if try miscellany() { continue }
            break
        }
        try startTag()
        try readToEnd()
    }

    /// The content of the open elements, then what follows the root.
    mutating func readToEnd() throws {
        while depth > 0, !isStopped, !stoppedAtMeeting {
            try content()
        }
        if isStopped || stoppedAtMeeting { return }
        // After the root: the same as before it, and nothing else.
        while true {
            skipSpaces()
            guard index < count else { break }
            guard bytes[index] == UInt8(ascii: "<"), try miscellany() else { throw Unsupported() }
        }
        try validate(through: count)
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, exactly so (encoding and standalone
    /// optional, spaces where XML allows them): version 1.0, UTF-8 or no encoding said.
    mutating func declaration() throws {
        guard let end = find("?>", from: index) else { throw Unsupported() }
        // Read in place, compared with literals: arrays and strings of it cost a tenth of a small feed's
        // set-up.
        let text = UnsafeBufferPointer(start: bytes + index + 5, count: end - index - 5)
        index = end + 2
        var at = 0
        /// Whether `text[range]` is `literal` (ASCII letters in either case with `anyCase`).
        func matches(_ range: Range<Int>, _ literal: StaticString, anyCase: Bool = false) -> Bool {
            guard range.count == literal.utf8CodeUnitCount else { return false }
            for offset in 0..<range.count {
                var byte = text[range.lowerBound + offset]
                if anyCase, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
                if byte != literal.utf8Start[offset] { return false }
            }
            return true
        }
        /// ` name = "value"` at `at`: where the value is, `at` moved past it; nil (and `at` kept) when not there.
        func pseudoAttribute(_ name: StaticString) -> Range<Int>? {
            var cursor = at
            guard cursor < text.count, isSpace(text[cursor]) else { return nil }
            while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
            let length = name.utf8CodeUnitCount
            guard cursor + length <= text.count, matches(cursor..<cursor + length, name) else { return nil }
            cursor += length
            while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
            guard cursor < text.count, text[cursor] == UInt8(ascii: "=") else { return nil }
            cursor += 1
            while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
            guard cursor < text.count, text[cursor] == 0x22 || text[cursor] == 0x27 else { return nil }
            let quote = text[cursor]
            var close = cursor + 1
            while close < text.count, text[close] != quote { close += 1 }
            guard close < text.count else { return nil }
            at = close + 1
            return (cursor + 1)..<close
        }
        guard let version = pseudoAttribute("version"), matches(version, "1.0") else { throw Unsupported() }
        if let encoding = pseudoAttribute("encoding") {
            guard matches(encoding, "utf-8", anyCase: true) else { throw Unsupported() }
        }
        if let standalone = pseudoAttribute("standalone") {
            guard matches(standalone, "yes") || matches(standalone, "no") else { throw Unsupported() }
        }
        while at < text.count, isSpace(text[at]) { at += 1 }
        guard at == text.count else { throw Unsupported() }
    }

    /// A comment or a processing instruction at `index` (a `<`), skipped: true. Anything else: false.
    mutating func miscellany() throws -> Bool {
        if starts(with: "<!--") {
            guard let end = find("--", from: index + 4), end + 2 < count, bytes[end + 2] == UInt8(ascii: ">"),
                  end - index < Self.maximumTokenLength else { throw Unsupported() }
            index = end + 3
            return true
        }
        if starts(with: "<?") {
            // A target that is a name and not "xml" in any case (only the declaration may be that).
            let nameStart = index + 2
            let nameEnd = nameEnd(from: nameStart)
            guard nameEnd > nameStart, !(nameEnd - nameStart == 3 && (bytes[nameStart] | 0x20) == UInt8(ascii: "x")
                && (bytes[nameStart + 1] | 0x20) == UInt8(ascii: "m") && (bytes[nameStart + 2] | 0x20) == UInt8(ascii: "l")),
                  nameEnd < count, isSpace(bytes[nameEnd]) || bytes[nameEnd] == UInt8(ascii: "?"),
                  let end = find("?>", from: nameEnd), end - index < Self.maximumTokenLength else { throw Unsupported() }
            index = end + 2
            return true
        }
        if starts(with: "<!") { throw Unsupported() }  // a document type declaration, or worse
        return false
    }

    // MARK: Bytes

    /// Whether the bytes at `a` and `b` are the same (names: a prefix's or a local name's bytes, which
    /// a NUL written after them does not change).
    @inline(__always)
    func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        // Names are short and mostly differ early: a call to memcmp only for names that might match.
        guard a.count == b.count else { return false }
        guard a.count > 0 else { return true }
        return bytes[a.lowerBound] == bytes[b.lowerBound] && memcmp(bytes + a.lowerBound, bytes + b.lowerBound, a.count) == 0
    }

    func same(_ a: Range<Int>?, _ b: Range<Int>?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return same(a, b)
        default: return false
        }
    }

    func spells(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { text in
            range.count == text.count && memcmp(bytes + range.lowerBound, text.baseAddress!, text.count) == 0
        }
    }

    func starts(with literal: StaticString) -> Bool {
        literal.withUTF8Buffer { text in
            index + text.count <= count && memcmp(bytes + index, text.baseAddress!, text.count) == 0
        }
    }

    /// The document's bytes as a buffer.
    var document: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }

    /// The first `literal` at or after `from`.
    func find(_ literal: StaticString, from: Int) -> Int? {
        CDATASection.find(literal, in: UnsafeRawBufferPointer(document), from: from)
    }

    mutating func skipSpaces() {
        index = spacesEnd(from: index)
    }

    /// Where the whitespace at `start` ends: indentation (attributes a line each) eight spaces at a time.
    @inline(__always)
    func spacesEnd(from start: Int) -> Int {
        var at = start
        while at < count, isSpace(bytes[at]) {
            at = ByteWord.pastSpaceWords(document, from: at + 1)
        }
        return at
    }

    @inline(__always) func isSpace(_ byte: UInt8) -> Bool { classes[Int(byte)] & Self.spaceClass != 0 }

    /// What each byte is to the scan, one bit per class: one load and one test per byte in the loops.
    static let nameStartClass: UInt8 = 1
    static let nameClass: UInt8 = 2  // not `:`, which names test for on its own
    static let spaceClass: UInt8 = 4
    // Written once, when first used, and only read after: safe to share.
    nonisolated(unsafe) static let byteClasses: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for byte in 0..<256 {
            let b = UInt8(byte)
            var classes: UInt8 = 0
            if isNameStart(b) { classes |= nameStartClass }
            if isNameCharacter(b), b != UInt8(ascii: ":") { classes |= nameClass }
            if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D { classes |= spaceClass }
            table[byte] = classes
        }
        return UnsafePointer(table)
    }()

    /// Bit sets over ASCII (low: 0–63, high: 64–127): one shift and mask per byte.
    @inline(__always)
    static func isIn(_ byte: UInt8, low: UInt64, high: UInt64) -> Bool {
        byte < 0x80 && (byte < 0x40 ? low : high) >> UInt64(byte & 0x3F) & 1 != 0
    }

    static let letters: UInt64 = 0x07FF_FFFE | 0x07FF_FFFE << 32  // A–Z, a–z (0x41–0x5A, 0x61–0x7A)
    /// A–Z, `_`, a–z.
    static let nameStartHigh: UInt64 = letters | 1 << (0x5F - 0x40)
    /// `-`, `.`, 0–9, `:`.
    static let nameLow: UInt64 = 1 << 0x2D | 1 << 0x2E | (0x3FF as UInt64) << 0x30 | 1 << 0x3A
    /// `<`, `&`, tab, line feed, carriage return: what a value's bytes are decoded or normalized for.
    static let valueWorkLow: UInt64 = 1 << 0x3C | 1 << 0x26 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0D

    @inline(__always) static func isNameStart(_ byte: UInt8) -> Bool { isIn(byte, low: 0, high: nameStartHigh) }
    @inline(__always) static func isNameCharacter(_ byte: UInt8) -> Bool { isIn(byte, low: nameLow, high: nameStartHigh) }
    @inline(__always) static func needsWorkInValue(_ byte: UInt8) -> Bool { byte < 0x40 && valueWorkLow >> UInt64(byte) & 1 != 0 }
}
