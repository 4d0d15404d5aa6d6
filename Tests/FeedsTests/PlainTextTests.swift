import Testing
@testable import Feeds

@Suite struct PlainTextTests {
    @Test func stripsTagsAndCollapsesSpaces() {
        #expect(FeedValues.plainText(fromHTML: "<h1>This is also a <em>test</em></h1>") == "This is also a test")
        #expect(FeedValues.plainText(fromHTML: "  <b>bold</b>   and\n\t <i>italic</i>  ") == "bold and italic")
        #expect(FeedValues.plainText(fromHTML: #"<a href="https://x.org/?a=1&b=2" title='>'>link</a>"#) == "link")
    }

    @Test func decodesEntities() {
        #expect(FeedValues.plainText(fromHTML: "Tom &amp; Jerry &lt;3 &quot;x&quot; &apos;y&apos;") == "Tom & Jerry <3 \"x\" 'y'")
        #expect(FeedValues.plainText(fromHTML: "caf&eacute; &#233; &#xE9; &#XE9;") == "café é é é")
        #expect(FeedValues.plainText(fromHTML: "it&rsquo;s&hellip; &mdash; &euro;5 &copy;") == "it’s… — €5 ©")
        #expect(FeedValues.plainText(fromHTML: "a&nbsp;&nbsp;b") == "a b")
        #expect(FeedValues.plainText(fromHTML: "&#128512;") == "😀")
    }

    @Test func keepsWhatIsNotAnEntityAsWritten() {
        #expect(FeedValues.plainText(fromHTML: "AT&T, a & b, &unknown; &#; &#xZZ;") == "AT&T, a & b, &unknown; &#; &#xZZ;")
        #expect(FeedValues.plainText(fromHTML: "&#0; &#xD800; &#x110000;") == "\u{FFFD} \u{FFFD} \u{FFFD}")
    }

    @Test func turnsBlocksIntoLineBreaks() {
        #expect(FeedValues.plainText(fromHTML: "<p>One</p><p>Two</p>") == "One\n\nTwo")
        #expect(FeedValues.plainText(fromHTML: "a<br>b<br/>c<BR />d") == "a\nb\nc\nd")
        #expect(FeedValues.plainText(fromHTML: "a<br><br><br><br>b") == "a\n\nb")
        #expect(FeedValues.plainText(fromHTML: "<ul>\n<li>one</li>\n<li>two</li>\n</ul>after") == "• one\n• two\nafter")
        #expect(FeedValues.plainText(fromHTML: "<div>x</div><div>y</div>") == "x\ny")
    }

    @Test func dropsScriptStyleAndComments() {
        let html = """
            <style>p { color: red }</style>Hello<script type="text/javascript">alert("<p>pwned</p>")</script> \
            <!-- a comment <b>here</b> -->world<SCRIPT>x()</SCRIPT><template><p>t</p></template>
            """
        #expect(FeedValues.plainText(fromHTML: html) == "Hello world")
        #expect(FeedValues.plainText(fromHTML: "before<script>never closed") == "before")
    }

    @Test func plainTextKeepsItsOwnLineBreaks() {
        #expect(FeedValues.plainText(fromHTML: "Line one\nLine two\n\n\n\nLast   line  ") == "Line one\nLine two\n\nLast line")
        #expect(FeedValues.plainText(fromHTML: "a < b and c > d") == "a < b and c > d")
        #expect(FeedValues.plainText(fromHTML: "windows\r\nbreaks") == "windows\nbreaks")
    }

    @Test func survivesBrokenMarkup() {
        #expect(FeedValues.plainText(fromHTML: "<p>unclosed <b>bold") == "unclosed bold")
        // An attribute quote that never closes is ignored; the tag still ends at its ">".
        #expect(FeedValues.plainText(fromHTML: "x <a href=\"never closed>y") == "x y")
        #expect(FeedValues.plainText(fromHTML: "text <notatag") == "text <notatag")
        #expect(FeedValues.plainText(fromHTML: "") == "")
    }

    @Test func pathologicalInputStaysLinear() async throws {
        // Thousands of tag openings that never close, and unbalanced quotes: each would cost a scan to the
        // end if the converter did not remember failed searches (eight times the input, about eight
        // times the time: `Growth`).
        let inputs = [1, 8].map { String(repeating: "<a \"b ", count: $0 * 2_500) + String(repeating: "&#", count: $0 * 2_500) }
        let growth = try await Growth.ratio { scale in _ = FeedValues.plainText(fromHTML: inputs[scale == 1 ? 0 : 1]) }
        #expect(growth < Growth.linearLimit(), "8× the input took \(growth)× the time")
    }

    @Test func nestedCDATAIsReadInOnePass() async throws {
        #expect(FeedValues.plainText(fromHTML: "<![CDATA[<p>one</p>]]> two ]]> three") == "one\n\ntwo ]]> three")
        // Each opener once recursed into the rest: 100,000 of them overflowed the stack (found by review).
        let nested = [1, 8].map { String(repeating: "<![CDATA[", count: $0 * 12_500) + "x" + String(repeating: "]]>", count: 3) }
        #expect(try await HeavyWork.run { FeedValues.plainText(fromHTML: nested[1]) } == "x")
        let growth = try await Growth.ratio { scale in _ = FeedValues.plainText(fromHTML: nested[scale == 1 ? 0 : 1]) }
        #expect(growth < Growth.linearLimit(), "8× the openers took \(growth)× the time")
    }
}
