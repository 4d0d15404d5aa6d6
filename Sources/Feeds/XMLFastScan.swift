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
    private let bytes: UnsafeMutablePointer<UInt8>
    private let count: Int
    // Unowned: `read` holds both for the whole scan, and a retain and release per event showed.
    private unowned(unsafe) let stream: XMLEventStream
    private unowned(unsafe) let handler: XMLEventHandler
    private var index = 0

    private struct Open {
        var prefix: Range<Int>?
        var local: Range<Int>
        var namespaceURI: UnsafePointer<UInt8>?
        /// How many namespace bindings it declared.
        var bindings: Int
    }

    private struct Binding {
        /// The prefix's bytes; empty for the default namespace.
        var prefix: Range<Int>
        /// NUL-terminated; nil for `xmlns=""` (no default namespace).
        var uri: UnsafePointer<UInt8>?
    }

    private var open: [Open] = []
    private var bindings: [Binding] = []
    /// The bytes before this were checked (`checkText`); the scan checks a block ahead of where it reads,
    /// so the rules' thread gets its first events without waiting for a pass over the whole document.
    private var validated = 0
    /// Where the CDATA section or comment the checked bytes end in ends (`checkText`).
    private var literalUntil = 0
    private static let validationBlock = 64 << 10
    /// The current start tag's attributes as written (reused from tag to tag).
    private var names: [(prefix: Range<Int>?, local: Range<Int>)] = []
    private var values: [Range<Int>] = []
    /// libxml2's attribute layout: five pointers per attribute (local name, prefix, URI, value, value end).
    private var attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private var attributeCapacity = 16

    /// Documents up to this size are read whole and scanned; larger ones (which `FeedFile` reads a
    /// chunk at a time, so their bytes are never all held) go to libxml2.
    static let documentLimit = 8 << 20

    /// libxml2's limits without `XML_PARSE_HUGE`, past which it reports an error (left to it).
    private static let maximumDepth = 200  // below libxml2's 256: what is near it is left to libxml2
    private static let maximumNameLength = 50_000
    private static let maximumTokenLength = 10_000_000

    /// The namespace of the predefined `xml:` prefix. A literal's bytes are NUL-terminated and live as
    /// long as the program: its `utf8Start` is what libxml2's own pointer to it would be.
    private static let xmlNamespace: StaticString = "http://www.w3.org/XML/1998/namespace"

    /// Why a scan stopped without reading the document: it is one for libxml2.
    private struct Unsupported: Error {}

    private init(_ document: UnsafeMutableRawBufferPointer, stream: XMLEventStream) {
        bytes = document.baseAddress!.assumingMemoryBound(to: UInt8.self)
        count = document.count
        self.stream = stream
        handler = stream.handler
        attributes = .allocate(capacity: attributeCapacity * 5)
        open.reserveCapacity(32)
        bindings.reserveCapacity(16)
    }

    /// Reads `document` (changing its bytes), calling `handler` for every event, and returns true; or
    /// returns false as soon as it meets something it leaves to libxml2, the events so far having been
    /// handed over (the caller starts again). A handler that stops the stream (`XMLEventStream.stop`)
    /// ends the read there, which counts as read.
    static func read(_ document: UnsafeMutableRawBufferPointer, handler: XMLEventHandler) -> Bool {
        guard document.count > 0, referencesAreReadable(UnsafeRawBufferPointer(document)) else { return false }
        let stream = XMLEventStream.scanning(handler: handler)
        var scan = XMLFastScan(document, stream: stream)
        defer { scan.attributes.deallocate() }
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
    private mutating func validate(through end: Int) throws {
        while validated < end {
            let to = min(count, max(end, validated + Self.validationBlock))
            guard let reached = Self.checkText(UnsafeRawBufferPointer(start: bytes, count: count), from: validated, to: to,
                                               literalUntil: &literalUntil) else { throw Unsupported() }
            validated = reached
        }
    }

    private mutating func run() throws {
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
        while !open.isEmpty, !stream.isStopped {
            try content()
        }
        if stream.isStopped { return }
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
    private mutating func declaration() throws {
        guard let end = find("?>", from: index) else { throw Unsupported() }
        let text = Array(UnsafeBufferPointer(start: bytes + index + 5, count: end - index - 5))
        index = end + 2
        var at = 0
        /// ` name = "value"` at `at`: the value, `at` moved past it; nil (and `at` kept) when not there.
        func pseudoAttribute(_ name: String) -> [UInt8]? {
            var cursor = at
            guard cursor < text.count, isSpace(text[cursor]) else { return nil }
            while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
            let key = Array(name.utf8)
            guard cursor + key.count <= text.count, Array(text[cursor..<cursor + key.count]) == key else { return nil }
            cursor += key.count
            while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
            guard cursor < text.count, text[cursor] == UInt8(ascii: "=") else { return nil }
            cursor += 1
            while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
            guard cursor < text.count, text[cursor] == 0x22 || text[cursor] == 0x27,
                  let close = text[(cursor + 1)...].firstIndex(of: text[cursor]) else { return nil }
            at = close + 1
            return Array(text[(cursor + 1)..<close])
        }
        guard pseudoAttribute("version") == Array("1.0".utf8) else { throw Unsupported() }
        if let encoding = pseudoAttribute("encoding") {
            let lowered = encoding.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            guard lowered == Array("utf-8".utf8) else { throw Unsupported() }
        }
        if let standalone = pseudoAttribute("standalone") {
            guard standalone == Array("yes".utf8) || standalone == Array("no".utf8) else { throw Unsupported() }
        }
        while at < text.count, isSpace(text[at]) { at += 1 }
        guard at == text.count else { throw Unsupported() }
    }

    /// A comment or a processing instruction at `index` (a `<`), skipped: true. Anything else: false.
    private mutating func miscellany() throws -> Bool {
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

    // MARK: Content

    /// Text up to the next markup, then that markup.
    private mutating func content() throws {
        guard index < count else { throw Unsupported() }  // the document ends inside an element
        let start = index
        let less: Int
        if let found = memchr(bytes + index, Int32(UInt8(ascii: "<")), count - index) {
            less = UnsafeMutablePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - bytes
        } else {
            less = count
        }
        try validate(through: less)
        if less > start { try text(start..<less) }
        index = less
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

    /// Character data: references decoded, line ends made line feeds, in place.
    private mutating func text(_ range: Range<Int>) throws {
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
            handler.characters(UnsafeBufferPointer(start: bytes + range.lowerBound, count: write - range.lowerBound))
        }
    }

    /// `<![CDATA[…]]>` at `index`: its text as written (libxml2 2.9's push parser hands a section's
    /// carriage returns over as they are).
    private mutating func cdata() throws {
        let start = index + 9
        guard let end = find("]]>", from: start), end - start < Self.maximumTokenLength else { throw Unsupported() }
        try validate(through: end + 3)
        if end > start { handler.characters(UnsafeBufferPointer(start: bytes + start, count: end - start)) }
        index = end + 3
    }

    /// A reference at `at` (an `&`) within `limit`: decoded to `write` (advanced); returns where it ends.
    /// In an attribute value an `&` it produces is written `&#38;`, as libxml2 hands it over.
    private func reference(at: Int, limit: Int, into write: inout Int, inAttribute: Bool) throws -> Int {
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
    private static func encode(_ scalar: UInt32, into target: UnsafeMutablePointer<UInt8>) -> Int {
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

    // MARK: Tags

    /// A qualified name from `start`: its prefix (nil: none) and local part; one colon at most, each
    /// part an ASCII name.
    private func qualifiedName(from start: Int) throws -> (prefix: Range<Int>?, local: Range<Int>) {
        guard start < count, Self.isNameStart(bytes[start]) else { throw Unsupported() }
        var end = start + 1
        var colon = -1
        while end < count {
            let byte = bytes[end]
            guard Self.isNameCharacter(byte) else { break }
            if byte == UInt8(ascii: ":") {
                // One colon, with a name on either side.
                guard colon < 0, end + 1 < count, Self.isNameStart(bytes[end + 1]) else { throw Unsupported() }
                colon = end
            }
            end += 1
        }
        guard end - start <= Self.maximumNameLength, end < count else { throw Unsupported() }
        return colon < 0 ? (nil, start..<end) : (start..<colon, colon + 1..<end)
    }

    /// The end of the name at `start` (`start` itself when there is none): an ASCII letter or `_` first,
    /// then letters, digits, `_`, `-`, `.` and `:`.
    private func nameEnd(from start: Int) -> Int {
        guard start < count, Self.isNameStart(bytes[start]) else { return start }
        var end = start + 1
        while end < count, Self.isNameCharacter(bytes[end]) { end += 1 }
        return end
    }

    private mutating func startTag() throws {
        let (prefix, local) = try qualifiedName(from: index + 1)
        if let prefix, spells(prefix, "xmlns") { throw Unsupported() }
        var cursor = local.upperBound
        // Attributes: name, `=`, a quoted value; at least one space before each.
        var attributeCount = 0
        var declared = 0
        names.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        var selfClosing = false
        while true {
            let spaced = cursor < count && isSpace(bytes[cursor])
            while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < count else { throw Unsupported() }
            if bytes[cursor] == UInt8(ascii: ">") {
                cursor += 1
                break
            }
            if bytes[cursor] == UInt8(ascii: "/") {
                guard cursor + 1 < count, bytes[cursor + 1] == UInt8(ascii: ">") else { throw Unsupported() }
                selfClosing = true
                cursor += 2
                break
            }
            guard spaced else { throw Unsupported() }
            let name = try qualifiedName(from: cursor)
            cursor = name.local.upperBound
            while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < count, bytes[cursor] == UInt8(ascii: "=") else { throw Unsupported() }
            cursor += 1
            while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < count, bytes[cursor] == 0x22 || bytes[cursor] == 0x27 else { throw Unsupported() }
            let quote = bytes[cursor]
            let valueStart = cursor + 1
            guard let found = memchr(bytes + valueStart, Int32(quote), count - valueStart) else { throw Unsupported() }
            let valueEnd = UnsafeMutablePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - bytes
            guard valueEnd - valueStart < Self.maximumTokenLength else { throw Unsupported() }
            // Bytes are checked before they are changed in place (what decoding leaves is not UTF-8).
            try validate(through: valueEnd + 1)
            let decodedEnd = try attributeValue(valueStart..<valueEnd)
            cursor = valueEnd + 1
            // A name written twice is an error (libxml2's to report).
            for earlier in names where same(earlier.local, name.local) && same(earlier.prefix, name.prefix) {
                throw Unsupported()
            }
            names.append(name)
            values.append(valueStart..<decodedEnd)
        }
        try validate(through: cursor)  // before the names are ended in place
        // Namespace declarations first: they apply to the element's own name and attributes.
        let bindingsBefore = bindings.count
        for (offset, name) in names.enumerated() where isDeclaration(name) {
            let isDefault = name.prefix == nil
            let isPrefixed = !isDefault
            let value = values[offset]
            if isPrefixed {
                // `xmlns:p=""`, and `xml`/`xmlns` declared, are errors; a prefix declared twice too.
                guard !value.isEmpty, !spells(name.local, "xml"), !spells(name.local, "xmlns"),
                      !bindings[bindingsBefore...].contains(where: { same($0.prefix, name.local) }) else { throw Unsupported() }
            } else if value.isEmpty {
                guard !bindings[bindingsBefore...].contains(where: { $0.prefix.isEmpty }) else { throw Unsupported() }
                bindings.append(Binding(prefix: name.local.lowerBound..<name.local.lowerBound, uri: nil))
                declared += 1
                continue
            }
            if isDefault, bindings[bindingsBefore...].contains(where: { $0.prefix.isEmpty }) { throw Unsupported() }
            // Binding the names `xml:` and `xmlns:` stand for: libxml2 refuses it (its to report).
            if spells(value, "http://www.w3.org/XML/1998/namespace") || spells(value, "http://www.w3.org/2000/xmlns/") {
                throw Unsupported()
            }
            bytes[value.upperBound] = 0  // the value's closing quote or before it: no longer read
            bindings.append(Binding(prefix: isDefault ? name.local.lowerBound..<name.local.lowerBound : name.local,
                                    uri: UnsafePointer(bytes + value.lowerBound)))
            declared += 1
        }
        // The element's namespace, then the attributes' (an unprefixed attribute has none).
        let elementURI = prefix.map { resolve($0) } ?? defaultNamespace()
        if names.count - declared > attributeCapacity {
            attributes.deallocate()
            attributeCapacity = names.count * 2
            attributes = .allocate(capacity: attributeCapacity * 5)
        }
        for (offset, name) in names.enumerated() {
            guard !isDeclaration(name) else { continue }
            let value = values[offset]
            let entry = attributes + 5 * attributeCount
            let uri: UnsafePointer<UInt8>? = name.prefix.flatMap { resolve($0) }
            // A prefixed attribute's namespace must differ from every other's of the same local name.
            if let uri {
                for other in names[..<offset] where same(other.local, name.local) {
                    if let otherURI = other.prefix.flatMap({ resolve($0) }), Self.sameString(otherURI, uri) { throw Unsupported() }
                }
            }
            entry[0] = UnsafePointer(bytes + name.local.lowerBound)
            entry[1] = name.prefix.map { UnsafePointer(bytes + $0.lowerBound) }
            entry[2] = uri
            entry[3] = UnsafePointer(bytes + value.lowerBound)
            entry[4] = UnsafePointer(bytes + value.upperBound)
            attributeCount += 1
        }
        // Names end where they end: what followed them (`=`, a space, `>`, `/`, `:`) is read.
        for name in names {
            bytes[name.local.upperBound] = 0
            if let prefix = name.prefix { bytes[prefix.upperBound] = 0 }
        }
        bytes[local.upperBound] = 0
        if let prefix { bytes[prefix.upperBound] = 0 }
        guard open.count < Self.maximumDepth else { throw Unsupported() }
        let element = XMLEventStream.Element(
            localName: UnsafePointer(bytes + local.lowerBound), prefix: prefix.map { UnsafePointer(bytes + $0.lowerBound) },
            namespaceURI: elementURI, attributeCount: attributeCount, attributes: attributeCount > 0 ? attributes : nil)
        open.append(Open(prefix: prefix, local: local, namespaceURI: elementURI, bindings: bindings.count - bindingsBefore))
        index = cursor
        handler.startElement(element, in: stream)
        if selfClosing, !stream.isStopped { closeTop() }
    }

    /// Whether an attribute is a namespace declaration: `xmlns` or `xmlns:p`.
    private func isDeclaration(_ name: (prefix: Range<Int>?, local: Range<Int>)) -> Bool {
        guard let prefix = name.prefix else { return bytes[name.local.lowerBound] == UInt8(ascii: "x") && spells(name.local, "xmlns") }
        return bytes[prefix.lowerBound] == UInt8(ascii: "x") && spells(prefix, "xmlns")
    }

    /// An attribute value decoded in place; returns its end.
    private func attributeValue(_ range: Range<Int>) throws -> Int {
        // Nearly every value holds nothing to decode or normalize: it stays where it is.
        var read = range.lowerBound
        while read + 8 <= range.upperBound {
            let word = UnsafeRawPointer(bytes + read).loadUnaligned(as: UInt64.self).littleEndian
            // Below 0x20: tab, line feed, carriage return (anything else fails `checkText` before the event).
            if ByteWord.below(word, 0x20) | ByteWord.equal(word, UInt8(ascii: "<")) | ByteWord.equal(word, UInt8(ascii: "&")) != 0 { break }
            read += 8
        }
        while read < range.upperBound, !Self.needsWorkInValue(bytes[read]) { read += 1 }
        if read == range.upperBound { return read }
        var write = read
        while read < range.upperBound {
            let byte = bytes[read]
            switch byte {
            case UInt8(ascii: "<"): throw Unsupported()
            case UInt8(ascii: "&"):
                read = try reference(at: read, limit: range.upperBound, into: &write, inAttribute: true)
            case 0x0D:
                bytes[write] = 0x20
                write += 1
                read += read + 1 < range.upperBound && bytes[read + 1] == 0x0A ? 2 : 1
            case 0x09, 0x0A:
                bytes[write] = 0x20
                write += 1
                read += 1
            default:
                bytes[write] = byte
                write += 1
                read += 1
            }
        }
        return write
    }

    private mutating func endTag() throws {
        guard let top = open.last else { throw Unsupported() }
        let start = index + 2
        let (prefix, local) = try qualifiedName(from: start)
        guard same(local, top.local), same(prefix, top.prefix) || (prefix == nil && top.prefix == nil) else { throw Unsupported() }
        var cursor = local.upperBound
        while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
        guard cursor < count, bytes[cursor] == UInt8(ascii: ">") else { throw Unsupported() }
        index = cursor + 1
        try validate(through: index)
        closeTop()
    }

    private mutating func closeTop() {
        let top = open.removeLast()
        bindings.removeLast(top.bindings)
        handler.endElement(XMLEventStream.Element(
            localName: UnsafePointer(bytes + top.local.lowerBound), prefix: top.prefix.map { UnsafePointer(bytes + $0.lowerBound) },
            namespaceURI: top.namespaceURI, attributeCount: 0, attributes: nil), in: stream)
    }

    /// Whether two NUL-terminated strings are equal.
    private static func sameString(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>) -> Bool {
        strcmp(UnsafeRawPointer(a).assumingMemoryBound(to: CChar.self), UnsafeRawPointer(b).assumingMemoryBound(to: CChar.self)) == 0
    }

    private func resolve(_ prefix: Range<Int>) -> UnsafePointer<UInt8>? {
        if spells(prefix, "xml") { return Self.xmlNamespace.utf8Start }
        for binding in bindings.reversed() where !binding.prefix.isEmpty && same(binding.prefix, prefix) {
            return binding.uri
        }
        return nil  // undeclared: the prefix is kept, as libxml2 keeps it
    }

    private func defaultNamespace() -> UnsafePointer<UInt8>? {
        for binding in bindings.reversed() where binding.prefix.isEmpty { return binding.uri }
        return nil
    }

    // MARK: Bytes

    /// Whether the bytes at `a` and `b` are the same (names: a prefix's or a local name's bytes, which
    /// a NUL written after them does not change).
    private func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && memcmp(bytes + a.lowerBound, bytes + b.lowerBound, a.count) == 0
    }

    private func same(_ a: Range<Int>?, _ b: Range<Int>?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return same(a, b)
        default: return false
        }
    }

    private func spells(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { text in
            range.count == text.count && memcmp(bytes + range.lowerBound, text.baseAddress!, text.count) == 0
        }
    }

    private func starts(with literal: StaticString) -> Bool {
        literal.withUTF8Buffer { text in
            index + text.count <= count && memcmp(bytes + index, text.baseAddress!, text.count) == 0
        }
    }

    /// The first `literal` at or after `from`.
    private func find(_ literal: StaticString, from: Int) -> Int? {
        literal.withUTF8Buffer { text -> Int? in
            var at = from
            while at + text.count <= count {
                guard let found = memchr(bytes + at, Int32(text[0]), count - at) else { return nil }
                let position = UnsafeMutablePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - bytes
                guard position + text.count <= count else { return nil }
                if memcmp(bytes + position, text.baseAddress!, text.count) == 0 { return position }
                at = position + 1
            }
            return nil
        }
    }

    private mutating func skipSpaces() {
        while index < count, isSpace(bytes[index]) { index += 1 }
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    /// Bit sets over ASCII (low: 0–63, high: 64–127): one shift and mask per byte.
    @inline(__always)
    private static func isIn(_ byte: UInt8, low: UInt64, high: UInt64) -> Bool {
        byte < 0x80 && (byte < 0x40 ? low : high) >> UInt64(byte & 0x3F) & 1 != 0
    }

    private static let letters: UInt64 = 0x07FF_FFFE | 0x07FF_FFFE << 32  // A–Z, a–z (0x41–0x5A, 0x61–0x7A)
    /// A–Z, `_`, a–z.
    private static let nameStartHigh: UInt64 = letters | 1 << (0x5F - 0x40)
    /// `-`, `.`, 0–9, `:`.
    private static let nameLow: UInt64 = 1 << 0x2D | 1 << 0x2E | (0x3FF as UInt64) << 0x30 | 1 << 0x3A
    /// `<`, `&`, tab, line feed, carriage return: what a value's bytes are decoded or normalized for.
    private static let valueWorkLow: UInt64 = 1 << 0x3C | 1 << 0x26 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0D

    @inline(__always) private static func isNameStart(_ byte: UInt8) -> Bool { isIn(byte, low: 0, high: nameStartHigh) }
    @inline(__always) private static func isNameCharacter(_ byte: UInt8) -> Bool { isIn(byte, low: nameLow, high: nameStartHigh) }
    @inline(__always) private static func needsWorkInValue(_ byte: UInt8) -> Bool { byte < 0x40 && valueWorkLow >> UInt64(byte) & 1 != 0 }
}
