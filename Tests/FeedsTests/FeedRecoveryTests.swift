import EarshotCore
import Foundation
import Testing
@testable import Feeds

/// Broken but readable feeds: kept, with a warning a person can act on; encodings read as they are.
@Suite struct FeedRecoveryTests {
    static let base = URL(string: "https://example.com/feed.xml")!

    static func parse(_ data: Data, keepAll: Bool = false) throws -> FeedContent {
        try FeedParser.parse(data, baseURL: base, keepingItemsWithoutEnclosure: keepAll)
    }

    static func parse(_ xml: String, keepAll: Bool = false) throws -> FeedContent {
        try parse(Data(xml.utf8), keepAll: keepAll)
    }

    static func items(_ count: Int) -> String {
        (1...count).map { "<item><title>Ep \($0)</title><enclosure url=\"\($0).mp3\"/></item>\n" }.joined()
    }

    @Test func recoversFromAnUndefinedEntityAndSaysWhere() throws {
        var document = "<rss>\n<channel>\n<title>T</title>\n" + Self.items(40) + "</channel></rss>"
        document = document.replacingOccurrences(of: "<title>Ep 30</title>", with: "<title>Ep 30 &gtgt; broken</title>")
        let content = try Self.parse(document)
        #expect(content.items.count == 40)
        #expect(content.items[29].title == "Ep 30 broken")
        // Ep 30 is on line 33 (three lines before the items).
        #expect(content.warnings == ["line 33: undefined entity &gtgt; — the rest was recovered"])
    }

    @Test("after an undefined entity, later text keeps its references (libxml2 alone would drop them)")
    func referencesAfterAnError() throws {
        var document = "<rss>\n<channel>\n<title>T</title>\n" + Self.items(4) + "</channel></rss>"
        document = document.replacingOccurrences(of: "<title>Ep 2</title>", with: "<title>Ep 2 &gtgt; broken</title>")
        document = document.replacingOccurrences(of: "<title>Ep 3</title>",
                                                 with: "<title>Ep 3 &lt;3 &amp; &quot;quoted&quot;</title><description>&lt;p&gt;Notes &amp;amp; more&lt;/p&gt;</description>")
        let content = try Self.parse(document)
        #expect(content.items.count == 4)
        #expect(content.items[2].title == "Ep 3 <3 & \"quoted\"")
        #expect(content.items[2].summary == "Notes & more", "\(content.items[2].summary)")
        #expect(content.warnings == ["line 5: undefined entity &gtgt; — the rest was recovered"])
    }

    @Test func recoversATruncatedDocument() throws {
        let document = "<rss><channel><title>T</title><item><title>A</title><enclosure url=\"a.mp3\"/></item><item><title>B</title><enclosure url=\"b.mp3\"/"
        let content = try Self.parse(document, keepAll: true)
        #expect(content.title == "T")
        #expect(content.items.map(\.title) == ["A", "B"])
        #expect(content.warnings.count == 1)
        #expect(content.warnings.first?.hasSuffix("— the rest was recovered") == true)
    }

    @Test func readsPastMismatchedTags() throws {
        // libxml2 closes the open element at any end tag: the broken item ends early (before its
        // enclosure, so it is lost), the rest of the feed is kept.
        let content = try Self.parse("<rss><channel><title>T</title>" + Self.items(2)
            + "<item><title>A</b></title><enclosure url=\"a.mp3\"/></item></channel></rss>")
        #expect(content.title == "T")
        #expect(content.items.map(\.title) == ["Ep 1", "Ep 2"])
        #expect(content.warnings.count == 1)
        #expect(content.warnings.first?.contains("mismatch") == true)
    }

    @Test func aWellFormedFeedHasNoWarnings() throws {
        let content = try Self.parse("<rss xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>T</title>" + Self.items(3) + "</channel></rss>")
        #expect(content.warnings.isEmpty)
        // Undeclared prefixes are a namespace error libxml2 reads past: common, and no reason to warn.
        #expect(try Self.parse("<rss><channel><itunes:author>A</itunes:author></channel></rss>").warnings.isEmpty)
    }

    @Test func readsLatin1WithoutADeclaration() throws {
        let latin1 = "<rss><channel><title>Caf\u{E9} cr\u{E8}me</title><item><title>\u{C7}a va</title><enclosure url=\"a.mp3\"/></item></channel></rss>"
        let content = try Self.parse(latin1.data(using: .isoLatin1)!)
        #expect(content.title == "Café crème")
        #expect(content.items.map(\.title) == ["Ça va"])
        #expect(content.warnings == ["The feed is not valid UTF-8: 3 bytes were read as Windows-1252."])
    }

    @Test func readsWindows1252InAFeedThatClaimsUTF8() throws {
        // “Smart quotes” and an en dash from Windows-1252, under a UTF-8 declaration.
        var data = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss><channel><title>".utf8)
        data.append(contentsOf: [0x93, 0x51, 0x94, 0x20, 0x96, 0x20, 0x80])
        data.append(contentsOf: Data("</title></channel></rss>".utf8))
        let content = try Self.parse(data)
        #expect(content.title == "\u{201C}Q\u{201D} \u{2013} \u{20AC}")
        #expect(content.warnings.first?.hasPrefix("The feed is not valid UTF-8: 4 bytes") == true)
    }

    @Test func keepsUTF8AroundAStrayByte() throws {
        var data = Data("<rss><channel><title>Caf\u{E9} \u{2014} ".utf8)
        data.append(0xFF)
        data.append(contentsOf: Data(" ok</title><item><title>\u{E9}t\u{E9}</title><enclosure url=\"a.mp3\"/></item></channel></rss>".utf8))
        let content = try Self.parse(data)
        #expect(content.title == "Café — ÿ ok")
        #expect(content.items.map(\.title) == ["été"])
    }

    @Test func dropsControlCharactersXMLForbids() throws {
        let content = try Self.parse("<rss><channel><title>Bell\u{7} and\u{1B} escape</title></channel></rss>")
        #expect(content.title == "Bell and escape")
        #expect(content.warnings == ["2 control characters that XML forbids were removed."])
    }

    @Test func readsDeclaredEncodingsAndByteOrderMarks() throws {
        let title = "Ünïcödé ✓"
        let rss = "<rss><channel><title>\(title)</title></channel></rss>"
        // UTF-16 with a byte order mark, both ways; UTF-8 with one; a declared single-byte encoding.
        let utf16LE = Data([0xFF, 0xFE]) + rss.data(using: .utf16LittleEndian)!
        let utf16BE = Data([0xFE, 0xFF]) + rss.data(using: .utf16BigEndian)!
        let utf8BOM = Data([0xEF, 0xBB, 0xBF]) + Data(rss.utf8)
        for data in [utf16LE, utf16BE, utf8BOM] {
            let content = try Self.parse(data)
            #expect(content.title == title)
            #expect(content.warnings.isEmpty)
        }
        let latin1 = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel><title>Ünïcödé</title></channel></rss>"
        #expect(try Self.parse(latin1.data(using: .isoLatin1)!).title == "Ünïcödé")
    }

    @Test func decodesReferencesInAttributes() throws {
        let content = try Self.parse("""
            <rss><channel><title>T</title><item><enclosure url="https://x.example/a.mp3?a=1&amp;b=2&amp;#38;c&#38;d"/></item></channel></rss>
            """)
        #expect(content.items.first?.enclosureURL == "https://x.example/a.mp3?a=1&b=2&#38;c&d")
    }
}
