import Foundation
import Testing
import TestSupport
@testable import Feeds

/// The OPML reader's rules, each on a small document written for it.
@Suite struct OPMLParserTests {
    static func parse(_ text: String) throws(OPMLError) -> OPMLDocument {
        try OPMLParser.parse(Data(text.utf8))
    }

    static func opml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0"><head><title>Mine</title></head><body>
        \(body)
        </body></opml>
        """
    }

    @Test("outlines at any depth, inside folders and foreign wrappers, in document order")
    func nesting() throws {
        let document = try Self.parse(Self.opml("""
            <outline text="A" xmlUrl="https://a.example/feed"/>
            <outline text="Folder"><outline text="Sub"><outline text="Deep" xmlUrl="https://deep.example/rss">
              <outline text="Child of a feed" xmlUrl="https://child.example/rss"/></outline></outline></outline>
            <group><outline text="Wrapped" xmlUrl="https://wrapped.example/rss"/></group>
            <outline text="Folder without feeds"/>
            """))
        #expect(document.title == "Mine")
        #expect(document.feeds.map(\.url) == ["https://a.example/feed", "https://deep.example/rss",
                                              "https://child.example/rss", "https://wrapped.example/rss"])
        #expect(document.feeds.map(\.title) == ["A", "Deep", "Child of a feed", "Wrapped"])
    }

    @Test("outlines outside <body> are not feeds")
    func onlyBody() throws {
        let document = try Self.parse("""
            <opml><head><outline xmlUrl="https://head.example/rss"/></head>
            <body><outline xmlUrl="https://body.example/rss"/></body>
            <outline xmlUrl="https://after.example/rss"/></opml>
            """)
        #expect(document.feeds.map(\.url) == ["https://body.example/rss"])
    }

    @Test("the attribute's case as apps write it: xmlUrl, xmlURL, xmlurl; element names in any case")
    func attributeSpellings() throws {
        let document = try Self.parse("""
            <OPML><Body>
            <outline title="one" xmlUrl="https://one.example/rss" htmlUrl="https://one.example/"/>
            <outline title="two" xmlURL="https://two.example/rss" htmlURL="https://two.example/"/>
            <Outline title="three" xmlurl="https://three.example/rss"/>
            </Body></OPML>
            """)
        #expect(document.feeds == [
            OPMLFeed(url: "https://one.example/rss", title: "one", htmlURL: "https://one.example/"),
            OPMLFeed(url: "https://two.example/rss", title: "two", htmlURL: "https://two.example/"),
            OPMLFeed(url: "https://three.example/rss", title: "three"),
        ])
    }

    @Test("title over text (gPodder puts the description in text), text when title is blank, nil when neither")
    func titleChoice() throws {
        let document = try Self.parse(Self.opml("""
            <outline text="A long description" title="Show" xmlUrl="https://a.example/rss"/>
            <outline text="From text" title="  " xmlUrl="https://b.example/rss"/>
            <outline xmlUrl="https://c.example/rss"/>
            <outline text="  padded
                  over lines " xmlUrl="https://d.example/rss"/>
            """))
        #expect(document.feeds.map(\.title) == ["Show", "From text", nil, "padded over lines"])
    }

    @Test("duplicates by normalized URL: first one wins, the rest are counted")
    func duplicates() throws {
        let document = try Self.parse(Self.opml("""
            <outline text="First" xmlUrl="https://Feeds.Example.com/Show?A=1"/>
            <outline text="Again" xmlUrl=" HTTPS://FEEDS.EXAMPLE.COM/Show?A=1 "/>
            <outline text="Folder"><outline text="Nested again" xmlUrl="https://feeds.example.com/Show?A=1"/></outline>
            <outline text="Path case differs" xmlUrl="https://feeds.example.com/show?A=1"/>
            """))
        #expect(document.feeds.map(\.url) == ["https://feeds.example.com/Show?A=1", "https://feeds.example.com/show?A=1"])
        #expect(document.feeds.first?.title == "First")
        #expect(document.duplicates == 2)
        #expect(document.found == 2)
    }

    @Test("normalizing keeps user info, path, query and fragment as written")
    func normalizing() {
        #expect(OPMLParser.normalizedURL("\n HTTP://Feeds.Example.COM:8080/A/B?Q=Z#F \t") == "http://feeds.example.com:8080/A/B?Q=Z#F")
        #expect(OPMLParser.normalizedURL("https://User:PassWord@Host.Example/x") == "https://User:PassWord@host.example/x")
        #expect(OPMLParser.normalizedURL("HTTPS://HOST.EXAMPLE") == "https://host.example")
        #expect(OPMLParser.normalizedURL("no scheme at all") == "no scheme at all")
        #expect(OPMLParser.normalizedURL("FEED:HTTP://x") == "feed:HTTP://x")
    }

    @Test("only http and https: other schemes and host-less URLs are reported, not imported; empty xmlUrl is no feed")
    func schemes() throws {
        let document = try Self.parse(Self.opml("""
            <outline text="ok" xmlUrl="http://ok.example/rss"/>
            <outline text="ftp" xmlUrl="ftp://files.example/feed.xml"/>
            <outline text="file" xmlUrl="file:///etc/passwd"/>
            <outline text="js" xmlUrl="javascript:alert(1)"/>
            <outline text="itpc" xmlUrl="itpc://old.example/rss"/>
            <outline text="relative" xmlUrl="/feed.xml"/>
            <outline text="no host" xmlUrl="https:///path"/>
            <outline text="empty" xmlUrl=""/>
            <outline text="ok too" xmlUrl="https://ok.example/rss"/>
            """))
        #expect(document.feeds.map(\.url) == ["http://ok.example/rss", "https://ok.example/rss"])
        #expect(document.rejected.map(\.url) == ["ftp://files.example/feed.xml", "file:///etc/passwd", "javascript:alert(1)",
                                                 "itpc://old.example/rss", "/feed.xml", "https:///path"])
        #expect(document.rejected.first?.reason == "not an http or https address")
        #expect(document.rejected.last?.reason == "an address without a host")
        #expect(document.found == 8)
    }

    @Test("files that are not OPML: a clear error, nothing returned")
    func notOPML() {
        let cases: [(String, (OPMLError) -> Bool)] = [
            ("", { $0 == .empty }),
            ("  \n\t ", { $0 == .empty }),
            ("just some text", { if case .notXML = $0 { true } else { false } }),
            ("\u{0}\u{1}\u{2}binary\u{FF}", { if case .notXML = $0 { true } else { false } }),
            ("<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>Hi</title></head><body><p>Hello</body></html>",
             { $0 == .notOPML(rootElement: "html") }),
            ("<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>Hi</p></body></html>", { $0 == .notOPML(rootElement: "html") }),
            ("<rss version=\"2.0\"><channel><title>A feed</title></channel></rss>", { $0 == .notOPML(rootElement: "rss") }),
            ("<opml version=\"2.0\"><head><title>No body</title></head></opml>", { $0 == .noBody }),
            ("<opml><head/><body><outline xmlUrl=\"https://a.example/rss\"/>", { if case .notXML = $0 { true } else { false } }),
            ("<opml><body><outline xmlUrl=\"https://a.example/?a=1&b=2\"/></body></opml>",
             { if case .notXML = $0 { true } else { false } }),
            ("<?xml version=\"1.0\"?>", { if case .notXML = $0 { true } else { false } }),
        ]
        for (text, matches) in cases {
            do {
                let document = try Self.parse(text)
                Issue.record("\(text.debugDescription) parsed: \(document)")
            } catch {
                #expect(matches(error), "\(text.debugDescription) → \(error)")
                #expect(error.description.hasPrefix("The file is"), "\(error)")
            }
        }
    }

    @Test("leading whitespace and a byte-order mark are tolerated")
    func leadingBytes() throws {
        let text = "\n  \u{FEFF}<?xml version=\"1.0\"?><opml><body><outline xmlUrl=\"https://a.example/rss\"/></body></opml>"
        #expect(try Self.parse(text).feeds.count == 1)
        let bom = Data([0xEF, 0xBB, 0xBF]) + Data("<opml><body><outline xmlUrl=\"https://a.example/rss\"/></body></opml>".utf8)
        #expect(try OPMLParser.parse(bom).feeds.count == 1)
    }

    @Test("external entities are never read; entity bombs do not expand", .timeLimit(.minutes(1)))
    func hostile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let planted = try PlantedSecret(in: directory)
        let (secret, secretFile, dtd) = (planted.text, planted.file, planted.dtd)
        let documents = [
            """
            <?xml version="1.0"?>
            <!DOCTYPE opml [<!ENTITY x SYSTEM "\(secretFile.absoluteString)">]>
            <opml><head><title>&x;</title></head><body>
            <outline text="&x;" title="Show &x;" xmlUrl="https://a.example/&x;" htmlUrl="https://a.example/&x;"/>
            </body></opml>
            """,
            """
            <?xml version="1.0"?>
            <!DOCTYPE opml [<!ENTITY % remote SYSTEM "\(dtd.absoluteString)"> %remote;]>
            <opml><head><title>&leak;</title></head><body><outline title="&leak;" xmlUrl="https://a.example/&leak;"/></body></opml>
            """,
            """
            <?xml version="1.0"?>
            <!DOCTYPE opml SYSTEM "\(dtd.absoluteString)">
            <opml><head><title>&leak;</title></head><body><outline title="&leak;" xmlUrl="https://a.example/&leak;"/></body></opml>
            """,
        ]
        var outcomes: [String] = []
        for document in documents {
            do {
                let parsed = try Self.parse(document)
                let text = ([parsed.title ?? ""] + parsed.feeds.flatMap { [$0.url, $0.title ?? "", $0.htmlURL ?? ""] })
                    .joined(separator: "\n")
                #expect(!text.contains(secret))
                outcomes.append("parsed \(parsed.feeds.count)")
            } catch {
                #expect(!error.description.contains(secret))
                outcomes.append("\(error)")
            }
        }
        print("OPML XXE outcomes: \(outcomes)")

        let lol = (1...9).map { "<!ENTITY lol\($0) \"\(String(repeating: "&lol\($0 - 1);", count: 10))\">" }.joined()
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE opml [<!ENTITY lol0 "lol">\(lol)]>
            <opml><body><outline title="&lol9;" xmlUrl="https://a.example/rss"/></body></opml>
            """
        // Expanded it would be gigabytes: the test's time limit catches a runaway.
        if let parsed = try? Self.parse(bomb) {
            #expect((parsed.feeds.first?.title?.count ?? 0) < 10_000)
        }
    }
}
