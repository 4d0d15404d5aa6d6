import Foundation
import Testing
import Mustache

@Suite("Templates")
struct MustacheTemplateTests {
    // MARK: Parse errors carry the line of the offending tag

    @Test("an unclosed section is reported at the line that opened it")
    func unclosedSection() {
        let error = #expect(throws: MustacheError.self) {
            try MustacheTemplate("<ul>\n  <li>first</li>\n  {{#episodes}}\n  <li>{{title}}</li>\n</ul>\n")
        }
        #expect(error?.kind == .unclosedSection("episodes"))
        #expect(error?.line == 3)
        #expect(error?.description == "template:3: unclosed section \"episodes\"")
    }

    @Test("a closing tag that does not match the open section is reported at its own line")
    func mismatchedSectionEnd() {
        let error = #expect(throws: MustacheError.self) {
            try MustacheTemplate("{{#podcast}}\n{{#episodes}}\n{{title}}\n{{/podcast}}\n{{/episodes}}")
        }
        #expect(error?.kind == .mismatchedSectionEnd(expected: "episodes", found: "podcast"))
        #expect(error?.line == 4)
    }

    @Test("a closing tag with no open section is an error")
    func strayClosingTag() {
        let error = #expect(throws: MustacheError.self) { try MustacheTemplate("a\n{{/items}}") }
        #expect(error?.kind == .mismatchedSectionEnd(expected: nil, found: "items"))
        #expect(error?.line == 2)
    }

    @Test("a tag that never closes is reported at the line where it starts")
    func unclosedTag() {
        let error = #expect(throws: MustacheError.self) { try MustacheTemplate("one\ntwo\nthree {{title\nfour }") }
        #expect(error?.kind == .unclosedTag)
        #expect(error?.line == 3)
    }

    @Test("bad set-delimiter tags are rejected", arguments: ["{{=<% =}}", "{{=<% %> ||=}}", "{{= =}}", "{{=<% %>}}"])
    func badDelimiters(source: String) {
        let error = #expect(throws: MustacheError.self) { try MustacheTemplate("text\n" + source) }
        guard case .badDelimiters? = error?.kind else {
            Issue.record("expected badDelimiters, got \(String(describing: error))")
            return
        }
        #expect(error?.line == 2)
    }

    @Test("empty and blank-containing tag names are rejected", arguments: ["{{}}", "{{ }}", "{{#}}{{/}}", "{{first name}}"])
    func badTagNames(source: String) {
        let error = #expect(throws: MustacheError.self) { try MustacheTemplate(source) }
        guard case .badTagName? = error?.kind else {
            Issue.record("expected badTagName, got \(String(describing: error))")
            return
        }
    }

    // MARK: Escaping of hostile feed text

    @Test("feed text cannot inject markup through {{name}}")
    func hostileTextIsEscaped() throws {
        let template = try MustacheTemplate(#"<h1 title="{{title}}">{{title}}</h1><p>{{notes}}</p>"#)
        let context: MustacheValue = [
            "title": #"Ep. 1 "><script>alert('pwned')</script>"#,
            "notes": "Tom & Jerry <img src=x onerror=alert(1)> — café ✓",
        ]
        let html = template.render(context)
        #expect(html == #"<h1 title="Ep. 1 &quot;&gt;&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;">"#
            + #"Ep. 1 &quot;&gt;&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;</h1>"#
            + "<p>Tom &amp; Jerry &lt;img src=x onerror=alert(1)&gt; — café ✓</p>")
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
    }

    @Test("triple mustache and {{& }} insert text unescaped, for already-sanitized HTML")
    func rawInterpolation() throws {
        let template = try MustacheTemplate("{{{notes}}}|{{& notes}}|{{notes}}")
        #expect(template.render(["notes": "<b>bold</b>"]) == "<b>bold</b>|<b>bold</b>|&lt;b&gt;bold&lt;/b&gt;")
    }

    // MARK: Values

    @Test("numbers render without a trailing .0, decimals in their shortest form")
    func numbers() throws {
        let template = try MustacheTemplate("{{#values}}[{{.}}]{{/values}}")
        let values: MustacheValue = ["values": [85, 1.21, -7, 0, 3600.5, 1e20, 0.1]]
        #expect(template.render(values) == "[85][1.21][-7][0][3600.5][1e+20][0.1]")
    }

    @Test("empty strings, null, false and empty lists are falsy; 0 is truthy")
    func truthiness() throws {
        let template = try MustacheTemplate("{{#v}}yes{{/v}}{{^v}}no{{/v}}")
        let cases: [(MustacheValue, String)] = [
            ("", "no"), ("x", "yes"), (nil, "no"), (false, "no"), (true, "yes"),
            ([], "no"), ([1], "yes"), (0, "yes"), ([:], "yes"),
        ]
        for (value, expected) in cases {
            #expect(template.render(["v": value]) == expected, "\(value)")
        }
    }

    @Test("JSONSerialization output converts with booleans kept apart from 0 and 1")
    func jsonConversion() throws {
        let json = #"{"a": true, "b": 1, "c": 0, "d": false, "e": null, "f": [1.5, "x"], "g": {"h": "i"}}"#
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let expected: MustacheValue = [
            "a": true, "b": 1, "c": 0, "d": false, "e": nil, "f": [1.5, "x"], "g": ["h": "i"],
        ]
        #expect(MustacheValue(json: object) == expected)
    }

    @Test("any Encodable model can be a context")
    func encodableContext() throws {
        struct Show: Encodable {
            let title: String
            let episodes: [Int]
            let explicit: Bool
        }
        let value = try MustacheValue(encoding: Show(title: "Radiolab", episodes: [1, 2], explicit: false))
        #expect(value == ["title": "Radiolab", "episodes": [1, 2], "explicit": false])
        let template = try MustacheTemplate("{{title}}:{{#episodes}} #{{.}}{{/episodes}}{{^explicit}} (clean){{/explicit}}")
        #expect(template.render(value) == "Radiolab: #1 #2 (clean)")
    }

    // MARK: Rendering

    @Test("a list page with hundreds of rows renders every row in order")
    func longList() throws {
        let template = try MustacheTemplate("""
            <ol>
            {{#episodes}}
              <li data-id="{{id}}">{{title}}{{#played}} ✓{{/played}}</li>
            {{/episodes}}
            </ol>

            """)
        let episodes = (0..<300).map { index -> MustacheValue in
            ["id": .number(Double(index)), "title": .string("Episode \(index)"), "played": .bool(index % 2 == 0)]
        }
        let html = template.render(["episodes": .array(episodes)])
        let lines = html.split(separator: "\n")
        #expect(lines.count == 302)
        #expect(lines[1] == #"  <li data-id="0">Episode 0 ✓</li>"#)
        #expect(lines[300] == #"  <li data-id="299">Episode 299</li>"#)
    }

    @Test("a partial that includes itself forever stops instead of overflowing the stack")
    func runawayRecursion() throws {
        let loop = try MustacheTemplate("x{{>loop}}")
        let output = loop.render([:], partials: ["loop": loop])
        #expect(output.count == 101)
        #expect(output.allSatisfy { $0 == "x" })
    }
}