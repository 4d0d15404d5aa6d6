import FoundationEssentials

/// Show notes after sanitizing, held as the allowlisted HTML the sanitizer wrote: one string per
/// episode instead of a tree of nodes.
///
/// A parsed feed keeps thousands of these at once; as `[RichText]` trees they took four to five times
/// the bytes of the HTML (a node, an array and a string header for every run of text), and building and
/// freeing the trees was most of a large feed's parse time. The tree is built only where one episode's
/// notes are needed: `nodes`, and the JSON a page receives (`Codable` writes the tree, so the wire
/// format and stored rows are those of `RichText`).
///
/// The string only ever holds what `SanitizedHTML.Writer` writes — kept elements (`RichText`'s tags)
/// with `href`, `src` or `alt` in double quotes, text with `&`, `<`, `>` (and `"` in attributes)
/// escaped — and `nodes` reads exactly that back. It is never handed to a page as markup.
public struct SanitizedHTML: Sendable, Hashable {
    /// The sanitized HTML.
    public let html: String

    /// Notes the Feeds sanitizer (or `Writer`) wrote. Anything else reads back as what it spells
    /// within the rules above; unknown markup is text.
    public init(sanitizedHTML html: String) {
        self.html = html
    }

    /// Notes given as a tree (stored rows, plain-text paragraphs).
    public init(nodes: [RichText]) {
        var writer = Writer()
        for node in nodes { writer.write(node) }
        html = writer.finish()
    }

    /// No notes.
    public static let empty = SanitizedHTML(sanitizedHTML: "")

    public var isEmpty: Bool { html.isEmpty }

    /// The notes as a tree of allowlisted elements and text, for a page to build DOM from.
    public var nodes: [RichText] {
        var html = html
        return html.withUTF8 { bytes in
            var reader = SanitizedHTMLReader(bytes: bytes)
            return reader.read()
        }
    }

    /// The text alone, blocks separated by newlines.
    public var plainText: String { nodes.map(\.plainText).joined() }
}

extension SanitizedHTML: Codable {
    public init(from decoder: Decoder) throws {
        self.init(nodes: try [RichText](from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        try nodes.encode(to: encoder)
    }
}

extension SanitizedHTML {
    /// Writes sanitized notes as HTML, an element at a time (`open`/`close`) or from a tree (`write`).
    /// Escapes text and attribute values; knows nothing of which elements are allowed (its callers do).
    public struct Writer {
        public private(set) var bytes: [UInt8] = []

        public init() {}

        public init(reusing buffer: [UInt8]) {
            bytes = buffer
            bytes.removeAll(keepingCapacity: true)
        }

        /// Elements written without content or an end tag.
        public static func isVoid(_ tag: String) -> Bool { tag == "br" || tag == "img" }

        /// `<tag a="v" …>`, attributes in name order (the same notes always give the same string).
        public mutating func open(_ tag: String, attributes: [String: String] = [:]) {
            open(tag, sortedAttributes: attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }

        /// `<tag a="v" …>` with the attributes already in name order.
        public mutating func open(_ tag: String, sortedAttributes: [(name: String, value: String)]) {
            bytes.append(UInt8(ascii: "<"))
            bytes.append(contentsOf: tag.utf8)
            for (name, value) in sortedAttributes {
                bytes.append(0x20)
                bytes.append(contentsOf: name.utf8)
                bytes.append(contentsOf: "=\"".utf8)
                var value = value
                value.withUTF8 { appendEscaped(buffer: $0, quote: true) }
                bytes.append(UInt8(ascii: "\""))
            }
            bytes.append(UInt8(ascii: ">"))
        }

        public mutating func close(_ tag: String) {
            bytes.append(contentsOf: "</".utf8)
            bytes.append(contentsOf: tag.utf8)
            bytes.append(UInt8(ascii: ">"))
        }

        /// Text (UTF-8), escaped. (Concrete, not generic over sequences: a generic public method called
        /// from another module runs unspecialized, through witness tables, byte by byte.)
        public mutating func text(_ text: [UInt8]) {
            text.withUnsafeBufferPointer { appendEscaped(buffer: $0, quote: false) }
        }

        /// Text (UTF-8), escaped.
        public mutating func text(_ text: UnsafeBufferPointer<UInt8>) {
            appendEscaped(buffer: text, quote: false)
        }

        /// One byte of text (UTF-8), escaped.
        public mutating func text(byte: UInt8) {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            default: bytes.append(byte)
            }
        }

        /// Text, escaped.
        public mutating func text(_ text: String) {
            var text = text
            text.withUTF8 { appendEscaped(buffer: $0, quote: false) }
        }

        public mutating func write(_ node: RichText) {
            switch node {
            case .text(let text):
                self.text(text)
            case .element(let tag, let attributes, let children):
                open(tag, attributes: attributes)
                guard !Self.isVoid(tag) else { return }
                for child in children { write(child) }
                close(tag)
            }
        }

        /// Drops what was written from `offset` on (an element that stayed empty).
        public mutating func truncate(to offset: Int) {
            bytes.removeLast(bytes.count - offset)
        }

        /// Whether the bytes end with `<br>` after `offset`.
        public func endsWithBreak(after offset: Int) -> Bool {
            let count = bytes.count
            return count - 4 >= offset && bytes[count - 4] == UInt8(ascii: "<") && bytes[count - 3] == UInt8(ascii: "b")
                && bytes[count - 2] == UInt8(ascii: "r") && bytes[count - 1] == UInt8(ascii: ">")
        }

        public func finish() -> String { String(decoding: bytes, as: UTF8.self) }

        /// Copies runs that need no escaping in one go: notes are mostly such runs.
        private mutating func appendEscaped(buffer: UnsafeBufferPointer<UInt8>, quote: Bool) {
            var runStart = 0
            for (index, byte) in buffer.enumerated() {
                let entity: StaticString
                switch byte {
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "\""): guard quote else { continue }; entity = "&quot;"
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index]))
                entity.withUTF8Buffer { bytes.append(contentsOf: $0) }
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart...]))
        }
    }
}
