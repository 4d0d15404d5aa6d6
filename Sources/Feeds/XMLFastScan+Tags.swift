import EarshotCore
#if canImport(Glibc)
import Glibc
#endif

/// Start and end tags: names, attributes, namespace declarations.
extension XMLFastScan {
    /// A qualified name from `start`: its prefix (nil: none) and local part; one colon at most, each
    /// part an ASCII name.
    @inline(__always)
    func qualifiedName(from start: Int) throws -> (prefix: Range<Int>?, local: Range<Int>) {
        guard start < count, classes[Int(bytes[start])] & Self.nameStartClass != 0 else { throw Unsupported() }
        var end = start + 1
        while end < count, classes[Int(bytes[end])] & Self.nameClass != 0 { end += 1 }
        var colon = -1
        if end < count, bytes[end] == UInt8(ascii: ":") {
            // One colon, with a name on either side.
            colon = end
            end += 1
            guard end < count, classes[Int(bytes[end])] & Self.nameStartClass != 0 else { throw Unsupported() }
            end += 1
            while end < count, classes[Int(bytes[end])] & Self.nameClass != 0 { end += 1 }
            guard end < count, bytes[end] != UInt8(ascii: ":") else { throw Unsupported() }
        }
        guard end - start <= Self.maximumNameLength, end < count else { throw Unsupported() }
        return colon < 0 ? (nil, start..<end) : (start..<colon, colon + 1..<end)
    }

    /// The end of the name at `start` (`start` itself when there is none): an ASCII letter or `_` first,
    /// then letters, digits, `_`, `-`, `.` and `:`.
    func nameEnd(from start: Int) -> Int {
        guard start < count, Self.isNameStart(bytes[start]) else { return start }
        var end = start + 1
        while end < count, Self.isNameCharacter(bytes[end]) { end += 1 }
        return end
    }

    /// The closing quote of the value that starts at `start`, and whether the value holds anything to
    /// decode or normalize (`<`, `&`, tab, line feed, carriage return: what `attributeValue` works on; a
    /// byte below 0x20 also stops the quick look, and `checkText` fails any other before the event).
    @inline(__always)
    func valueEnd(from start: Int, quote: UInt8) -> (end: Int, plain: Bool)? {
        // Most values are a few dozen plain bytes: eight at a time, then memchr past anything else.
        var at = start
        while at + 8 <= count {
            let word = UnsafeRawPointer(bytes + at).loadUnaligned(as: UInt64.self).littleEndian
            let stops = ByteWord.equal(word, quote) | ByteWord.below(word, 0x20) | ByteWord.equal(word, UInt8(ascii: "<"))
                | ByteWord.equal(word, UInt8(ascii: "&"))
            if stops != 0 {
                let stop = at + (stops.trailingZeroBitCount >> 3)
                if bytes[stop] == quote { return (stop, true) }
                break
            }
            at += 8
        }
        return document.nextIndex(of: quote, from: at).map { ($0, false) }
    }

    mutating func startTag() throws {
        if awaitsFirst, let meeting, isTag(meeting.name, at: index) {
            awaitsFirst = false
            meeting.first(context(withHeader: true))
        }
        let (prefix, local) = try qualifiedName(from: index + 1)
        if let prefix, spells(prefix, "xmlns") { throw Unsupported() }
        var cursor = local.upperBound
        // Attributes: name, `=`, a quoted value; at least one space before each.
        var writtenCount = 0
        var declarations = 0
        var selfClosing = false
        while true {
            let spaced = cursor < count && isSpace(bytes[cursor])
            cursor = spacesEnd(from: cursor)
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
            cursor = spacesEnd(from: cursor)
            guard cursor < count, bytes[cursor] == UInt8(ascii: "=") else { throw Unsupported() }
            cursor += 1
            cursor = spacesEnd(from: cursor)
            guard cursor < count, bytes[cursor] == 0x22 || bytes[cursor] == 0x27 else { throw Unsupported() }
            let quote = bytes[cursor]
            let valueStart = cursor + 1
            guard let (valueEnd, plain) = valueEnd(from: valueStart, quote: quote) else { throw Unsupported() }
            guard valueEnd - valueStart < Self.maximumTokenLength else { throw Unsupported() }
            var decodedEnd = valueEnd
            if !plain {
                // Bytes are checked before they are changed in place (what decoding leaves is not UTF-8).
                try validate(through: valueEnd + 1)
                decodedEnd = try attributeValue(valueStart..<valueEnd)
            }
            cursor = valueEnd + 1
            // A name written twice is an error (libxml2's to report).
            for earlier in 0..<writtenCount where same(written[earlier].local, name.local) && same(written[earlier].prefix, name.prefix) {
                throw Unsupported()
            }
            if writtenCount == writtenCapacity {
                let grown = UnsafeMutablePointer<Written>.allocate(capacity: writtenCapacity * 2)
                grown.moveInitialize(from: written, count: writtenCount)
                written.deallocate()
                written = grown
                writtenCapacity *= 2
            }
            (written + writtenCount).initialize(to: Written(prefix: name.prefix, local: name.local, value: valueStart..<decodedEnd))
            writtenCount += 1
            if isDeclaration(name) { declarations += 1 }
        }
        try validate(through: cursor)  // before the names are ended in place
        // Namespace declarations first: they apply to the element's own name and attributes.
        let bindingsBefore = bindings.count
        if declarations > 0 { try declare(writtenCount: writtenCount, bindingsBefore: bindingsBefore) }
        // The element's namespace, then the attributes' (an unprefixed attribute has none).
        // Not `prefix.map { resolve($0) }`: the closure captured the whole scan, copied (120 bytes) at
        // every start tag, its wide loads waiting on the narrow stores just made to it.
        let elementURI: UnsafePointer<UInt8>?
        if let prefix { elementURI = resolve(prefix) } else { elementURI = defaultNamespace() }
        if writtenCount - declarations > attributeCapacity {
            attributes.deallocate()
            attributeCapacity = writtenCount * 2
            attributes = .allocate(capacity: attributeCapacity * 5)
        }
        var attributeCount = 0
        for offset in 0..<writtenCount {
            let name = written[offset]
            if declarations > 0, isDeclaration((name.prefix, name.local)) { continue }
            let entry = attributes + 5 * attributeCount
            var uri: UnsafePointer<UInt8>?
            if let prefix = name.prefix {
                uri = resolve(prefix)
                // A prefixed attribute's namespace must differ from every other's of the same local name.
                if let uri {
                    for other in 0..<offset where same(written[other].local, name.local) {
                        if let otherPrefix = written[other].prefix, let otherURI = resolve(otherPrefix),
                           Self.sameString(otherURI, uri) { throw Unsupported() }
                    }
                }
            }
            entry[0] = UnsafePointer(bytes + name.local.lowerBound)
            entry[1] = name.prefix.map { UnsafePointer(bytes + $0.lowerBound) }
            entry[2] = uri
            entry[3] = UnsafePointer(bytes + name.value.lowerBound)
            entry[4] = UnsafePointer(bytes + name.value.upperBound)
            attributeCount += 1
        }
        // Names end where they end: what followed them (`=`, a space, `>`, `/`, `:`) is read.
        for offset in 0..<writtenCount {
            let name = written[offset]
            bytes[name.local.upperBound] = 0
            if let prefix = name.prefix { bytes[prefix.upperBound] = 0 }
        }
        bytes[local.upperBound] = 0
        if let prefix { bytes[prefix.upperBound] = 0 }
        guard depth < Self.maximumDepth else { throw Unsupported() }
        let element = XMLEventStream.Element(
            localName: UnsafePointer(bytes + local.lowerBound), prefix: prefix.map { UnsafePointer(bytes + $0.lowerBound) },
            namespaceURI: elementURI, attributeCount: attributeCount, attributes: attributeCount > 0 ? attributes : nil)
        (open + depth).initialize(to: Open(prefix: prefix, local: local, namespaceURI: elementURI, bindings: bindings.count - bindingsBefore))
        depth += 1
        index = cursor
        emit { handler, stream in handler.startElement(element, in: stream) }
        if selfClosing, !isStopped { closeTop() }
    }

    /// The start tag's namespace declarations (among its first `writtenCount` attributes), bound.
    mutating func declare(writtenCount: Int, bindingsBefore: Int) throws {
        for offset in 0..<writtenCount {
            let name = written[offset]
            guard isDeclaration((name.prefix, name.local)) else { continue }
            let isDefault = name.prefix == nil
            let isPrefixed = !isDefault
            let value = name.value
            if isPrefixed {
                // `xmlns:p=""`, and `xml`/`xmlns` declared, are errors; a prefix declared twice too.
                guard !value.isEmpty, !spells(name.local, "xml"), !spells(name.local, "xmlns"),
                      !bindings[bindingsBefore...].contains(where: { same($0.prefix, name.local) }) else { throw Unsupported() }
            } else if value.isEmpty {
                guard !bindings[bindingsBefore...].contains(where: { $0.prefix.isEmpty }) else { throw Unsupported() }
                bindings.append(Binding(prefix: name.local.lowerBound..<name.local.lowerBound, uri: nil))
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
        }
    }

    /// Whether an attribute is a namespace declaration: `xmlns` or `xmlns:p`.
    @inline(__always)
    func isDeclaration(_ name: (prefix: Range<Int>?, local: Range<Int>)) -> Bool {
        let first = name.prefix ?? name.local
        return first.count == 5 && bytes[first.lowerBound] == UInt8(ascii: "x") && spells(first, "xmlns")
    }

    /// An attribute value decoded in place; returns its end.
    func attributeValue(_ range: Range<Int>) throws -> Int {
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

    mutating func endTag() throws {
        guard depth > 0 else { throw Unsupported() }
        let top = open[depth - 1]
        let start = index + 2
        let (prefix, local) = try qualifiedName(from: start)
        guard same(local, top.local), same(prefix, top.prefix) else { throw Unsupported() }
        var cursor = local.upperBound
        cursor = spacesEnd(from: cursor)
        guard cursor < count, bytes[cursor] == UInt8(ascii: ">") else { throw Unsupported() }
        index = cursor + 1
        try validate(through: index)
        closeTop()
    }

    mutating func closeTop() {
        depth -= 1
        let top = (open + depth).move()
        if top.bindings > 0 { bindings.removeLast(top.bindings) }
        let element = XMLEventStream.Element(
            localName: UnsafePointer(bytes + top.local.lowerBound), prefix: top.prefix.map { UnsafePointer(bytes + $0.lowerBound) },
            namespaceURI: top.namespaceURI, attributeCount: 0, attributes: nil)
        emit { handler, stream in handler.endElement(element, in: stream) }
    }

    /// Whether two NUL-terminated strings are equal.
    static func sameString(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>) -> Bool {
        strcmp(UnsafeRawPointer(a).assumingMemoryBound(to: CChar.self), UnsafeRawPointer(b).assumingMemoryBound(to: CChar.self)) == 0
    }

    func resolve(_ prefix: Range<Int>) -> UnsafePointer<UInt8>? {
        var at = bindings.count - 1
        while at >= 0 {
            let binding = bindings[at]
            if !binding.prefix.isEmpty, same(binding.prefix, prefix) { return binding.uri }
            at -= 1
        }
        if spells(prefix, "xml") { return Self.xmlNamespace.utf8Start }
        return nil  // undeclared: the prefix is kept, as libxml2 keeps it
    }

    func defaultNamespace() -> UnsafePointer<UInt8>? {
        var at = bindings.count - 1
        while at >= 0 {
            if bindings[at].prefix.isEmpty { return bindings[at].uri }
            at -= 1
        }
        return nil
    }
}
