import CLibXML2
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Receives the events of one document from `XMLEventStream`. The element passed is valid only during
/// the call.
protocol XMLEventHandler: AnyObject {
    func startElement(_ element: XMLEventStream.Element, in stream: XMLEventStream)
    func endElement(_ element: XMLEventStream.Element, in stream: XMLEventStream)
    func characters(_ text: UnsafeBufferPointer<UInt8>)
    /// Text that stays where it is, unchanged, until the read that hands it over ends (`XMLFastScan`'s
    /// document, or its copy of a split read's piece): a handler may keep a view of it instead of a copy.
    func characters(inDocument text: UnsafeBufferPointer<UInt8>)
}

extension XMLEventHandler {
    /// A handler that keeps nothing beyond the call reads it as any text.
    func characters(inDocument text: UnsafeBufferPointer<UInt8>) { characters(text) }
}

/// libxml2's SAX2 parser over a document in memory or read from a file, fed in 1 MiB chunks, in recovery mode: the feed
/// parser's event source. One of the libxml2 wrapper files (with `XMLStreamReader.swift`), the only
/// code that touches libxml2's pointers.
///
/// Why not `xmlTextReader`: on libxml2 2.9.14 the reader is quadratic in the length of a CDATA section
/// (an 8 MB one took 7 s), and twice as slow on ordinary feeds. SAX builds no tree, copies nothing but
/// the chunk being parsed and, in recovery mode, reads past what a broken feed gets wrong the way
/// libxml2's own recovering tree builder does, so one pass both streams and recovers.
///
/// The options are the safe ones of `XMLStreamReader` (no entity substitution, no DTD loading, no
/// network) and the handler has no entity lookup at all: an entity the document declares is never
/// expanded (billion laughs, external entities), it is reported as undefined and skipped.
final class XMLEventStream {
    let handler: XMLEventHandler
    private let errors = ErrorSink()
    /// `stop` was called while no libxml2 parse ran (`XMLFastScan` reads on until it sees this).
    private(set) var isStopped = false
    private var context: xmlParserCtxtPtr?
    /// Whether CDATA sections are handed to the handler here rather than parsed by libxml2 (`CDATASection`).
    private let readsCDATA: Bool
    /// How many were (for tests and the bench), and how many long text runs (`XMLTextRun`).
    private(set) var sectionsHandedOver = 0
    private(set) var runsHandedOver = 0
    /// A text run's text with its references read (reused).
    private var decoded: [UInt8] = []
    // Unchecked: touched once per element, only from this stream's own callbacks on one thread; a
    // run-time exclusivity check per access (a thread-local lookup each) cost more than the lookup.
    @exclusivity(unchecked) var names = NameCache()

    /// How much of the document libxml2 gets at a time: big enough that a CDATA section rarely spans
    /// chunks (libxml2 re-scans a chunk for a section's end), small enough not to copy the whole input.
    static let chunkSize = 1 << 20

    private init(handler: XMLEventHandler, readsCDATA: Bool) {
        self.handler = handler
        self.readsCDATA = readsCDATA
    }

    /// What a parse reports: libxml2's first error and first fatal one (after which it recovered), if
    /// any, and how many CDATA sections were handed over without libxml2.
    typealias Outcome = (first: XMLStreamReader.Failure?, fatal: XMLStreamReader.Failure?, sectionsHandedOver: Int, runsHandedOver: Int)

    /// Parses `bytes`, calling `handler` for every event.
    static func parse(_ bytes: UnsafeRawBufferPointer, handler: XMLEventHandler) -> Outcome {
        var offset = 0
        return parse(chunks: {
            guard offset < bytes.count else { return nil }
            let length = min(Self.chunkSize, bytes.count - offset)
            defer { offset += length }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
        }, handler: handler)
    }

    /// Parses the document `next` hands over a chunk at a time (each valid until the next call; nil at
    /// the end), calling `handler` for every event. `readingCDATA: false` leaves every CDATA section to
    /// libxml2 (the bench's floor: libxml2's SAX pass alone).
    static func parse(chunks next: () -> UnsafeRawBufferPointer?, handler: XMLEventHandler, readingCDATA: Bool = true) -> Outcome {
        XMLStreamReader.prepareLibrary()
        let stream = XMLEventStream(handler: handler, readsCDATA: readingCDATA)
        stream.run(next)
        return (stream.errors.first, stream.errors.fatal, stream.sectionsHandedOver, stream.runsHandedOver)
    }

    /// Ends the parse after the current event (the handler found the document is no feed).
    func stop() {
        isStopped = true
        if let context { xmlStopParser(context) }
    }

    /// A stream whose events `XMLFastScan` makes: its names, its `stop`, no libxml2.
    static func scanning(handler: XMLEventHandler) -> XMLEventStream {
        XMLEventStream(handler: handler, readsCDATA: false)
    }

    private func run(_ next: () -> UnsafeRawBufferPointer?) {
        guard var chunk = next(), let start = chunk.baseAddress, !chunk.isEmpty else { return }
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = startElement
        sax.endElementNs = endElement
        sax.characters = characters
        sax.cdataBlock = characters
        sax.ignorableWhitespace = characters
        sax.serror = recordStreamError
        let me = Unmanaged.passUnretained(self).toOpaque()
        // Errors libxml2 raises outside the parser context (an encoding converter's, "encoding error: input
        // conversion failed") go to the thread's handler, stderr by default: collect them here too.
        let previousHandler = __xmlStructuredError().pointee
        let previousContext = __xmlStructuredErrorContext().pointee
        xmlSetStructuredErrorFunc(me, recordStreamError)
        defer { xmlSetStructuredErrorFunc(previousContext, previousHandler) }
        // The first bytes let libxml2 detect the encoding (byte order marks, UTF-16) before anything else.
        let head = min(4, chunk.count)
        guard let created = xmlCreatePushParserCtxt(&sax, me, start.assumingMemoryBound(to: CChar.self), Int32(head),
                                                    "feed.xml") else { return }
        context = created
        defer {
            context = nil
            xmlFreeParserCtxt(created)
        }
        xmlCtxtUseOptions(created, XMLStreamReader.options)
        chunk = UnsafeRawBufferPointer(rebasing: chunk[head...])
        while created.pointee.instate != XML_PARSER_EOF {
            if readsCDATA { feedHandingOver(chunk, to: created) } else { Self.push(chunk, to: created) }
            guard let following = next() else { break }
            chunk = following
        }
        if created.pointee.instate != XML_PARSER_EOF { xmlParseChunk(created, nil, 0, 1) }
    }

    private static func push(_ bytes: UnsafeRawBufferPointer, to context: xmlParserCtxtPtr) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        xmlParseChunk(context, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 0)
    }

    private static let emptySection: [UInt8] = Array("<![CDATA[]]>".utf8)

    /// Hands `chunk` to libxml2, except what it holds of long text runs and whole CDATA sections, which go to
    /// the handler from here (`XMLTextRun`, `CDATASection`). libxml2 gets the bytes before one; then, when its
    /// own state says the run is content of the root element (`expectsMarkup`), the handler gets the text
    /// and libxml2 its line count moved on by the text's lines — for a section, after an empty section in its
    /// place (the text libxml2 still holds before it is delivered first, so the order stays); a text run only
    /// when libxml2 holds nothing unparsed. Anything libxml2 would read otherwise is left to it.
    private func feedHandingOver(_ chunk: UnsafeRawBufferPointer, to context: xmlParserCtxtPtr) {
        guard let base = chunk.baseAddress else { return }
        var position = 0       // everything before it is libxml2's or handed over
        var scan = 0           // where the next `<` is looked for
        var contentAt = -1     // a position where content is known to start (just after a section handed over)
        while context.pointee.instate != XML_PARSER_EOF, scan < chunk.count,
              let found = memchr(base + scan, Int32(UInt8(ascii: "<")), chunk.count - scan) {
            let less = base.distance(to: UnsafeRawPointer(found))
            // A text run ends at this `<`; it starts after the last `>` since the previous one.
            if less - scan >= XMLTextRun.minimumLength {
                let start = Self.lastGreaterThan(chunk, from: scan, before: less).map { $0 + 1 } ?? (scan == contentAt ? scan : nil)
                if let start, less - start >= XMLTextRun.minimumLength, start >= position {
                    Self.push(UnsafeRawBufferPointer(rebasing: chunk[position..<start]), to: context)
                    position = start
                    let run = UnsafeRawBufferPointer(rebasing: chunk[start..<less])
                    // After a well-formedness error libxml2 drops every entity reference in text (2.9.14's
                    // xmlParseReference), so a run holding one is then left to it.
                    if expectsMarkup(context, allowingPendingText: false), let lineFeeds = XMLTextRun.decode(run, into: &decoded),
                       decoded.isEmpty || context.pointee.wellFormed != 0 {
                        context.pointee.input.pointee.line += Int32(clamping: lineFeeds)
                        if decoded.isEmpty {
                            handler.characters(run.assumingMemoryBound(to: UInt8.self))
                        } else {
                            decoded.withUnsafeBufferPointer { handler.characters($0) }
                        }
                        runsHandedOver += 1
                        position = less
                    }
                }
            }
            guard let found = CDATASection.starting(UnsafeRawBufferPointer(rebasing: chunk[less...])) else {
                scan = less + 1
                continue
            }
            guard case .section(let section) = found else {
                scan = less + CDATASection.opening.count
                continue
            }
            Self.push(UnsafeRawBufferPointer(rebasing: chunk[position..<less]), to: context)
            position = less
            guard expectsMarkup(context, allowingPendingText: true) else {
                scan = less + CDATASection.opening.count
                continue
            }
            Self.emptySection.withUnsafeBytes { Self.push($0, to: context) }
            context.pointee.input.pointee.line += Int32(clamping: section.lineFeeds)
            let text = UnsafeRawBufferPointer(rebasing: chunk[less + section.text.lowerBound..<less + section.text.upperBound])
            handler.characters(text.assumingMemoryBound(to: UInt8.self))
            sectionsHandedOver += 1
            position = less + section.end
            scan = position
            contentAt = position
        }
        guard context.pointee.instate != XML_PARSER_EOF else { return }
        Self.push(UnsafeRawBufferPointer(rebasing: chunk[position...]), to: context)
    }

    /// The last `>` in `chunk[from..<before]`, if any.
    private static func lastGreaterThan(_ chunk: UnsafeRawBufferPointer, from: Int, before: Int) -> Int? {
        guard let base = chunk.baseAddress else { return nil }
        var last: Int?
        var index = from
        while index < before, let found = memchr(base + index, Int32(UInt8(ascii: ">")), before - index) {
            last = base.distance(to: UnsafeRawPointer(found))
            index = last! + 1
        }
        return last
    }

    /// Whether libxml2, given everything before a text run or a `<![CDATA[`, would read it as text or a
    /// CDATA section of the root element's content, the document's bytes being its own (UTF-8, no
    /// converter): it is in content, in the document (no entity's input), delivering events, and holds
    /// nothing unparsed — or, before a section, only plain text (no `<`: not in a comment, a tag or a
    /// processing instruction it waits to see the end of), which it delivers when it meets the section.
    private func expectsMarkup(_ context: xmlParserCtxtPtr, allowingPendingText: Bool) -> Bool {
        let parser = context.pointee
        guard parser.instate == XML_PARSER_CONTENT, parser.inputNr == 1, parser.nameNr > 0, parser.disableSAX == 0,
              let input = parser.input, let current = input.pointee.cur, let end = input.pointee.end else { return false }
        if let buffer = input.pointee.buf, buffer.pointee.encoder != nil { return false }
        let pending = current.distance(to: end)
        guard pending > 0 else { return true }
        return allowingPendingText && memchr(current, Int32(UInt8(ascii: "<")), pending) == nil
    }

    fileprivate func element(_ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
                             _ uri: UnsafePointer<xmlChar>?, _ count: Int32,
                             _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) -> Element? {
        guard let localName else { return nil }
        return Element(localName: localName, prefix: prefix, namespaceURI: uri, attributeCount: Int(count),
                       attributes: attributes)
    }

    /// The feed vocabulary's name for an element.
    func feedElement(_ element: Element) -> FeedElement {
        names.element(localName: element.localName, prefix: element.prefix, namespaceURI: element.namespaceURI)
    }

    /// libxml2 2.9.14 drops every entity reference in text once the document has had a well-formedness
    /// error (`xmlParseReference` returns early while `wellFormed` is 0): after no-agenda's one undefined
    /// entity, every later episode's notes lost their `&lt;`s and quotes ("pShow Notes/pp"). The errors are
    /// kept in `errors`; after each event (`with`) libxml2 is told the document is well-formed again, so a reference
    /// after the next event reads as it would have (recovery mode reads on either way).
    fileprivate func forgiveError() {
        if let context, context.pointee.wellFormed == 0 { context.pointee.wellFormed = 1 }
    }

    fileprivate func record(_ error: xmlErrorPtr) {
        errors.record(code: error.pointee.code, isFatal: error.pointee.level == XML_ERR_FATAL,
                      message: error.pointee.message, line: error.pointee.line)
    }

    fileprivate static func from(_ context: UnsafeMutableRawPointer?) -> XMLEventStream? {
        context.map { Unmanaged<XMLEventStream>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs an event's `body` with the stream behind `context` borrowed, not retained (the stream outlives
    /// its parse — `run` holds it — and a retain and release per event was measurable on a million events),
    /// then lets libxml2 read references again should the event have followed an error (`forgiveError`).
    fileprivate static func with(_ context: UnsafeMutableRawPointer?, _ body: (XMLEventStream) -> Void) {
        guard let context else { return }
        Unmanaged<XMLEventStream>.fromOpaque(context)._withUnsafeGuaranteedRef { stream in
            body(stream)
            stream.forgiveError()
        }
    }
}

// The SAX callbacks: plain C functions, so they capture nothing and find the stream through `context`.

private func startElement(_ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?,
                          _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
                          _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ attributeCount: Int32,
                          _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
    XMLEventStream.with(context) { stream in
        guard let element = stream.element(localName, prefix, uri, attributeCount, attributes) else { return }
        stream.handler.startElement(element, in: stream)
    }
}

private func endElement(_ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?,
                        _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) {
    XMLEventStream.with(context) { stream in
        guard let element = stream.element(localName, prefix, uri, 0, nil) else { return }
        stream.handler.endElement(element, in: stream)
    }
}

private func characters(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<xmlChar>?, _ length: Int32) {
    guard let text, length > 0 else { return }
    XMLEventStream.with(context) { stream in
        stream.handler.characters(UnsafeBufferPointer(start: text, count: Int(length)))
    }
}

private func recordStreamError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let stream = XMLEventStream.from(context), let error else { return }
    stream.record(error)
}
