import EarshotCore
import Foundation
import Testing
import TestSupport
@testable import Feeds

/// The show-notes sanitizer: hostile payloads come out inert, ordinary notes keep their structure.
/// Outputs are compared as their wire JSON (`{"t": tag, "a": attributes, "c": children}`).
@Suite struct ShowNotesTests {
    static func json(_ notes: SanitizedHTML) -> String { json(notes.nodes) }
    static func violations(_ notes: SanitizedHTML) -> [String] { violations(notes.nodes) }

    static func json(_ nodes: [RichText]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(nodes)) ?? Data(), as: UTF8.self)
    }

    /// Every element allowlisted, every attribute allowed for its element, every URL http(s) (or mailto
    /// for a link): what must hold for any input at all.
    static func violations(_ nodes: [RichText]) -> [String] {
        let allowed: [String: Set<String>] = [
            "p": [], "br": [], "a": ["href"], "strong": [], "em": [], "b": [], "i": [], "ul": [], "ol": [], "li": [],
            "blockquote": [], "h1": [], "h2": [], "h3": [], "h4": [], "h5": [], "h6": [], "img": ["src", "alt"],
        ]
        return nodes.flatMap { node -> [String] in
            guard case .element(let tag, let attributes, let children) = node else { return [] }
            var found: [String] = []
            if let names = allowed[tag] {
                found += attributes.keys.filter { !names.contains($0) }.map { "\(tag)[\($0)]" }
            } else {
                found.append("<\(tag)>")
            }
            let schemes = tag == "a" ? ["http://", "https://", "mailto:"] : ["http://", "https://"]
            for key in ["href", "src"] {
                if let url = attributes[key]?.lowercased(), !schemes.contains(where: url.hasPrefix) {
                    found.append("\(tag)[\(key)=\(url)]")
                }
            }
            return found + violations(children)
        }
    }

    /// Hostile input → exactly what comes out.
    static let hostile: [(String, String)] = [
        ("<script>alert(1)</script>hello", #"["hello"]"#),
        ("<SCRIPT SRC=//evil/x.js></SCRIPT>ok", #"["ok"]"#),
        ("<img src=x onerror=alert(1)>", "[]"),
        (#"<img src="https://ok.example/x.png" onerror="alert(1)" alt="A &amp; B" width=1>"#,
         #"[{"a":{"alt":"A & B","src":"https://ok.example/x.png"},"t":"img"}]"#),
        (#"<img srcset="javascript:alert(1) 1x" src="https://ok.example/i.png">"#,
         #"[{"a":{"src":"https://ok.example/i.png"},"t":"img"}]"#),
        (#"<a href="javascript:alert(1)">x</a>"#, #"["x"]"#),
        (#"<a href="JaVaScRiPt:alert(1)">x</a>"#, #"["x"]"#),
        (#"<a href="  javascript:alert(1)">x</a>"#, #"["x"]"#),
        (#"<a href="java&#x09;script:alert(1)">x</a>"#, #"["x"]"#),
        (#"<a href="jav&#x0A;ascript:alert(1)">x</a>"#, #"["x"]"#),
        (#"<a href="&#106;avascript:alert(1)">x</a>"#, #"["x"]"#),
        (#"<a href="javascript&colon;alert(1)">x</a>"#, #"["x"]"#),
        (#"<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">x</a>"#, #"["x"]"#),
        ("<a href=\"\u{1}javascript:alert(1)\">x</a>", #"["x"]"#),
        ("<a href=\"jav\u{0}ascript:alert(1)\">x</a>", #"["x"]"#),
        ("<a href=javascript:alert(1)>x</a>", #"["x"]"#),
        (#"<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>"#, #"["x"]"#),
        (#"<a href="vbscript:msgbox(1)">x</a>"#, #"["x"]"#),
        (#"<a href="https://ok.example/" onclick="alert(1)" target="_blank" rel="x" style="position:fixed">x</a>"#,
         #"[{"a":{"href":"https://ok.example/"},"c":["x"],"t":"a"}]"#),
        // An address whose references are all `&amp;` is kept as written (escaped already); one with
        // any other reference is decoded first.
        (#"<a href="https://ok.example/?a=1&amp;b=2&amp;c">q</a>"#,
         #"[{"a":{"href":"https://ok.example/?a=1&b=2&c"},"c":["q"],"t":"a"}]"#),
        (#"<a href="https://ok.example/?a=1&b=2&amp;c=&quot;">q</a>"#,
         #"[{"a":{"href":"https://ok.example/?a=1&b=2&c=\""},"c":["q"],"t":"a"}]"#),
        (#"<a href="java&amp;script:alert(1)">x</a>"#, #"["x"]"#),
        (#"<a href="https://ok.example/a" href="javascript:alert(1)">first wins</a>"#,
         #"[{"a":{"href":"https://ok.example/a"},"c":["first wins"],"t":"a"}]"#),
        ("<svg onload=alert(1)><circle/></svg>after", #"["after"]"#),
        ("<svg><script>alert(1)</script><svg><g/></svg>inner</svg>after", #"["after"]"#),
        ("<svg><svg/><g/></svg>after", #"["after"]"#),
        (#"<math><mi xlink:href="javascript:alert(1)">x</mi></math>after"#, #"["after"]"#),
        (#"<p style="background:url(javascript:alert(1))" onmouseover=alert(1)>text</p>"#, #"[{"c":["text"],"t":"p"}]"#),
        (#"<div style="width: expression(alert(1))">x</div>"#, #"["x"]"#),
        (#"<style>body{background:url("javascript:alert(1)")}</style>visible"#, #"["visible"]"#),
        (#"<iframe src="javascript:alert(1)"></iframe><iframe srcdoc="<script>alert(1)</script>">fallback</iframe>"#, "[]"),
        (#"<object data="javascript:alert(1)"><p>fallback</p></object><embed src="javascript:alert(1)">end"#, #"["end"]"#),
        (#"<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button></form>"#, #"["x"]"#),
        (#"<base href="javascript:alert(1)//"><meta http-equiv="refresh" content="0;url=javascript:alert(1)">x"#, #"["x"]"#),
        ("<template><script>alert(1)</script></template>after", #"["after"]"#),
        ("<x onclick=alert(1)>text</x><input onfocus=alert(1) autofocus><details open ontoggle=alert(1)>d</details>",
         #"["text",{"t":"br"},"d"]"#),
        ("<!--<script>alert(1)</script>-->visible<!-- unterminated <script>alert(1)</script>", #"["visible"]"#),
        ("<![CDATA[<script>alert(1)</script>]]>after", #"["after"]"#),
        // Markup split to fool a filter stays text, as in a browser.
        ("<scr<script>ipt>alert(1)</script>", #"["ipt>alert(1)"]"#),
        (#"<noscript><p title="</noscript><img src=x onerror=alert(1)>">"#, #"["\">"]"#),
        // Escaped markup is text, never an element.
        ("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>", #"[{"c":["<script>alert(1)</script>"],"t":"p"}]"#),
        // An img alt is text too.
        (#"<img src="https://ok.example/i.png" alt="<script>alert(1)</script>">"#,
         #"[{"a":{"alt":"<script>alert(1)</script>","src":"https://ok.example/i.png"},"t":"img"}]"#),
    ]

    @Test(arguments: hostile)
    func makesHostileMarkupInert(_ html: String, _ expected: String) {
        let notes = ShowNotes.sanitize(html: html)
        #expect(Self.json(notes) == expected)
        #expect(Self.violations(notes).isEmpty)
    }

    /// Ordinary notes → their structure, whitespace collapsed, references decoded.
    static let ordinary: [(String, String)] = [
        ("<p>One</p>\n\n<p>Two <b>bold</b> and <a href=\"https://x.example/\">link</a>.</p>",
         #"[{"c":["One"],"t":"p"},{"c":["Two ",{"c":["bold"],"t":"b"}," and ",{"a":{"href":"https://x.example/"},"c":["link"],"t":"a"},"."],"t":"p"}]"#),
        ("<ul><li>a<li>b</ul><ol><li>c</li></ol>",
         #"[{"c":[{"c":["a"],"t":"li"},{"c":["b"],"t":"li"}],"t":"ul"},{"c":[{"c":["c"],"t":"li"}],"t":"ol"}]"#),
        ("<p>para<p>next<ul><li>in list</ul>after list",
         #"[{"c":["para"],"t":"p"},{"c":["next"],"t":"p"},{"c":[{"c":["in list"],"t":"li"}],"t":"ul"},"after list"]"#),
        ("<h1>Title</h1><h2>Sub<h3>Nested</h3><blockquote><p>quoted</p></blockquote>",
         #"[{"c":["Title"],"t":"h1"},{"c":["Sub"],"t":"h2"},{"c":["Nested"],"t":"h3"},{"c":[{"c":["quoted"],"t":"p"}],"t":"blockquote"}]"#),
        ("<STRONG>s</STRONG><em>e</em><I>i</I>", #"[{"c":["s"],"t":"strong"},{"c":["e"],"t":"em"},{"c":["i"],"t":"i"}]"#),
        // Unwrapped blocks still end lines; cells are separated by spaces.
        ("<div>Line one</div><div>Line two<br>Line three</div>", #"["Line one",{"t":"br"},"Line two",{"t":"br"},"Line three"]"#),
        ("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", #"["a b",{"t":"br"},"c"]"#),
        ("<span>in</span><span>line</span> <font color=red>text</font>", #"["inline text"]"#),
        // Misnested and unclosed tags close as browsers close them; a link inside a link ends the first.
        ("<b><i>x</b>y</i>z", #"[{"c":[{"c":["x"],"t":"i"}],"t":"b"},"yz"]"#),
        (#"<a href="https://ok.example/">unclosed"#, #"[{"a":{"href":"https://ok.example/"},"c":["unclosed"],"t":"a"}]"#),
        (#"<p>x<a href="https://a.example/">a<a href="https://b.example/">b</a>c</p>"#,
         #"[{"c":["x",{"a":{"href":"https://a.example/"},"c":["a"],"t":"a"},{"a":{"href":"https://b.example/"},"c":["b"],"t":"a"},"c"],"t":"p"}]"#),
        // Breaks that break nothing go; empty elements go.
        ("<br><p><br>a<br>b<br></p><br><p> </p><b></b>", #"[{"c":["a",{"t":"br"},"b"],"t":"p"}]"#),
        ("Plain &amp; more&nbsp;here &#150; dash &#x1F600; &unknown; &amp &", "[\"Plain & more\u{A0}here – dash 😀 &unknown; & &\"]"),
        ("   leading   and\n\ttrailing   ", #"["leading and trailing"]"#),
        ("a < b and c<3", #"["a < b and c<3"]"#),
        (#"<a href="&#x68;ttps://ok.example/">decoded</a><a href="mailto:a@b.example">mail</a><img src="mailto:x@y">"#,
         #"[{"a":{"href":"https://ok.example/"},"c":["decoded"],"t":"a"},{"a":{"href":"mailto:a@b.example"},"c":["mail"],"t":"a"}]"#),
        // An address with a quote or angle bracket in it (nothing to decode) is kept, escaped where written.
        (#"<a href='https://q.example/"quoted"<x>'>q</a><img alt=x src='https://i.example/>"a".png'>"#,
         #"[{"a":{"href":"https://q.example/\"quoted\"<x>"},"c":["q"],"t":"a"},{"a":{"alt":"x","src":"https://i.example/>\"a\".png"},"t":"img"}]"#),
        // Without a feed to resolve against, a relative link is refused (kept as text).
        (#"<a href="/episodes/5">relative</a>"#, #"["relative"]"#),
        // An http URL without its "//" and host is no web address (found by the fuzzer).
        (#"<a href="http:/x">one slash</a><a href="https://">no host</a><img src="HTTP:example.com/i.png">"#,
         #"["one slashno host"]"#),
    ]

    @Test(arguments: ordinary)
    func keepsTheStructureOfOrdinaryNotes(_ html: String, _ expected: String) {
        let notes = ShowNotes.sanitize(html: html)
        #expect(Self.json(notes) == expected)
        #expect(Self.violations(notes).isEmpty)
    }

    @Test func resolvesRelativeLinksAgainstTheFeed() {
        let html = #"<a href="/episodes/5">a</a><img src="img/x.png"><a href="//cdn.example/y">b</a>"#
        let notes = html.withUTF8Bytes { ShowNotes.sanitize(bytes: $0, baseURL: URL(string: "https://pod.example/feed/rss")!) }
        #expect(Self.json(notes) == #"[{"a":{"href":"https://pod.example/episodes/5"},"c":["a"],"t":"a"},{"a":{"src":"https://pod.example/feed/img/x.png"},"t":"img"},{"a":{"href":"https://cdn.example/y"},"c":["b"],"t":"a"}]"#)
    }

    @Test func turnsPlainTextIntoParagraphs() {
        let notes = ShowNotes.paragraphs(plainText: "First line\nsecond line\n\nNext paragraph")
        #expect(Self.json(notes) == #"[{"c":["First line",{"t":"br"},"second line"],"t":"p"},{"c":["Next paragraph"],"t":"p"}]"#)
        #expect(ShowNotes.paragraphs(plainText: "").isEmpty)
    }

    /// The byte-level split gives what splitting the `String` by characters gives ("\r\n" is one
    /// character, so its line feed splits nothing), on random mixes of the characters that matter.
    @Test func splitsParagraphsAsCharactersWould() {
        func reference(_ plainText: String) -> SanitizedHTML {
            var out = SanitizedHTML.Writer()
            for paragraph in plainText.split(separator: "\n\n", omittingEmptySubsequences: true) {
                var lines = 0
                for line in paragraph.split(separator: "\n", omittingEmptySubsequences: true) {
                    let text = String(line).trimmingASCIIWhitespace()
                    guard !text.isEmpty else { continue }
                    out.open(lines == 0 ? "p" : "br")
                    out.text(text)
                    lines += 1
                }
                if lines > 0 { out.close("p") }
            }
            return SanitizedHTML(writtenBy: out)
        }
        let pieces = ["a", "bc", "é", "\u{301}", " ", "\t", "\n", "\n", "\n", "\r", "\r\n", "<", "&"]
        var generator = SplitMix64(seed: 5)
        var breaks = 0
        for _ in 0..<5_000 {
            let text = (0..<Int(generator.next() % 16)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let notes = ShowNotes.paragraphs(plainText: text)
            #expect(notes == reference(text), "\(text.debugDescription)")
            if notes.utf8.count > 0, notes.html.contains("</p><p>") { breaks += 1 }
        }
        #expect(breaks > 100, "the inputs must make several paragraphs")
    }

    /// An image's `alt` shows as text: references decoded, every control character and run of whitespace
    /// one space, the ends trimmed; an `alt` with nothing left is dropped. Random mixes of pieces whose
    /// shown text is known, read where they stand (already as shown) and through the decoding path alike.
    @Test func showsImageAlternativesAsText() {
        // (as written in the attribute, as shown before squashing; "\u{20}" stands for whitespace)
        let pieces: [(String, String)] = [
            ("a", "a"), ("Bc", "Bc"), ("é", "é"), (" ", " "), ("\t", " "), ("\n", " "), ("\u{1}", " "), ("\u{7F}", " "),
            ("&amp;", "&"), ("&#9;", " "), ("&#x1;", " "), ("&quot;", "\""), ("<", "<"), (">", ">"), ("&nbsp;", "\u{A0}"),
            ("'", "'"),
        ]
        var generator = SplitMix64(seed: 11)
        var asWritten = 0, decoded = 0, dropped = 0
        for _ in 0..<4_000 {
            let chosen = (0..<Int(generator.next() % 7)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
            let written = chosen.map(\.0).joined()
            let shown = chosen.map(\.1).joined().split(separator: " ").joined(separator: " ")
            let notes = ShowNotes.sanitize(html: #"<img src="https://i.example/a.png" alt="\#(written)">"#).nodes
            let expected: [String: String] = shown.isEmpty ? ["src": "https://i.example/a.png"]
                : ["alt": shown, "src": "https://i.example/a.png"]
            #expect(notes == [.element("img", attributes: expected, children: [])], "\(written.debugDescription)")
            if shown.isEmpty { dropped += 1 } else if shown == written { asWritten += 1 } else { decoded += 1 }
        }
        #expect(asWritten > 200 && decoded > 200 && dropped > 200, "every path must be taken")
    }

    /// Deep nesting is cut at `maxDepth`, so encoding, decoding and comparing the tree stay shallow.
    @Test func boundsTheDepthOfTheTree() async throws {
        let html = String(repeating: "<b><blockquote>", count: 50_000) + "deep"
        let notes = try await HeavyWork.run { ShowNotes.sanitize(html: html).nodes }
        func depth(_ nodes: [RichText]) -> Int {
            nodes.map { if case .element(_, _, let children) = $0 { 1 + depth(children) } else { 0 } }.max() ?? 0
        }
        #expect(depth(notes) <= HTMLSanitizer.maxDepth)
        #expect(notes.map(\.plainText).joined().contains("deep"))
        let decoded = try JSONDecoder().decode([RichText].self, from: JSONEncoder().encode(notes))
        #expect(decoded == notes)
    }

    /// Inputs made to make a careless tokenizer search the rest of the input again and again: each must
    /// stay linear — eight times the input (128 KB → 1 MB), about eight times the time, where a pass that
    /// searched the rest again would take sixty-four (`Growth`).
    @Test(arguments: ["<a", "<!--", "<p title=\"", "<script>", "<svg>", "<svg a=\"", "&#", "<a href='", "</", "<!x", "<![CDATA[", "]]>"])
    func staysLinearOnPathologicalInput(_ unit: String) async throws {
        let html = [1, 8].map { String(repeating: unit, count: $0 * 125_000 / unit.utf8.count) }
        let growth = try await Growth.ratio { scale in _ = ShowNotes.sanitize(html: html[scale == 1 ? 0 : 1]) }
        #expect(growth < Growth.linearLimit(), "\(unit): 8× the input took \(growth)× the time")
    }

    /// Every named reference of the table decodes to its code point (looked up by its packed bytes),
    /// with and without its `;` where HTML allows that; a name one letter off, or too long, decodes to
    /// nothing.
    @Test func decodesEveryNamedReference() {
        for (name, value) in HTMLEntities.table {
            let decoded = "&\(name);".withUTF8Bytes { HTMLEntities.decode($0, at: 0, inAttribute: false) }
            #expect(decoded?.value == value && decoded?.end == name.utf8.count + 2, "&\(name);")
            for wrong in [name + "x", "x" + name, String(name.dropLast())] where HTMLEntities.table[wrong] == nil {
                #expect("&\(wrong);".withUTF8Bytes { HTMLEntities.value(of: UnsafeBufferPointer(rebasing: $0[1..<($0.count - 1)])) } == nil,
                        "&\(wrong);")
            }
        }
        #expect("&averyverylongname;".withUTF8Bytes { HTMLEntities.decode($0, at: 0, inAttribute: false) } == nil)
    }

    /// Each kept element's packed start and end tags write exactly `<name>` and `</name>`, and what is
    /// written next follows them (the two stores write past the tag; the next write covers that).
    @Test func packedTagsWriteTheirTags() {
        for raw in NoteElement.p.rawValue...NoteElement.img.rawValue {
            let element = NoteElement(rawValue: raw)!
            var writer = SanitizedHTML.Writer()
            writer.markup(element.startTag)
            writer.text(byte: UInt8(ascii: "x"))
            writer.markup(element.endTag)
            writer.markup(element.startTag)
            let name = element.name.description
            #expect(writer.finish() == "<\(name)>x</\(name)><\(name)>", "\(name)")
        }
    }

    /// The packed markup around links' and images' values is what it says.
    @Test func packedAttributeMarkupIsItsText() {
        #expect(HTMLSanitizer.linkStart.text == "<a href=\"")
        #expect(HTMLSanitizer.imageSource.text == "<img src=\"")
        #expect(HTMLSanitizer.imageAlternative.text == "<img alt=\"")
        #expect(HTMLSanitizer.thenSource.text == "\" src=\"")
        #expect(HTMLSanitizer.tagEnd.text == "\">")
        var writer = SanitizedHTML.Writer()
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 5_000) + Array("&\"".utf8)
        "a&b".withUTF8Bytes { alt in
            long.withUnsafeBufferPointer { source in
                writer.markup(HTMLSanitizer.imageAlternative, alt, escaping: true, HTMLSanitizer.thenSource, source,
                              escapingSecond: true, HTMLSanitizer.tagEnd)
            }
        }
        #expect(writer.finish() == "<img alt=\"a&amp;b\" src=\"" + String(repeating: "x", count: 5_000) + "&amp;&quot;\">")
    }

    /// The packed tag names in `NoteTag` are what they claim to be.
    @Test func classifiesTagNames() {
        func tag(_ name: String) -> NoteTag {
            name.withUTF8Bytes { bytes in
                HTMLSanitizer.tagName(bytes, at: 0).tag
            }
        }
        let kept: [String: NoteElement] = ["p": .p, "br": .br, "a": .a, "strong": .strong, "em": .em, "b": .b, "i": .i,
                                           "ul": .ul, "ol": .ol, "li": .li, "blockquote": .blockquote, "h1": .h1,
                                           "h2": .h2, "h3": .h3, "h4": .h4, "h5": .h5, "h6": .h6, "img": .img]
        for (name, element) in kept {
            #expect(tag(name) == .kept(element), "\(name)")
            #expect(tag(name.uppercased()) == .kept(element), "\(name)")
        }
        for name in ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"] {
            #expect(tag(name) == .dropped(rawText: true), "\(name)")
        }
        for name in ["svg", "math", "template", "object", "head", "select", "applet", "frameset"] {
            #expect(tag(name) == .dropped(rawText: false), "\(name)")
        }
        for name in ["div", "section", "article", "header", "footer", "dd", "dt", "dl", "hr", "figure", "figcaption",
                     "address", "nav", "aside", "main", "pre", "table", "tr", "center", "details", "summary", "form",
                     "fieldset", "caption"] {
            #expect(tag(name) == .lineBlock, "\(name)")
        }
        #expect(tag("td") == .cell && tag("th") == .cell)
        // Longer or shorter by a byte, or with a NUL where a known name ends: none of them.
        for name in ["span", "font", "blockquotes", "scripts", "u", "abbr", "bdo", "textareas", "plaintex", "figcaptions",
                     "p\u{0}", "b\u{0}r", "\u{0}p", "textarea\u{0}", "blockquote\u{0}"] {
            #expect(tag(name) == .inline, "\(name.debugDescription)")
        }
    }
}
