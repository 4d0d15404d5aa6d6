import FoundationEssentials

/// The OPML parser's state between nodes: where in the document the reader is, the head's title being
/// collected, and the feeds found so far (de-duplicated as they arrive).
struct OPMLWalk {
    /// Where an open element sits; only the few places OPML gives meaning to are told apart.
    private enum Scope {
        case root, head, headTitle, body, ignored
    }

    private var scopes: [Scope] = []
    private(set) var sawRoot = false
    private(set) var sawBody = false
    var titleText: [UInt8] = []
    private var feeds: [OPMLFeed] = []
    private var rejected: [OPMLRejectedFeed] = []
    private var seen: Set<String> = []
    private var duplicates = 0
    private var name: [UInt8] = []

    /// Apps disagree on the attribute's case (`xmlUrl` is the spec's; `xmlURL` and `xmlurl` occur in the wild).
    /// libxml2 looks attributes up by exact name, so each known spelling is tried in turn.
    private static let feedURLAttributes = ["xmlUrl", "xmlURL", "xmlurl", "XMLURL", "XmlUrl", "XMLUrl"]
    private static let pageURLAttributes = ["htmlUrl", "htmlURL", "htmlurl", "HTMLURL", "HtmlUrl", "HTMLUrl"]

    /// True while the reader is inside the head's `<title>`.
    var collectsTitle: Bool { scopes.last == .headTitle }

    mutating func start(_ reader: XMLStreamReader) throws(OPMLError) {
        name.removeAll(keepingCapacity: true)
        reader.appendLocalName(to: &name)
        let scope: Scope
        switch scopes.last {
        case nil:
            guard !sawRoot, named("opml") else { throw .notOPML(rootElement: reader.qualifiedName) }
            sawRoot = true
            scope = .root
        case .root?:
            if named("body") { sawBody = true; scope = .body } else { scope = named("head") ? .head : .ignored }
        case .head?:
            scope = named("title") ? .headTitle : .ignored
        case .body?:
            // Folders nest outlines in outlines; a few exporters wrap them in other elements. Anything
            // below <body> stays in body scope, so an outline at any depth is seen.
            if named("outline") { visitOutline(reader) }
            scope = .body
        case .headTitle?, .ignored?:
            scope = .ignored
        }
        scopes.append(scope)
    }

    mutating func end() {
        _ = scopes.popLast()
    }

    func document() -> OPMLDocument {
        OPMLDocument(title: Self.cleaned(String(decoding: titleText, as: UTF8.self)),
                     feeds: feeds, rejected: rejected, duplicates: duplicates)
    }

    private mutating func visitOutline(_ reader: XMLStreamReader) {
        guard let raw = Self.firstAttribute(Self.feedURLAttributes, of: reader) else { return }
        let url = OPMLParser.normalizedURL(raw)
        guard !url.isEmpty else { return }  // `xmlUrl=""`: a folder or a placeholder, not a feed
        guard seen.insert(url).inserted else {
            duplicates += 1
            return
        }
        if let reason = OPMLParser.rejection(ofFeedURL: url) {
            rejected.append(OPMLRejectedFeed(url: url, reason: reason))
            return
        }
        // `text` is what OPML requires and apps display, but gPodder puts the show's description there and
        // the name in `title`: prefer `title` when it says something.
        let title = Self.cleaned(reader.attribute("title")) ?? Self.cleaned(reader.attribute("text"))
        let page = Self.cleaned(Self.firstAttribute(Self.pageURLAttributes, of: reader))
        feeds.append(OPMLFeed(url: url, title: title, htmlURL: page))
    }

    /// Whether the current element's local name is `expected`, ignoring ASCII case.
    private func named(_ expected: StaticString) -> Bool {
        guard name.count == expected.utf8CodeUnitCount else { return false }
        return zip(name, UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount))
            .allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    private static func firstAttribute(_ names: [String], of reader: XMLStreamReader) -> String? {
        for name in names {
            if let value = reader.attribute(name) { return value }
        }
        return nil
    }

    /// Whitespace runs (exports pad titles with newlines and tabs) folded to one space; blank is nil.
    private static func cleaned(_ text: String?) -> String? {
        guard let text else { return nil }
        let words = text.split(whereSeparator: { $0.isWhitespace })
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
