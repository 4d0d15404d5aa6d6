import EarshotCore
import Foundation
import Testing
@testable import Feeds

@Suite struct FeedParserTests {
    static let base = URL(string: "https://example.com/podcasts/show/feed.xml")!

    static func parse(_ xml: String, keepAll: Bool = false) throws -> FeedContent {
        try FeedParser.parse(Data(xml.utf8), baseURL: base, keepingItemsWithoutEnclosure: keepAll)
    }

    static let fullFeed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">
        <channel>
          <title>  The   Example
             Show </title>
          <link>https://example.com/show</link>
          <atom:link rel="self" href="https://example.com/podcasts/show/feed.xml" type="application/rss+xml"/>
          <description><![CDATA[<p>A show about <b>examples</b> &amp; tests.</p>]]></description>
          <itunes:summary>Not used: the description comes first.</itunes:summary>
          <itunes:author>Jane Doe</itunes:author>
          <managingEditor>jane@example.com (Jane D.)</managingEditor>
          <image><url>https://example.com/small.png</url><title>Not the show title</title></image>
          <itunes:image href="https://example.com/art.jpg"/>
          <itunes:new-feed-url> https://new.example.com/feed.xml </itunes:new-feed-url>
          <item>
            <title>Episode 2: &quot;Quoted&quot;</title>
            <description>Short &lt;b&gt;notes&lt;/b&gt; for two.</description>
            <content:encoded><![CDATA[<p>Long notes</p>]]></content:encoded>
            <enclosure url="https://cdn.example.com/ep2.mp3" length="12345678" type="audio/mpeg"/>
            <enclosure url="https://cdn.example.com/ep2.ogg" length="1" type="audio/ogg"/>
            <guid isPermaLink="false">ep-2</guid>
            <itunes:duration>1:02:34</itunes:duration>
            <pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate>
            <itunes:image href="https://example.com/ep2.jpg"/>
            <link>https://example.com/show/2</link>
          </item>
          <item>
            <title>Episode 1</title>
            <content:encoded><![CDATA[<p>Only <i>content</i></p><p>Second para</p>]]></content:encoded>
            <enclosure url="media/ep1.m4a" length="nonsense" type="audio/x-m4a"/>
            <itunes:duration>54:12</itunes:duration>
            <pubDate>Mon, 09 Jun 2003 04:00:00 +0200</pubDate>
          </item>
          <item>
            <title>A blog post, nothing to play</title>
            <guid>post-1</guid>
          </item>
        </channel>
        </rss>
        """

    @Test func readsEveryFieldOfAnRSSFeed() throws {
        var episode2 = FeedItem(
            guid: "ep-2", title: "Episode 2: \"Quoted\"",
            // The description is HTML: the plain text comes from the richest HTML, content:encoded.
            summary: "Long notes",
            enclosureURL: "https://cdn.example.com/ep2.mp3", enclosureType: "audio/mpeg",
            enclosureLength: 12_345_678, duration: 3754, published: Date(timeIntervalSince1970: 1_055_217_600),
            artworkURL: "https://example.com/ep2.jpg", link: "https://example.com/show/2")
        episode2.details.enclosures = [
            FeedEnclosure(url: "https://cdn.example.com/ep2.mp3", type: "audio/mpeg", length: 12_345_678),
            FeedEnclosure(url: "https://cdn.example.com/ep2.ogg", type: "audio/ogg", length: 1),
        ]
        episode2.details.notes = SanitizedHTML(nodes: [.element("p", attributes: [:], children: [.text("Long notes")])])
        var episode1 = FeedItem(
            guid: "https://example.com/podcasts/show/media/ep1.m4a", title: "Episode 1",
            summary: "Only content\n\nSecond para",
            enclosureURL: "https://example.com/podcasts/show/media/ep1.m4a",
            enclosureType: "audio/x-m4a", enclosureLength: 0, duration: 3252,
            published: Date(timeIntervalSince1970: 1_055_124_000))
        episode1.details.enclosures = [
            FeedEnclosure(url: "https://example.com/podcasts/show/media/ep1.m4a", type: "audio/x-m4a", length: -1),
        ]
        episode1.details.notes = SanitizedHTML(nodes: [
            .element("p", attributes: [:], children: [.text("Only "), .element("i", attributes: [:], children: [.text("content")])]),
            .element("p", attributes: [:], children: [.text("Second para")]),
        ])
        let expected = FeedContent(
            title: "The Example Show",
            author: "Jane Doe",
            summary: "A show about examples & tests.",
            artworkURL: "https://example.com/art.jpg",
            link: "https://example.com/show",
            newFeedURL: "https://new.example.com/feed.xml",
            items: [episode2, episode1])
        #expect(try Self.parse(Self.fullFeed) == expected)
    }

    @Test func keepsItemsWithoutEnclosureOnRequest() throws {
        let content = try Self.parse(Self.fullFeed, keepAll: true)
        #expect(content.items.map(\.title) == ["Episode 2: \"Quoted\"", "Episode 1", "A blog post, nothing to play"])
        #expect(content.items[2].enclosureURL == "")
        #expect(content.items[2].guid == "post-1")
    }

    @Test func fallsBackThroughAuthorsSummariesAndImages() throws {
        let content = try Self.parse("""
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
              <title>T</title>
              <managingEditor>jane@example.com (Jane D.)</managingEditor>
              <itunes:summary>Summary &amp; more</itunes:summary>
              <image><url>img/cover.png</url></image>
            </channel></rss>
            """)
        #expect(content.author == "Jane D.")
        #expect(content.summary == "Summary & more")
        #expect(content.artworkURL == "https://example.com/podcasts/show/img/cover.png")
        #expect(content.items.isEmpty)
    }

    @Test func resolvesRelativeURLsAgainstTheFeedURL() throws {
        let links = [
            ("ep.mp3", "https://example.com/podcasts/show/ep.mp3"),
            ("/abs/ep.mp3", "https://example.com/abs/ep.mp3"),
            ("../up.mp3", "https://example.com/podcasts/up.mp3"),
            ("//cdn.example.org/x.mp3", "https://cdn.example.org/x.mp3"),
            ("  https://padded.example/x.mp3\n", "https://padded.example/x.mp3"),
            ("https://example.com/with space.mp3", "https://example.com/with%20space.mp3"),
            ("?id=7", "https://example.com/podcasts/show/feed.xml?id=7"),
        ]
        let items = links.enumerated().map { index, link in
            "<item><title>\(index)</title><enclosure url=\"\(link.0)\" type=\"audio/mpeg\"/></item>"
        }.joined()
        let content = try Self.parse("<rss><channel><title>T</title>\(items)</channel></rss>")
        #expect(content.items.map(\.enclosureURL) == links.map(\.1))
    }

    @Test func matchesITunesByNamespaceNotPrefix() throws {
        func duration(_ rss: String) throws -> Double {
            try Self.parse(rss).items.first?.duration ?? -1
        }
        let item = "<item><enclosure url=\"a.mp3\"/>%@</item>"
        func feed(_ attributes: String, _ element: String) -> String {
            "<rss \(attributes)><channel><title>T</title>\(item.replacingOccurrences(of: "%@", with: element))</channel></rss>"
        }
        #expect(try duration(feed(#"xmlns:it="http://www.itunes.com/dtds/podcast-1.0.dtd""#, "<it:duration>1:00</it:duration>")) == 60)
        #expect(try duration(feed(#"xmlns:itunes="http://www.itunes.com/DTDs/Podcast-1.0.dtd""#, "<itunes:duration>2:00</itunes:duration>")) == 120)
        // Undeclared prefix (a namespace error libxml2 recovers from): the prefix is all there is.
        #expect(try duration(feed("", "<itunes:duration>3:00</itunes:duration>")) == 180)
        // The itunes prefix bound to some other namespace is not iTunes.
        #expect(try duration(feed(#"xmlns:itunes="http://example.com/other""#, "<itunes:duration>4:00</itunes:duration>")) == 0)
        // A namespace declared on the element itself.
        #expect(try duration(feed("", #"<x:duration xmlns:x="http://www.itunes.com/dtds/podcast-1.0.dtd">5:00</x:duration>"#)) == 300)
    }

    @Test func readsAtomEntriesWithEnclosureLinks() throws {
        let content = try Self.parse("""
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
              <title>Atom Cast</title>
              <subtitle>Casting in Atom</subtitle>
              <link rel="self" href="https://example.com/atom.xml"/>
              <link href="https://example.com/no-type"/>
              <author><name>Ann Atom</name></author>
              <logo>logo.png</logo>
              <entry>
                <title>First</title>
                <id>urn:uuid:1</id>
                <link rel="alternate" type="text/html" href="https://example.com/1"/>
                <link rel="enclosure" type="audio/mpeg" length="42" href="audio/1.mp3"/>
                <published>2003-12-13T18:30:02Z</published>
                <updated>2017-12-13T18:30:02Z</updated>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>One</p><p>Two</p></div></content>
              </entry>
              <entry><title>No enclosure</title><id>urn:uuid:2</id></entry>
            </feed>
            """)
        #expect(content.title == "Atom Cast")
        #expect(content.summary == "Casting in Atom")
        #expect(content.author == "Ann Atom")
        // As in podcastparser, only a link that says it is HTML names the web page.
        #expect(content.link == nil)
        #expect(content.artworkURL == "https://example.com/podcasts/show/logo.png")
        var first = FeedItem(guid: "urn:uuid:1", title: "First", summary: "One\n\nTwo",
                             enclosureURL: "https://example.com/podcasts/show/audio/1.mp3", enclosureType: "audio/mpeg",
                             enclosureLength: 42, published: Date(timeIntervalSince1970: 1_071_340_202),
                             link: "https://example.com/1")
        first.details.enclosures = [FeedEnclosure(url: first.enclosureURL, type: "audio/mpeg", length: 42)]
        // XHTML content keeps its structure (rebuilt as bare tags).
        first.details.notes = SanitizedHTML(nodes: [.element("p", attributes: [:], children: [.text("One")]),
                                                    .element("p", attributes: [:], children: [.text("Two")])])
        #expect(content.items == [first])
    }

    @Test func titlesAnUntitledItemAfterItsFile() throws {
        let content = try Self.parse(#"<rss><channel><item><enclosure url="https://x.org/a/Show-Ep-7.mp3?t=1"/></item></channel></rss>"#)
        #expect(content.items.map(\.title) == ["Show-Ep-7"])
        #expect(content.title == "")
    }

    @Test func dropsItemsThatCannotBeIdentified() throws {
        let content = try Self.parse("<rss><channel><item><title>Nothing</title></item></channel></rss>", keepAll: true)
        #expect(content.items.isEmpty)
    }

    // MARK: Not feeds

    @Test(arguments: [
        ("<!DOCTYPE html><html><head><title>Hi</title><meta charset=utf-8></head><body><p>page</body></html>", "html"),
        (#"<foo xmlns="http://example.com/foo.xml"><bar/></foo>"#, "foo"),
        (#"<baz:foo xmlns:baz="http://example.com/baz.xml"><baz:bar/></baz:foo>"#, "baz:foo"),
        (#"<?xml version="1.0"?><opml version="2.0"><body/></opml>"#, "opml"),
    ])
    func rejectsDocumentsThatAreNotFeeds(_ document: String, _ root: String) {
        #expect(throws: FeedError.notAFeed(rootElement: root)) { try Self.parse(document) }
        #expect(FeedError.notAFeed(rootElement: root).description.contains("not a podcast feed"))
    }

    @Test func rejectsEmptyDocuments() {
        #expect(throws: FeedError.empty) { try FeedParser.parse(Data(), baseURL: Self.base) }
        #expect(throws: FeedError.empty) { try Self.parse("  \n\t ") }
    }

    @Test(arguments: ["this is plain text", #"{"feed": "json"}"#, "\u{1}\u{2}\u{3}", "<", "<<<>>>"])
    func rejectsDocumentsThatAreNotXML(_ document: String) {
        do {
            _ = try Self.parse(document)
            Issue.record("parsed \(document.debugDescription)")
        } catch let error as FeedError {
            guard case .notXML(let reason) = error else {
                Issue.record("expected notXML, got \(error)")
                return
            }
            #expect(!reason.isEmpty)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func skipsLeadingWhitespaceBeforeTheDeclaration() throws {
        let content = try Self.parse("\n\n  <?xml version=\"1.0\"?><rss><channel><title>T</title></channel></rss>")
        #expect(content.title == "T")
    }
}
