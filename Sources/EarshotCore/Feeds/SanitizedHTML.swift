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
    /// The sanitized HTML's UTF-8. Bytes rather than a `String`: the writer's output is UTF-8 by
    /// construction (it copies UTF-8 runs whole and encodes what it decodes), and a `String` would
    /// validate the 20 MB of a large feed's notes once more.
    public let utf8: [UInt8]

    /// The sanitized HTML.
    public var html: String { String(decoding: utf8, as: UTF8.self) }

    /// Notes the Feeds sanitizer (or `Writer`) wrote. Anything else reads back as what it spells
    /// within the rules above; unknown markup is text.
    public init(sanitizedHTML html: String) {
        utf8 = Array(html.utf8)
    }

    /// Bytes a `Writer` wrote (UTF-8 by construction; anything else is read leniently, never trusted).
    public init(writtenBy writer: Writer) {
        self.init(writtenBy: writer, checking: true)
    }

    /// Bytes a `Writer` wrote; `checking: false` when they are known to be well-formed UTF-8 (the
    /// writer was given only well-formed text: checked again in debug builds).
    public init(writtenBy writer: Writer, checking: Bool) {
        assert(checking || writer.withBytes(UTF8Check.isValid), "the writer was given text that is not UTF-8")
        // Feeds are UTF-8 by the time they are parsed, but a document libxml2 recovered from can hand
        // over stray bytes: anything invalid is replaced (U+FFFD), as `String` would, so the bytes always
        // read back as they were written.
        guard !checking || writer.withBytes(UTF8Check.isValid) else {
            utf8 = writer.withBytes { Array(String(decoding: $0, as: UTF8.self).utf8) }
            return
        }
        // Exactly sized (the writer's spare capacity stays behind), copied in one block.
        utf8 = writer.withBytes { written in
            [UInt8](unsafeUninitializedCapacity: written.count) { copy, count in
                if let source = written.baseAddress, let target = copy.baseAddress {
                    target.initialize(from: source, count: written.count)
                }
                count = written.count
            }
        }
    }

    /// Notes given as a tree (stored rows, plain-text paragraphs).
    public init(nodes: [RichText]) {
        var writer = Writer()
        for node in nodes { writer.write(node) }
        self.init(writtenBy: writer)
    }

    /// No notes.
    public static let empty = SanitizedHTML(sanitizedHTML: "")

    public var isEmpty: Bool { utf8.isEmpty }

    /// The notes as a tree of allowlisted elements and text, for a page to build DOM from.
    public var nodes: [RichText] {
        utf8.withUnsafeBufferPointer { bytes in
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
