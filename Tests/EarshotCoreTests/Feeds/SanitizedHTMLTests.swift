import EarshotCore
import Foundation
import Testing
import TestSupport

/// Show notes held as sanitized HTML must read back as exactly the tree that was written, and reading
/// anything else must neither fail nor invent structure.
@Suite struct SanitizedHTMLTests {
    static let tags = ["p", "a", "strong", "em", "b", "i", "ul", "ol", "li", "blockquote", "h1", "h6", "br", "img"]
    static let awkward = ["plain", "a < b", "R&D", "&amp; as written", "\"quoted\"", "<p>not a tag</p>", "x > y",
                          "&lt;", "café ☕", "tab\there", "&", "<", "<br>", "a]]>b", "&quot;&#39;"]

    /// A random tree in the writer's canonical shape: no two text nodes side by side, no empty text, void
    /// elements without children.
    static func tree(_ random: inout SplitMix64, depth: Int) -> [RichText] {
        var nodes: [RichText] = []
        for _ in 0..<Int(random.next() % 4) {
            if random.next() % 2 == 0 {
                let text = awkward[Int(random.next() % UInt64(awkward.count))]
                if case .text(let previous) = nodes.last { nodes[nodes.count - 1] = .text(previous + text) } else { nodes.append(.text(text)) }
                continue
            }
            let tag = tags[Int(random.next() % UInt64(tags.count))]
            var attributes: [String: String] = [:]
            if tag == "a" { attributes["href"] = "https://example.org/?q=\"x\"&y=<z>" }
            if tag == "img" {
                attributes["src"] = "https://example.org/a.png"
                if random.next() % 2 == 0 { attributes["alt"] = awkward[Int(random.next() % UInt64(awkward.count))] }
            }
            let children = tag == "br" || tag == "img" || depth == 0 ? [] : tree(&random, depth: depth - 1)
            nodes.append(.element(tag, attributes: attributes, children: children))
        }
        return nodes
    }

    @Test func readsBackEveryTreeItWrote() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<3_000 {
            let nodes = Self.tree(&random, depth: 4)
            let notes = SanitizedHTML(nodes: nodes)
            #expect(notes.nodes == nodes, "\(notes.html)")
            #expect(notes.isEmpty == nodes.isEmpty)
        }
    }

    /// The writer escapes eight bytes a step: what it writes must be what escaping one character at a
    /// time writes, wherever the characters to escape fall in a step (and `"` only in attribute values).
    @Test func escapesAsOneCharacterAtATime() {
        let alphabet = Array("abc xyz".utf8) + Array("\"&<>".utf8) + [0xC3, 0xA9]
        var random = SplitMix64(seed: 44)
        for _ in 0..<5_000 {
            let length = Int(random.next() % 40)
            let bytes = (0..<length).map { _ -> UInt8 in
                let pick = random.next()
                return pick % 100 < 85 ? alphabet[Int(pick / 100 % 7)] : alphabet[Int(pick / 100 % UInt64(alphabet.count))]
            }
            func escaped(_ quote: Bool) -> [UInt8] {
                bytes.flatMap { byte -> [UInt8] in
                    switch byte {
                    case UInt8(ascii: "&"): Array("&amp;".utf8)
                    case UInt8(ascii: "<"): Array("&lt;".utf8)
                    case UInt8(ascii: ">"): Array("&gt;".utf8)
                    case UInt8(ascii: "\"") where quote: Array("&quot;".utf8)
                    default: [byte]
                    }
                }
            }
            var text = SanitizedHTML.Writer()
            bytes.withUnsafeBufferPointer { text.text($0) }
            #expect(text.bytes == escaped(false), "text \(bytes)")
            // With room for all of it escaped (one pass), as the sanitizer's reused writer has.
            var roomy = SanitizedHTML.Writer(capacity: 6 * bytes.count + 64)
            bytes.withUnsafeBufferPointer { roomy.text($0) }
            #expect(roomy.bytes == escaped(false), "text with room \(bytes)")
            // A tag from packed markup around the value (the sanitizer's links), and with a second value
            // (its images).
            var packed = SanitizedHTML.Writer()
            bytes.withUnsafeBufferPointer { packed.markup(.init(text: "<a href=\""), $0, escaping: true, .init(text: "\">")) }
            #expect(packed.bytes == Array("<a href=\"".utf8) + escaped(true) + Array("\">".utf8), "attribute \(bytes)")
            var two = SanitizedHTML.Writer()
            bytes.withUnsafeBufferPointer { value in
                two.markup(.init(text: "<img alt=\""), value, escaping: true, .init(text: "\" src=\""), value, escapingSecond: true,
                           .init(text: "\">"))
            }
            #expect(two.bytes == Array("<img alt=\"".utf8) + escaped(true) + Array("\" src=\"".utf8) + escaped(true) + Array("\">".utf8),
                    "two packed attributes \(bytes)")
        }
    }

    /// A decoded reference is written as its scalar's UTF-8, escaped when it is `&`, `<` or `>`; a value
    /// that is no scalar (a surrogate, past U+10FFFF) as U+FFFD. Every length of sequence, both ends of each.
    @Test func writesDecodedCharacters() {
        let values: [UInt32] = [0x26, 0x3C, 0x3E, 0x22, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xD800, 0xDFFF,
                                0xE000, 0xFFFD, 0xFFFF, 0x1_0000, 0x1F600, 0x10_FFFF, 0x11_0000, 0xFFFF_FFFF]
        for value in values {
            var writer = SanitizedHTML.Writer()
            writer.text(scalar: value)
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            var expected = SanitizedHTML.Writer()
            expected.text(String(Character(scalar)))
            #expect(writer.bytes == expected.bytes, "U+\(String(value, radix: 16))")
        }
    }

    /// Empty text and values write nothing (and a writer that wrote nothing yet has no room at all).
    @Test func writesEmptyTextAndValues() {
        var writer = SanitizedHTML.Writer()
        let empty: [UInt8] = []
        empty.withUnsafeBufferPointer { writer.text(escaped: $0) }
        empty.withUnsafeBufferPointer { writer.text($0) }
        #expect(writer.count == 0)
        empty.withUnsafeBufferPointer { writer.markup(.init(text: "<a href=\""), $0, escaping: false, .init(text: "\">")) }
        #expect(writer.bytes == Array(#"<a href="">"#.utf8))
        writer.truncate(to: 0)
        writer.close("a")
        #expect(writer.bytes == Array("</a>".utf8))
    }

    @Test func escapesTextAndAttributes() {
        let notes = SanitizedHTML(nodes: [
            .element("p", attributes: [:], children: [
                .text("<script>alert(1)</script> & \"so\""),
                .element("a", attributes: ["href": "https://x.org/?a=1&b=\"2\""], children: [.text("x")]),
                .element("br", attributes: [:], children: []),
            ]),
        ])
        #expect(notes.html == #"<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "so"<a href="https://x.org/?a=1&amp;b=&quot;2&quot;">x</a><br></p>"#)
        #expect(notes.plainText == "<script>alert(1)</script> & \"so\"x\n\n")
    }

    /// Not what the writer writes: read as text or dropped, never an error, never an element with a
    /// name or attribute the writer would not have written in that shape.
    @Test(arguments: [
        ("<p>open", #"[{"c":["open"],"t":"p"}]"#),
        ("close</p>", #"["close"]"#),
        ("<p onclick=x>y</p>", #"["<p onclick=x>y"]"#),
        ("<P>upper</P>", #"["<P>upper<\/P>"]"#),
        ("<a href='x'>q</a>", #"["<a href='x'>q"]"#),
        ("<a href=\"unclosed>q", #"["<a href=\"unclosed>q"]"#),
        ("<br/>", #"["<br\/>"]"#),
        ("<", #"["<"]"#),
        ("&bogus; &amp", #"["&bogus; &amp"]"#),
        ("<b><i>x</b>y</i>", #"[{"c":[{"c":["x"],"t":"i"}],"t":"b"},"y"]"#),
    ])
    func readsAnythingElseSafely(_ html: String, _ expected: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let nodes = SanitizedHTML(sanitizedHTML: html).nodes
        #expect(String(decoding: try encoder.encode(nodes), as: UTF8.self) == expected)
    }

    /// Bytes that are not UTF-8 (a document libxml2 recovered from can hand some over) are replaced as
    /// `String` replaces them, so what is stored always reads back as written (a fuzzer's finding).
    @Test func storesOnlyValidUTF8() {
        let cases: [[UInt8]] = [[0xFF, 0xFF, 0xFF], [0x61, 0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
                                [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], Array("plain café ☕ 𝄞".utf8)]
        for bytes in cases {
            var writer = SanitizedHTML.Writer()
            bytes.withUnsafeBufferPointer { writer.text($0) }
            let notes = SanitizedHTML(writtenBy: writer)
            #expect(notes.utf8 == Array(String(decoding: bytes, as: UTF8.self).utf8), "\(bytes)")
            #expect(SanitizedHTML(nodes: notes.nodes) == notes, "\(bytes)")
        }
    }

    /// Pages and stored rows see the tree, exactly as they did when notes were held as one.
    @Test func codesAsTheTree() throws {
        let nodes: [RichText] = [.element("p", attributes: [:], children: [.text("Hi "), .element("em", attributes: [:], children: [.text("there")])])]
        let notes = SanitizedHTML(nodes: nodes)
        let json = try JSONEncoder().encode(notes)
        #expect(try JSONDecoder().decode([RichText].self, from: json) == nodes)
        #expect(try JSONDecoder().decode(SanitizedHTML.self, from: json) == notes)
        #expect(try JSONDecoder().decode(SanitizedHTML.self, from: Data("[]".utf8)).isEmpty)
    }
}
