import FoundationEssentials

/// Show notes after sanitizing: a tree of allowlisted elements and text, never markup.
/// The server builds it from feed HTML (Feeds' sanitizer); the page builds DOM from it with
/// `createElement` + `textContent`, so nothing in a feed can become script.
///
/// JSON: text is a string; an element is `{"t": tag, "a": {attr: value}, "c": [children]}`
/// (`a` and `c` omitted when empty).
public enum RichText: Sendable, Equatable, Codable {
    case text(String)
    // Only the recursive case is boxed: text nodes (half of all nodes) cost no extra allocation.
    indirect case element(String, attributes: [String: String], children: [RichText])

    private enum Key: String, CodingKey { case t, a, c }

    public init(from decoder: Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .text(text)
            return
        }
        let c = try decoder.container(keyedBy: Key.self)
        self = .element(try c.decode(String.self, forKey: .t),
                        attributes: try c.decodeIfPresent([String: String].self, forKey: .a) ?? [:],
                        children: try c.decodeIfPresent([RichText].self, forKey: .c) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .text(let text):
            var c = encoder.singleValueContainer()
            try c.encode(text)
        case .element(let tag, let attributes, let children):
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(tag, forKey: .t)
            if !attributes.isEmpty { try c.encode(attributes, forKey: .a) }
            if !children.isEmpty { try c.encode(children, forKey: .c) }
        }
    }

    /// The text alone, blocks separated by newlines (for search and plain displays).
    public var plainText: String {
        switch self {
        case .text(let text): return text
        case .element(let tag, _, let children):
            let inner = children.map(\.plainText).joined()
            return ["p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "br"].contains(tag) ? inner + "\n" : inner
        }
    }
}
