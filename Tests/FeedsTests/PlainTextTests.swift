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
        // end if the converter did not remember failed searches.
        let input = String(repeating: "<a \"b ", count: 20_000) + String(repeating: "&#", count: 20_000)
        let elapsed = try await HeavyWork.run { ContinuousClock().measure { _ = FeedValues.plainText(fromHTML: input) } }
        #expect(elapsed < .seconds(2))
    }

    @Test func nestedCDATAIsReadInOnePass() async throws {
        #expect(FeedValues.plainText(fromHTML: "<![CDATA[<p>one</p>]]> two ]]> three") == "one\n\ntwo ]]> three")
        // Each opener once recursed into the rest: 100,000 of them overflowed the stack (found by review).
        let nested = String(repeating: "<![CDATA[", count: 100_000) + "x" + String(repeating: "]]>", count: 3)
        let (text, elapsed) = try await HeavyWork.run {
            var text = ""
            let elapsed = ContinuousClock().measure { text = FeedValues.plainText(fromHTML: nested) }
            return (text, elapsed)
        }
        #expect(text == "x")
        #expect(elapsed < .seconds(2))
    }
}
