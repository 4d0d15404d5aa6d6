@testable import Feeds
import Testing
import TestSupport

/// podcastparser's whitespace functions, done on UTF-8 bytes, against their definition on Unicode
/// scalars (Python's `str.isspace()`, `strip()`, `re.sub`), over random texts full of every kind of space.
@Suite("Python's whitespace, on bytes")
struct PythonTextTests {
    /// The definition: strip, then every run of spaces (line breaks kept, when asked) becomes one.
    static func reference(_ text: String, keepingLines: Bool) -> String {
        var out = String.UnicodeScalarView()
        var inRun = false
        for scalar in ScalarReference.strip(Substring(text).unicodeScalars) {
            let isLine = scalar == "\n" || scalar == "\r"
            if ScalarReference.isSpace(scalar), !(keepingLines && isLine) {
                if !inRun { out.append(" ") }
                inRun = true
            } else {
                out.append(scalar)
                inRun = false
            }
        }
        return String(out)
    }

    /// Python's spaces, their neighbours in UTF-8 (same lead bytes, other characters), and plain letters.
    static let pieces: [String] = [
        " ", "  ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{1C}", "\u{1F}", "\u{85}", "\u{A0}", "\u{1680}",
        "\u{2000}", "\u{2005}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
        "\u{200B}", "\u{2030}", "\u{2060}", "\u{3001}", "\u{A9}", "\u{1681}", "é", "日本", "a", "word", "x", "\u{1F600}",
    ]

    @Test("squash and squashKeepingLines agree with the definition on 5,000 random texts")
    func squashAgrees() {
        var random = SplitMix64(seed: 15)
        for _ in 0..<5_000 {
            let count = Int(random.next() % 12)
            let text = (0..<count).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            #expect(Python.squash(text) == Self.reference(text, keepingLines: false), "\(Array(text.unicodeScalars))")
            #expect(Python.squashKeepingLines(text) == Self.reference(text, keepingLines: true), "\(Array(text.unicodeScalars))")
            if !text.contains(where: { $0 == "<" || $0 == "&" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                #expect(Python.removeHTMLTags(text) == String(String.UnicodeScalarView(ScalarReference.strip(Substring(text).unicodeScalars))))
            }
        }
    }

    /// HTML-ish pieces: the tags, entities and line breaks each pass looks for, in every case, and near misses.
    static let htmlPieces: [String] = [
        "<br>", "<BR/>", "<br class=\"x\">", "<ul>", "</UL>", "<li>", "</li>", "</LI>", "<Li class=x>", "<p>", "<P>",
        "<p class=\"a\">", "<b>", "</b>", "<", ">", "<<", "&", "&amp;", "&AMP;", "&#39;", "&#0039;", "&#12345;", "&#5;",
        "&#x41;", "&nbsp;", "&eacute;", "&unknown;", "&;", "&ab;", "&日本語;", "&abcdefgh;", "&abcdefghi;", ";", "#",
        "1", "\n", "\r", "\r\n", " ", "\u{A0}", "\u{2003}", "é", "日本", "text", "&lt;", "&#8217;", "&#128512;", "\u{1F600}",
    ]

    @Test("removeHTMLTags on bytes agrees with its five passes on Unicode scalars, on 5,000 random documents")
    func removeHTMLTagsAgrees() {
        var random = SplitMix64(seed: 1_015)
        for _ in 0..<5_000 {
            let count = Int(random.next() % 16)
            let text = (0..<count).map { _ in Self.htmlPieces[Int(random.next() % UInt64(Self.htmlPieces.count))] }.joined()
            #expect(Python.removeHTMLTags(text) == ScalarReference.removeHTMLTags(text), "\(text.debugDescription)")
        }
        #expect(Python.removeHTMLTags("<p>Caf&eacute; &amp; <b>more</b></p><ul><li>one</li></ul>\n\n\n\nend &#8217;")
                == "Café & more\n\n * one\n\nend \u{2019}")
    }
}

/// What `Python.removeHTMLTags` did on Unicode scalars before it worked on bytes: the oracle it is
/// held to (each pass as podcastparser's `re.sub`, written out).
enum ScalarReference {
    /// `str.isspace()`: what `strip()` drops and `\s` matches.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    static func strip(_ text: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        var view = text
        while let first = view.first, isSpace(first) { view.removeFirst() }
        while let last = view.last, isSpace(last) { view.removeLast() }
        return view
    }

    /// `remove_html_tags`: line breaks for `<br>`, lists and paragraphs, tags stripped, `&#NN;` and
    /// `&name;` decoded (unknown names vanish), runs of three or more line breaks cut to two, stripped.
    static func removeHTMLTags(_ html: String) -> String {
        var result = replacing(html, at: ["<"]) { scalars, index in
            // (<br[^>]*>|<[/]?ul[^>]*>|</li>) → "\n"; <li[^>]*> → "\n * "; <[Pp]> → "\n\n"
            guard scalars[index] == "<" else { return nil }
            let rest = scalars[index...]
            if let end = tagEnd(rest, afterPrefix: "br") ?? tagEnd(rest, afterPrefix: "ul")
                ?? tagEnd(rest, afterPrefix: "/ul") { return (end, "\n") }
            if hasPrefix(rest, "</li>") { return (scalars.index(index, offsetBy: 5), "\n") }
            if let end = tagEnd(rest, afterPrefix: "li") { return (end, "\n * ") }
            if let close = scalars.index(index, offsetBy: 2, limitedBy: scalars.endIndex), close < scalars.endIndex,
               scalars[scalars.index(after: index)] == "p" || scalars[scalars.index(after: index)] == "P",
               scalars[close] == ">" { return (scalars.index(after: close), "\n\n") }
            return nil
        }
        result = replacing(result, at: ["<"]) { scalars, index in
            // <[^>]*> → ""
            guard scalars[index] == "<", let close = scalars[index...].firstIndex(of: ">") else { return nil }
            return (scalars.index(after: close), "")
        }
        result = replacing(result, at: ["&"]) { scalars, index in
            // &#(\d{2,4}); → chr(int)
            guard hasPrefix(scalars[index...], "&#") else { return nil }
            var cursor = scalars.index(index, offsetBy: 2)
            var digits = ""
            while cursor < scalars.endIndex, digits.count < 5, let digit = scalars[cursor].properties.numericType,
                  digit == .decimal, scalars[cursor].isASCII {
                digits.unicodeScalars.append(scalars[cursor])
                cursor = scalars.index(after: cursor)
            }
            guard (2...4).contains(digits.count), cursor < scalars.endIndex, scalars[cursor] == ";",
                  let value = Int(digits), let scalar = Unicode.Scalar(value) else { return nil }
            return (scalars.index(after: cursor), String(Character(scalar)))
        }
        result = replacing(result, at: ["&"]) { scalars, index in
            // &(.{2,8}); → entitydefs.get(name, ""): the longest candidate that ends in ";" wins.
            guard scalars[index] == "&" else { return nil }
            var candidates: [String.UnicodeScalarView.Index] = []
            var cursor = scalars.index(after: index)
            var length = 0
            while cursor < scalars.endIndex, length < 9, scalars[cursor] != "\n" {
                if length >= 2, scalars[cursor] == ";" { candidates.append(cursor) }
                length += 1
                cursor = scalars.index(after: cursor)
            }
            guard let semicolon = candidates.last else { return nil }
            let name = String(String.UnicodeScalarView(scalars[scalars.index(after: index)..<semicolon]))
            let value = name.withUTF8Bytes { HTMLEntities.html4Value(of: $0) }
            return (scalars.index(after: semicolon), value.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "")
        }
        result = replacing(result, at: ["\n", "\r"]) { scalars, index in
            // ([\r\n]{2})([\r\n])+ → \1
            var cursor = index
            var run = 0
            while cursor < scalars.endIndex, scalars[cursor] == "\n" || scalars[cursor] == "\r" {
                run += 1
                cursor = scalars.index(after: cursor)
            }
            guard run >= 3 else { return nil }
            return (cursor, String(String.UnicodeScalarView(scalars[index..<scalars.index(index, offsetBy: 2)])))
        }
        return String(String.UnicodeScalarView(ScalarReference.strip(Substring(result).unicodeScalars)))
    }

    /// One left-to-right, non-overlapping substitution pass, as `re.sub` makes: `match` returns where a
    /// match at `index` ends and its replacement, or nil.
    /// A match can only start at one of `triggers` (every pattern here begins with a fixed character):
    /// the stretches between them are copied whole, and a text without any is returned as it is.
    private static func replacing(
        _ text: String, at triggers: [Unicode.Scalar],
        _ match: (String.UnicodeScalarView, String.UnicodeScalarView.Index) -> (String.UnicodeScalarView.Index, String)?
    ) -> String {
        let scalars = text.unicodeScalars
        guard var next = scalars.firstIndex(where: triggers.contains) else { return text }
        // A String, not a UnicodeScalarView: appending a stretch of the text is then one copy of its bytes.
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if index < next {
                out.append(contentsOf: Substring(scalars[index..<next]))
                index = next
                continue
            }
            if let (end, replacement) = match(scalars, index) {
                out.append(replacement)
                index = end
            } else {
                out.unicodeScalars.append(scalars[index])
                index = scalars.index(after: index)
            }
            next = index < scalars.endIndex ? (scalars[index...].firstIndex(where: triggers.contains) ?? scalars.endIndex) : index
        }
        return out
    }

    private static func hasPrefix(_ scalars: Substring.UnicodeScalarView, _ prefix: String) -> Bool {
        var index = scalars.startIndex
        for expected in prefix.unicodeScalars {
            guard index < scalars.endIndex,
                  scalars[index].properties.lowercaseMapping == expected.properties.lowercaseMapping else { return false }
            index = scalars.index(after: index)
        }
        return true
    }

    /// For `<name[^>]*>` (any case): the index after the `>`, or nil.
    private static func tagEnd(_ scalars: Substring.UnicodeScalarView, afterPrefix name: String) -> String.UnicodeScalarView.Index? {
        guard hasPrefix(scalars, "<" + name) else { return nil }
        let afterName = scalars.index(scalars.startIndex, offsetBy: name.unicodeScalars.count + 1)
        guard let close = scalars[afterName...].firstIndex(of: ">") else { return nil }
        return scalars.index(after: close)
    }
}
