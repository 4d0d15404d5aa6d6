import EarshotCore
import Foundation

/// Reads RSS 2.0 (with iTunes, content, Media RSS and Dublin Core extensions), RSS 1.0 and Atom feeds
/// into `FeedContent`, streaming through libxml2.
///
/// A broken but recoverable document (an undefined entity, a stray byte, undeclared prefixes) still yields
/// what it can: when the streaming reader gives up, the document is re-read once in libxml2's recovery
/// mode. A document that is no feed at all throws `FeedError`.
public enum FeedParser {
    /// Parses `data`, resolving relative links against `baseURL` (the feed's URL).
    ///
    /// Items with nothing to play (no enclosure, Atom `enclosure` link or playable `media:content`) are
    /// left out unless `keepingItemsWithoutEnclosure` is set; their `enclosureURL` is then "".
    /// Items keep the document's order. Throws `FeedError.empty`, `.notXML` or `.notAFeed`.
    public static func parse(_ data: Data, baseURL: URL, keepingItemsWithoutEnclosure: Bool = false) throws
        -> FeedContent {
        try data.withUnsafeBytes { raw in
            let document = skippingLeadingWhitespace(raw)
            guard !document.isEmpty else { throw FeedError.empty }
            let builder = FeedBuilder(baseURL: baseURL, keepsItemsWithoutEnclosure: keepingItemsWithoutEnclosure)
            guard let reader = XMLStreamReader.streaming(document) else {
                throw FeedError.notXML(reason: "libxml2 could not open the document")
            }
            let failure: XMLStreamReader.Failure
            do {
                return try read(reader, into: builder)
            } catch let error as XMLStreamReader.Failure {
                failure = error
            }
            // Latin-1 served without a declaration: libxml2 assumes UTF-8 and stops at the first accented
            // letter. Read it again as Windows-1252 (a superset of Latin-1 in practice).
            if failure.isInvalidCharacter, Latin1Guess.isProbablySingleByte(document),
               let latin1 = XMLStreamReader.streaming(document, encoding: "WINDOWS-1252"),
               let content = try? read(latin1, into: builder) {
                return content
            }
            guard let recovered = XMLStreamReader.recovered(document) else {
                throw FeedError.notXML(reason: failure.message)
            }
            do {
                return try read(recovered, into: builder)
            } catch let error as XMLStreamReader.Failure {
                throw FeedError.notXML(reason: error.message)
            }
        }
    }

    /// Runs the rules over every node. Throws `XMLStreamReader.Failure` when libxml2 gives up,
    /// `FeedError.notAFeed` at a root element no rule knows.
    private static func read(_ reader: XMLStreamReader, into builder: FeedBuilder) throws -> FeedContent {
        var builder = builder
        var walk = FeedWalk()
        while let node = try reader.read() {
            switch node {
            case .startElement(let element, let isEmpty):
                try walk.start(element, reader: reader, builder: &builder)
                if isEmpty { walk.end(reader: reader, builder: &builder) }
            case .endElement:
                walk.end(reader: reader, builder: &builder)
            case .text:
                if walk.capture != nil { reader.appendValue(to: &walk.text) }
            case .other:
                break
            }
        }
        guard walk.sawRoot else {
            throw FeedError.notXML(reason: reader.firstError?.message ?? "the document has no root element")
        }
        return builder.finish()
    }

    private static func skippingLeadingWhitespace(_ raw: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        while start < raw.count, isASCIIWhitespace(raw[start]) { start += 1 }
        return UnsafeRawBufferPointer(rebasing: raw[start...])
    }
}

/// The walk's state between nodes: the scope stack and the text being collected.
struct FeedWalk {
    var scopes: [FeedScope] = [.document]
    /// The field whose element's text is being collected, and the stack depth that element sits at.
    var capture: TextField?
    var captureDepth = 0
    var text: [UInt8] = []
    var sawRoot = false

    init() {
        scopes.reserveCapacity(32)
        text.reserveCapacity(16 * 1024)
    }

    mutating func start(_ element: FeedElement, reader: XMLStreamReader, builder: inout FeedBuilder) throws {
        let scope = scopes[scopes.count - 1]
        if let field = capture {
            if field.holdsHTML { appendTag(reader, closing: false) }
            scopes.append(.ignored)
            return
        }
        let action = FeedRules.action(in: scope, for: element)
        if scope == .document {
            guard action != nil else { throw FeedError.notAFeed(rootElement: reader.qualifiedName) }
            sawRoot = true
        }
        switch action {
        case .enter(let next)?:
            if next == .item || next == .entry { builder.beginItem() }
            scopes.append(next)
        case .text(let field)? where builder.wants(field):
            capture = field
            captureDepth = scopes.count
            text.removeAll(keepingCapacity: true)
            scopes.append(.ignored)
        case .attributes(let field)?:
            builder.store(field, attribute: reader.attribute)
            scopes.append(.ignored)
        case .text?, nil:
            scopes.append(.ignored)
        }
    }

    mutating func end(reader: XMLStreamReader, builder: inout FeedBuilder) {
        guard scopes.count > 1 else { return }
        let closed = scopes.removeLast()
        if let field = capture {
            if scopes.count == captureDepth {
                text.withUnsafeBufferPointer { builder.store(field, $0) }
                capture = nil
            } else if field.holdsHTML {
                appendTag(reader, closing: true)
            }
            return
        }
        if closed == .item || closed == .entry { builder.endItem() }
    }

    /// Rebuilds a nested XHTML element as a bare tag (`<p>`, `</p>`): enough for the plain-text conversion.
    private mutating func appendTag(_ reader: XMLStreamReader, closing: Bool) {
        text.append(UInt8(ascii: "<"))
        if closing { text.append(UInt8(ascii: "/")) }
        reader.appendLocalName(to: &text)
        text.append(UInt8(ascii: ">"))
    }
}

/// Tells Latin-1 (or Windows-1252) text mislabelled as UTF-8 from UTF-8 with a few bad bytes.
enum Latin1Guess {
    /// True when the bytes are not valid UTF-8 and invalid sequences outnumber valid multi-byte ones.
    static func isProbablySingleByte(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var valid = 0
        var invalid = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length = lead >= 0xF0 && lead < 0xF5 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0
            var ok = length > 0 && index + length <= count
            if ok {
                for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { ok = false; break }
            }
            if ok { valid += 1; index += length } else { invalid += 1; index += 1 }
        }
        return invalid > valid
    }
}
