import EarshotCore
import FoundationEssentials

/// Reads RSS 2.0 (with iTunes, content, Media RSS, Dublin Core, Podcasting 2.0 and Podlove Simple
/// Chapters), RSS 1.0 and Atom feeds into `FeedContent`, streaming through libxml2's SAX parser.
///
/// A broken but readable document still yields what it can, with a warning in `FeedContent.warnings`:
/// bytes that are not UTF-8 in a feed that claims (or implies) it are read as Windows-1252 and control
/// characters XML forbids are dropped; past anything else libxml2 refuses (an undefined entity, a
/// truncated file) its recovery mode reads on. A document that is no feed at all throws `FeedError`.
public enum FeedParser {
    /// Parses `data`, resolving relative links against `baseURL` (the feed's URL, or an `xml:base`).
    ///
    /// Items with nothing to play (no audio or video enclosure, Atom `enclosure` link or `media:content`)
    /// are left out unless `keepingItemsWithoutEnclosure` is set; their `enclosureURL` is then "".
    /// `keepingSourceText` also fills `asWritten` and `rawHTML` (what `earshot parse --json` shows; it
    /// can double the memory a feed takes). Items keep the document's order.
    /// Throws `FeedError.empty`, `.notXML` or `.notAFeed`.
    ///
    /// With `sink`, the items go to it as they are finished, and the content returned has none.
    public static func parse(_ data: Data, baseURL: URL, keepingItemsWithoutEnclosure: Bool = false,
                             keepingSourceText: Bool = false, into sink: (any FeedItemSink)? = nil) throws -> FeedContent {
        try parse(data, baseURL: baseURL, keepingItemsWithoutEnclosure: keepingItemsWithoutEnclosure,
                  keepingSourceText: keepingSourceText, into: sink, threads: .bySize)
    }

    /// How a parse uses threads: by the document's size, as every caller gets it, or (tests) one way
    /// whatever the size, to hold the two ways to the same result.
    enum Threads {
        case bySize
        /// Everything on the calling thread.
        case one
        /// The rules on a thread of their own (`FeedTape`).
        case tape
        /// As `tape`, every item with long notes handed to the `FinishingLine` as if the rules were
        /// always behind (which happens only now and then, as the threads' speeds go).
        case tapeHandingOver
        /// A document the scan reads in pieces on two threads (`FeedParser+Split`),
        /// whatever its size; one libxml2 reads as `tape`.
        case split

        /// Whether a document of `size` bytes is parsed on a `FeedTape`.
        func tapes(size: Int) -> Bool {
            switch self {
            case .bySize: return size >= FeedTape.threshold
            case .one: return false
            case .tape, .tapeHandingOver, .split: return true
            }
        }

        /// Whether a document of `size` bytes that the scan reads is read in pieces on two threads.
        func splits(size: Int) -> Bool {
            switch self {
            case .bySize: return size >= FeedTape.threshold
            case .split: return true
            case .one, .tape, .tapeHandingOver: return false
            }
        }
    }

    /// Who reads the document: `XMLFastScan` when it is plain well-formed UTF-8 (libxml2 otherwise), as
    /// every caller gets it, or (tests) libxml2 whatever it is, to hold the two to the same result.
    enum Reading {
        case scanningFirst
        case libxml2
    }

    /// `parse(_:baseURL:…)`, using threads and readers as told.
    static func parse(_ data: Data, baseURL: URL, keepingItemsWithoutEnclosure: Bool = false,
                      keepingSourceText: Bool = false, into sink: (any FeedItemSink)? = nil,
                      threads: Threads, reading: Reading = .scanningFirst) throws -> FeedContent {
        let recipe = FeedBuilder.Recipe(baseURL: baseURL, keepsItemsWithoutEnclosure: keepingItemsWithoutEnclosure,
                                         keepsSourceText: keepingSourceText, sink: sink)
        return try data.withUnsafeBytes { raw in
            let document = skippingLeadingWhitespace(raw)
            guard !document.isEmpty else { throw FeedError.empty }
            // libxml2 counts lines from where it starts reading: warnings count from the file's start.
            let skippedLines = raw[..<(raw.count - document.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }

            var (content, fatal) = try read(document, into: recipe, threads: threads, reading: reading)
            // Mislabelled or mixed encodings and stray control characters: repair the bytes, read again.
            if let error = fatal, error.isInvalidCharacter, FeedEncoding.isASCIICompatible(document),
               let repair = FeedEncoding.repaired(document) {
                try sink?.restart()
                (content, fatal) = try repair.bytes.withUnsafeBytes { try read($0, into: recipe, threads: threads, reading: reading) }
                content.warnings.insert(repair.warning, at: 0)
            }
            if let fatal { content.warnings.append(FeedWarning.recovered(from: fatal, skippedLines: skippedLines)) }
            return content
        }
    }

    /// Parses the feed in `file`, read a chunk at a time rather than held (a large feed's parse then
    /// peaks at the model's size, not the model's and the document's). The same result as `parse` of the
    /// file's bytes; `baseURL` defaults to the file's own URL.
    ///
    /// A document that needs its bytes repaired (see the type's summary) is read again whole: that
    /// takes one pass over the bytes anyway, and is rare. With `sink`, as `parse(_:baseURL:…)`.
    public static func parse(contentsOf file: URL, baseURL: URL? = nil, keepingItemsWithoutEnclosure: Bool = false,
                             keepingSourceText: Bool = false, into sink: (any FeedItemSink)? = nil) throws -> FeedContent {
        let recipe = FeedBuilder.Recipe(baseURL: baseURL ?? file, keepsItemsWithoutEnclosure: keepingItemsWithoutEnclosure,
                                         keepsSourceText: keepingSourceText, sink: sink)
        var source = try FeedFile(file)
        if source.size <= XMLFastScan.documentLimit, let content = try scan(source, into: recipe) { return content }
        source = try FeedFile(file)  // read again, for libxml2
        var (content, fatal) = try read(chunks: source.next, size: source.size, into: recipe, threads: .bySize) {
            source.head.isEmpty ? nil : source.head
        }
        if let fatal, fatal.isInvalidCharacter, source.head.withUnsafeBytes(FeedEncoding.isASCIICompatible) {
            try sink?.restart()
            return try parse(Data(contentsOf: file), baseURL: baseURL ?? file, keepingItemsWithoutEnclosure: keepingItemsWithoutEnclosure,
                             keepingSourceText: keepingSourceText, into: sink)
        }
        if let fatal { content.warnings.append(FeedWarning.recovered(from: fatal, skippedLines: source.skippedLines)) }
        return content
    }

    /// One pass over the document: the podcast, and libxml2's first fatal error if it had to recover.
    private static func read(_ document: UnsafeRawBufferPointer, into recipe: FeedBuilder.Recipe, threads: Threads,
                             reading: Reading) throws -> (FeedContent, XMLStreamReader.Failure?) {
        if reading == .scanningFirst, document.count <= XMLFastScan.documentLimit {
            // The scan reads in place: a copy of the caller's bytes.
            let split = threads.splits(size: document.count) ? SplitRead() : nil  // wakes while the bytes are copied
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: document.count, alignment: 16)
            defer { copy.deallocate() }
            copy.copyMemory(from: document)
            if let content = try scan(copy, into: recipe, threads: threads, split: split) { return (content, nil) }
        }
        var offset = 0
        return try read(chunks: {
            guard offset < document.count else { return nil }
            let length = min(XMLEventStream.chunkSize, document.count - offset)
            defer { offset += length }
            return UnsafeRawBufferPointer(rebasing: document[offset..<offset + length])
        }, size: document.count, into: recipe, threads: threads) { Array(document.prefix(FeedFile.headSize)) }
    }

    /// A file read whole by `XMLFastScan`, or nil when it is one for libxml2 (as `scan(_:into:threads:)`).
    private static func scan(_ source: FeedFile, into recipe: FeedBuilder.Recipe) throws -> FeedContent? {
        // The other thread of a split read wakes while the file is read (waking it took 40–70 µs).
        let split = Threads.bySize.splits(size: source.size) ? SplitRead() : nil
        guard let (buffer, document) = source.readWhole(sharingWith: split) else {
            split?.callOff()
            return nil
        }
        defer { buffer.deallocate() }
        return try scan(document, into: recipe, threads: .bySize, split: split)
    }

    /// The document read by `XMLFastScan` (changing its bytes), or nil when it is one for libxml2; items
    /// a sink was handed on the way are taken back (`restart`) before libxml2 reads it from the start.
    /// `split`: the other thread of a split read, already started (when `threads` splits a document of
    /// this size); it is called off when the document has no pieces.
    private static func scan(_ document: UnsafeMutableRawBufferPointer, into recipe: FeedBuilder.Recipe,
                             threads: Threads, split: SplitRead?) throws -> FeedContent? {
        var recipe = recipe
        recipe.textIsValidUTF8 = true  // the scan checks every byte before it hands any over
        let handler: FeedEvents, read: Bool
        if let split, let first = SplitRead.firstPoint(UnsafeRawBufferPointer(document)) {
            (handler, read) = splitRead(document, at: first, with: split, into: recipe)
        } else {
            split?.callOff()
            (handler, read) = rules(size: document.count, into: recipe, threads: threads) {
                XMLFastScan.read(document, handler: $0)
            }
        }
        guard read else {
            if handler.state.builder.handedToSink { try recipe.sink?.restart() }
            return nil
        }
        if let error = handler.error { throw error }
        guard handler.state.walk.sawRoot else { return nil }
        return try finish(handler)
    }

    /// The rules run over the events `read` hands the handler it is given: the rules themselves, or for a
    /// document of `size` bytes that `threads` tapes, a `FeedTape` replaying into them on a thread of its
    /// own (finished when `read` returns).
    private static func rules<Outcome>(size: Int, into recipe: FeedBuilder.Recipe, threads: Threads,
                                       _ read: (XMLEventHandler) -> Outcome) -> (FeedEvents, Outcome) {
        let handler = FeedEvents(builder: FeedBuilder(recipe))
        let tape = threads.tapes(size: size) ? FeedTape(replayingInto: handler, handingOverAll: threads == .tapeHandingOver) : nil
        let outcome = read(tape ?? handler)
        tape?.finish()
        return (handler, outcome)
    }

    /// The podcast the rules built, or what the sink threw.
    private static func finish(_ handler: FeedEvents) throws -> FeedContent {
        let content = handler.finish()
        if let error = handler.state.builder.sinkError { throw error }
        return content
    }

    /// One pass over the chunks of a document of `size` bytes; `head` gives its first bytes once read
    /// (nil: the document was empty), for telling an HTML page or garbage from a feed.
    private static func read(chunks: () -> UnsafeRawBufferPointer?, size: Int, into recipe: FeedBuilder.Recipe, threads: Threads,
                             head: () -> [UInt8]?) throws -> (FeedContent, XMLStreamReader.Failure?) {
        // Larger documents: libxml2 here, the rules beside it (`FeedTape`).
        let (handler, errors) = rules(size: size, into: recipe, threads: threads) {
            XMLEventStream.parse(chunks: chunks, handler: $0)
        }
        if let error = handler.error { throw error }
        guard handler.state.walk.sawRoot else {
            guard let start = head() else { throw FeedError.empty }
            if start.withUnsafeBytes(FeedEncoding.looksLikeHTML) { throw FeedError.notAFeed(rootElement: "html") }
            throw FeedError.notXML(reason: errors.first?.message ?? "the document has no root element")
        }
        return (try finish(handler), errors.fatal)
    }

    private static func skippingLeadingWhitespace(_ raw: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        while start < raw.count, isASCIIWhitespace(raw[start]) { start += 1 }
        return UnsafeRawBufferPointer(rebasing: raw[start...])
    }
}

/// Runs the rules over the events of one pass.
///
/// Its state is one struct changed by one mutating call per event: every access to a class's stored
/// property is checked for exclusivity at run time, and a feed has a million events.
final class FeedEvents: XMLEventHandler {
    struct State {
        var walk = FeedWalk()
        var builder: FeedBuilder
        /// Why the document is no feed (found at its root element), which stopped the parse.
        var error: FeedError?

        /// Returns false when the document turned out to be no feed.
        mutating func start(_ element: FeedElement, source: some FeedElementSource) -> Bool {
            guard error == nil else { return true }
            do {
                try walk.start(element, source: source, builder: &builder)
                return !walk.strayed
            } catch {
                self.error = error as? FeedError ?? .notXML(reason: "\(error)")
                return false
            }
        }

        mutating func end(_ element: some FeedElementSource) {
            walk.end(source: element, builder: &builder)
        }

        /// Whether the rules stand between two items in `scopes`, `base` the base for links: where a split
        /// read's pieces start and end (`SplitRead`).
        func isBetweenItems(in scopes: [FeedScope], base: URL?) -> Bool {
            walk.scopes == scopes && walk.capture == nil && builder.item == nil && builder.baseURL == base
        }

        mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {
            walk.characters(text)
        }

        mutating func characters(inDocument text: UnsafeBufferPointer<UInt8>) {
            walk.characters(inDocument: text)
        }

        mutating func finish() -> FeedContent {
            walk.endAll(builder: &builder)
            return builder.finish()
        }
    }

    // Unchecked: a million events each change `state` once, always from the parsing thread, never
    // re-entrantly (libxml2 calls one handler at a time); the run-time check per access (a thread-local
    // access set) was 6 % of that thread's instructions.
    @exclusivity(unchecked) var state: State
    var error: FeedError? { state.error }

    init(builder: FeedBuilder) {
        state = State(builder: builder)
    }

    /// Set on a split read's later pieces, which the first may call off. Read once an element, by the
    /// parsing thread alone (unchecked, as `state`), through `?.` (an `if let` retained and released it).
    @exclusivity(unchecked) var cancellation: SplitRead.Cancellation?
    /// How many pieces read on the other thread a split read took the items of (tests: it did split).
    var piecesReadApart = 0

    func startElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) {
        if cancellation?.isCancelled == true {
            stream.stop()
            return
        }
        if !start(stream.feedElement(element), source: element) { stream.stop() }
    }

    func endElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) {
        if !end(element) { stream.stop() }
    }

    /// A start tag, from the stream or a `FeedTape`; false when the parse is to stop.
    func start(_ element: FeedElement, source: some FeedElementSource) -> Bool {
        state.start(element, source: source)
    }

    /// A taped parse's rules' thread with nothing to replay: finishes a waiting item; false when none waits.
    func finishWaiting() -> Bool {
        state.builder.finishWaiting()
    }

    /// An end tag, from the stream or a `FeedTape`; false when the parse is to stop.
    func end(_ source: some FeedElementSource) -> Bool {
        state.end(source)
        return state.builder.sinkError == nil
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        state.characters(text)
    }

    func characters(inDocument text: UnsafeBufferPointer<UInt8>) {
        state.characters(inDocument: text)
    }

    func finish() -> FeedContent {
        state.finish()
    }
}

/// The sentences `FeedContent.warnings` holds.
enum FeedWarning {
    /// "line 2761: undefined entity &gtgt; — the rest was recovered"
    static func recovered(from failure: XMLStreamReader.Failure, skippedLines: Int) -> String {
        let place = failure.line > 0 ? "line \(failure.line + skippedLines): " : ""
        var problem = failure.message
        // libxml2 says "Entity 'gtgt' not defined".
        if failure.isUndefinedEntity, let open = problem.firstIndex(of: "'"),
           let close = problem[problem.index(after: open)...].firstIndex(of: "'") {
            problem = "undefined entity &\(problem[problem.index(after: open)..<close]);"
        }
        return "\(place)\(problem) — the rest was recovered"
    }
}
