#if canImport(Glibc)
import Glibc
#endif

/// What the walk reads from the element an event is about.
protocol FeedElementSource {
    /// The value of attribute `name` (a literal: "url", or "xml:base" with its prefix), or nil.
    func attribute(_ name: StaticString) -> String?
    /// Calls `body` with each attribute that has no prefix: its local name and its value as libxml2 hands
    /// it over (every `&` as `&#38;`: `XMLEventStream.Element.attributeValue` reads it), in document
    /// order. For the rules that read several attributes of many elements: one pass, not a lookup each.
    func forEachUnprefixedAttribute(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void)
    /// The name as written, for messages.
    var qualifiedName: String { get }
    func appendLocalName(to buffer: inout [UInt8])
}

extension XMLEventStream.Element: FeedElementSource {}

extension FeedElementSource {
    /// The values of up to four attributes without a prefix, found in one pass over the element's (a
    /// lookup each went over all of them and made a `String`); nil where the element has none. The first
    /// of a name counts, as a lookup's would (a well-formed start tag has each once). A value is as handed
    /// over (`AttributeValues.text` makes it text); it is valid during the event.
    @inline(__always)
    func attributes(_ first: StaticString, _ second: StaticString, _ third: StaticString = "",
                    _ fourth: StaticString = "") -> AttributeValues {
        var found = AttributeValues()
        forEachUnprefixedAttribute { name, value in
            if found.first == nil, AttributeValues.spells(name, first) { found.first = value }
            else if found.second == nil, AttributeValues.spells(name, second) { found.second = value }
            else if found.third == nil, AttributeValues.spells(name, third) { found.third = value }
            else if found.fourth == nil, AttributeValues.spells(name, fourth) { found.fourth = value }
        }
        return found
    }
}

/// What `FeedElementSource.attributes` found, in the order asked for.
struct AttributeValues {
    var first, second, third, fourth: UnsafeBufferPointer<UInt8>?

    /// A value as text (every `&#38;` an `&` again): what `FeedElementSource.attribute` gives.
    static func text(_ value: UnsafeBufferPointer<UInt8>) -> String { XMLEventStream.Element.attributeValue(value) }

    /// Whether an attribute's name is `expected` ("" is no name).
    @inline(__always)
    static func spells(_ name: UnsafeBufferPointer<UInt8>, _ expected: StaticString) -> Bool {
        name.count == expected.utf8CodeUnitCount && memcmp(name.baseAddress!, expected.utf8Start, name.count) == 0
    }
}

/// An attribute name as the rules ask for it ("url", or "xml:base" with its prefix), split at the
/// prefix's colon; what a `FeedElementSource` matches its attributes against.
struct WantedAttribute {
    let prefix: UnsafeBufferPointer<UInt8>?
    let localName: UnsafeBufferPointer<UInt8>

    /// Runs `body` with `name` split (its bytes, the literal's own, valid only during the call).
    @inline(__always)
    static func with<Result>(_ name: StaticString, _ body: (WantedAttribute) -> Result) -> Result {
        name.withUTF8Buffer { wanted in
            let colon = wanted.firstIndex(of: UInt8(ascii: ":"))
            return body(WantedAttribute(
                prefix: colon.map { UnsafeBufferPointer(rebasing: wanted[..<$0]) },
                localName: colon.map { UnsafeBufferPointer(rebasing: wanted[($0 + 1)...]) } ?? wanted))
        }
    }

    /// Whether an attribute of `localName` and `prefix` (nil: none) is the one wanted; `spells` says
    /// whether one of the attribute's names spells the given bytes. A name asked for without a prefix
    /// matches only an attribute without one.
    @inline(__always)
    func matches<Name>(localName attributeName: Name, prefix attributePrefix: Name?,
                       spells: (Name, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard spells(attributeName, localName) else { return false }
        guard let prefix else { return attributePrefix == nil }
        guard let attributePrefix else { return false }
        return spells(attributePrefix, prefix)
    }
}

/// The walk's state between events: the scope stack and the text being collected.
struct FeedWalk {
    var scopes: [FeedScope] = [.document]
    /// The field whose element's text is being collected, and the stack depth that element sits at.
    var capture: TextField?
    var captureDepth = 0
    /// The text collected so far, when it is not `textInDocument`.
    var text: [UInt8] = []
    /// The text collected, when it is one piece of the document read (`characters(inDocument:)`): kept
    /// where it stands, not copied (freakshow's notes are a megabyte; copying them into `text` was 5% of
    /// its parse's instructions, 1–2% of its time). Valid until the read ends, which is after the
    /// element's end uses it.
    private var textInDocument: UnsafeBufferPointer<UInt8>?
    var sawRoot = false
    /// A piece of a split read after the first (`FeedParser+Split`), which may hold items only:
    /// anything it reads outside an item that a rule keeps (a channel's field after its items) marks it
    /// `strayed`, and its reading stops (the first piece then reads on, as one read would).
    private(set) var readsPiece = false
    private(set) var strayed = false

    init() {
        scopes.reserveCapacity(32)
        text.reserveCapacity(16 * 1024)
    }

    /// A walk that starts between two elements in `scopes` (the first piece's at its first item), in a
    /// later piece of a split read.
    init(pieceIn scopes: [FeedScope]) {
        self.init()
        self.scopes = scopes
        sawRoot = true
        readsPiece = true
    }

    mutating func start(_ element: FeedElement, source: some FeedElementSource, builder: inout FeedBuilder) throws {
        let scope = scopes[scopes.count - 1]
        if let field = capture {
            if field.holdsHTML { appendTag(source, closing: false) }
            scopes.append(.ignored)
            return
        }
        let action = FeedRules.action(in: scope, for: element)
        if readsPiece, action != nil, !scope.isInItem, !(action?.entersItem ?? false) {
            strayed = true
            scopes.append(.ignored)
            return
        }
        if scope == .document {
            guard action != nil else { throw FeedError.notAFeed(rootElement: source.qualifiedName) }
            sawRoot = true
        }
        switch action {
        case .enter(let next)?:
            if next == .item || next == .entry { builder.beginItem(isAtom: next == .entry) }
            scopes.append(next)
        case .enterReading(let next, let field)?:
            builder.store(field, attributes: source)
            scopes.append(next)
        case .text(let field)?:
            beginCapture(field)
        case .attributesAndText(let attributes, let field)?:
            builder.store(attributes, attributes: source)
            beginCapture(field)
        case .attributes(let field)?:
            builder.store(field, attributes: source)
            scopes.append(.ignored)
        case nil:
            scopes.append(.ignored)
        }
    }

    private mutating func beginCapture(_ field: TextField) {
        capture = field
        captureDepth = scopes.count
        text.removeAll(keepingCapacity: true)
        textInDocument = nil
        scopes.append(.ignored)
    }

    /// Text of the document: collected when an element's text is being collected.
    @inline(__always)
    mutating func characters(_ piece: UnsafeBufferPointer<UInt8>) {
        guard capture != nil else { return }
        if textInDocument != nil { copyTextInDocument() }
        text.append(contentsOf: piece)
    }

    /// Text that stays in the document until the read ends: the element's first piece is kept as a view.
    @inline(__always)
    mutating func characters(inDocument piece: UnsafeBufferPointer<UInt8>) {
        guard capture != nil else { return }
        if text.isEmpty, textInDocument == nil {
            textInDocument = piece
        } else {
            characters(piece)
        }
    }

    /// More than one piece: the first is copied after all, and the rest added to it.
    private mutating func copyTextInDocument() {
        if let piece = textInDocument { text.append(contentsOf: piece) }
        textInDocument = nil
    }

    /// The end of the current element, `source`.
    mutating func end(source: some FeedElementSource, builder: inout FeedBuilder) {
        // The source is not passed on as an optional: wrapping it copied the element handed over (five
        // words) into a new value at every end tag, and the copy's wide loads waited on the narrow stores
        // that had just written it (a store-forwarding stall: 1.4% of a small feed's parse).
        if close(builder: &builder) { appendTag(source, closing: true) }
    }

    /// Closes what a truncated document left open, so its last item still counts.
    mutating func endAll(builder: inout FeedBuilder) {
        while scopes.count > 1 { _ = close(builder: &builder) }
    }

    /// Closes the current element; true when it is nested markup in HTML being collected, whose
    /// closing tag the caller appends.
    private mutating func close(builder: inout FeedBuilder) -> Bool {
        guard scopes.count > 1 else { return false }
        let closed = scopes.removeLast()
        if let field = capture {
            if scopes.count == captureDepth {
                if let piece = textInDocument {
                    // Read where it stands: notes kept as a view until their item ends, in the same read.
                    if field.isItemNotes, builder.item != nil {
                        builder.item?.storeNotes(field, inDocument: piece)
                    } else {
                        builder.store(field, piece)
                    }
                    textInDocument = nil
                } else if field.isItemNotes, builder.item != nil {
                    builder.item?.storeNotes(field, taking: &text)  // megabytes of notes: handed over, not copied
                } else {
                    text.withUnsafeBufferPointer { builder.store(field, $0) }
                }
                capture = nil
                return false
            }
            return field.holdsHTML
        }
        switch closed {
        case .item, .entry: builder.endItem()
        case .alternateEnclosure: builder.item?.endAlternate()
        default: break
        }
        return false
    }

    /// Rebuilds a nested XHTML element as a bare tag (`<p>`, `</p>`): its structure survives into the show
    /// notes; its attributes (links included) do not.
    private mutating func appendTag(_ source: some FeedElementSource, closing: Bool) {
        if textInDocument != nil { copyTextInDocument() }
        text.append(UInt8(ascii: "<"))
        if closing { text.append(UInt8(ascii: "/")) }
        source.appendLocalName(to: &text)
        text.append(UInt8(ascii: ">"))
    }
}
