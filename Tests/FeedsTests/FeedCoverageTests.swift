import EarshotCore
import Foundation
import Testing
@testable import Feeds

/// Everything the parser reads beyond the basics, checked as whole `PodcastDetails` and `EpisodeDetails`
/// values: iTunes, Podcasting 2.0, Podlove Simple Chapters, Media RSS, Atom links, redirects, `xml:base`.
@Suite struct FeedCoverageTests {
    static let base = URL(string: "https://example.com/podcasts/show/feed.xml")!

    static func parse(_ xml: String, keepAll: Bool = false, keepSource: Bool = false) throws -> FeedContent {
        try FeedParser.parse(Data(xml.utf8), baseURL: base, keepingItemsWithoutEnclosure: keepAll,
                             keepingSourceText: keepSource)
    }

    /// Declared namespaces under unusual prefixes, and the Podcasting 2.0 namespace's first URI.
    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:it="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:pc="https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md"
             xmlns:sc="http://podlove.org/simple-chapters" xmlns:m="http://search.yahoo.com/mrss/"
             xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">
        <channel>
          <title>Full</title>
          <language> en-GB </language>
          <generator>Hand</generator>
          <it:subtitle>All the tags</it:subtitle>
          <it:owner><it:name>Olive Owner</it:name><it:email>olive@example.com</it:email></it:owner>
          <it:explicit>Clean</it:explicit>
          <it:type>Serial</it:type>
          <it:block>Yes</it:block>
          <it:keywords>one, two ,,three</it:keywords>
          <it:category text="Arts"><it:category text="Books"/></it:category>
          <it:category text="Leisure"><it:category text="Games"><it:category text="Board"/></it:category></it:category>
          <pc:locked owner="olive@example.com">no</pc:locked>
          <pc:guid> ead4c236-bf58-58c6-a2c6-a6b28d128cb6 </pc:guid>
          <pc:funding url="https://example.com/donate">Support us!</pc:funding>
          <pc:person role="Host" href="https://example.com/olive" img="olive.jpg">Olive</pc:person>
          <atom:link rel="payment" href="https://pay.example.com/show"/>
          <atom:link rel="first" href="feed.xml?page=1"/>
          <atom:link rel="next" href="feed.xml?page=2"/>
          <atom:link rel="alternate" type="text/html" href="https://example.com/show"/>
          <item>
            <title>Episode 1</title>
            <guid isPermaLink="true">https://example.com/show/1</guid>
            <enclosure url="cover.jpg" type="image/jpeg" length="100"/>
            <enclosure url="ep1.mp3" type="audio/mpeg" length="5000"/>
            <m:content url="ep1.ogg" type="audio/ogg" fileSize="4000"/>
            <it:subtitle>The first</it:subtitle>
            <it:author>Ann Author</it:author>
            <it:explicit>true</it:explicit>
            <it:season>2</it:season>
            <it:episode>7</it:episode>
            <it:episodeType>Bonus</it:episodeType>
            <it:block>no</it:block>
            <it:summary>Plain summary</it:summary>
            <content:encoded><![CDATA[<p>Rich <a href="/links/1" onclick="x()">link</a></p><script>x()</script>]]></content:encoded>
            <pc:chapters url="chapters/1.json" type="application/json+chapters"/>
            <pc:transcript url="https://example.com/1.vtt" type="text/vtt" language="en" rel="captions"/>
            <pc:transcript url="1.srt" type="application/srt"/>
            <pc:person group="Writing" role="guest">Gus Guest</pc:person>
            <pc:soundbite startTime="73.5" duration="60">The best minute</pc:soundbite>
            <pc:soundbite startTime="x" duration="60">Not a time</pc:soundbite>
            <pc:season>9</pc:season>
            <pc:episode>99</pc:episode>
            <pc:alternateEnclosure type="audio/opus" length="3000" bitrate="64000.5" title="Small">
              <pc:source uri="ep1.opus"/>
              <pc:source uri="ipfs://abc"/>
            </pc:alternateEnclosure>
            <pc:alternateEnclosure type="audio/flac"/>
            <sc:chapters version="1.2">
              <sc:chapter start="00:00:00.000" title="Intro"/>
              <sc:chapter start="01:02.5" title="Main" href="https://example.com/main" image="main.jpg"/>
              <sc:chapter title="No start"/>
            </sc:chapters>
            <atom:link rel="payment" href="https://pay.example.com/1"/>
          </item>
        </channel>
        </rss>
        """

    @Test func readsEveryChannelDetail() throws {
        let content = try Self.parse(Self.feed)
        var expected = PodcastDetails()
        expected.subtitle = "All the tags"
        expected.language = "en-GB"
        expected.ownerName = "Olive Owner"
        expected.ownerEmail = "olive@example.com"
        expected.explicit = false
        expected.type = "serial"
        expected.categories = [["Arts", "Books"], ["Leisure", "Games", "Board"]]
        expected.keywords = ["one", "two", "three"]
        expected.block = true
        expected.locked = false
        expected.podcastGUID = "ead4c236-bf58-58c6-a2c6-a6b28d128cb6"
        expected.funding = [FeedLink(url: "https://example.com/donate", title: "Support us!")]
        expected.paymentURL = "https://pay.example.com/show"
        expected.generator = "Hand"
        expected.persons = [FeedPerson(name: "Olive", role: "host", href: "https://example.com/olive",
                                       img: "https://example.com/podcasts/show/olive.jpg")]
        expected.pageFirstURL = "https://example.com/podcasts/show/feed.xml?page=1"
        expected.pageNextURL = "https://example.com/podcasts/show/feed.xml?page=2"
        #expect(content.details == expected)
        #expect(content.link == "https://example.com/show")
        #expect(content.author == "Olive Owner")
        #expect(content.warnings.isEmpty)
    }

    @Test func readsEveryEpisodeDetail() throws {
        let item = try #require(try Self.parse(Self.feed).items.first)
        let folder = "https://example.com/podcasts/show/"
        // The audio enclosure is the episode, not the picture before it.
        #expect(item.enclosureURL == folder + "ep1.mp3")
        #expect(item.enclosureType == "audio/mpeg" && item.enclosureLength == 5000)
        #expect(item.guid == "https://example.com/show/1")
        #expect(item.link == "https://example.com/show/1")  // a permalink guid is the episode's page
        #expect(item.summary == "Plain summary")
        var expected = EpisodeDetails()
        expected.subtitle = "The first"
        expected.author = "Ann Author"
        expected.explicit = true
        expected.season = 2  // iTunes wins over podcast:season
        expected.number = 7
        expected.type = "bonus"
        expected.block = false
        expected.enclosures = [
            FeedEnclosure(url: folder + "cover.jpg", type: "image/jpeg", length: 100),
            FeedEnclosure(url: folder + "ep1.mp3", type: "audio/mpeg", length: 5000),
            FeedEnclosure(url: folder + "ep1.ogg", type: "audio/ogg", length: 4000),
        ]
        expected.chaptersURL = folder + "chapters/1.json"
        expected.chaptersType = "application/json+chapters"
        expected.chapters = [
            FeedChapter(start: 0, title: "Intro"),
            FeedChapter(start: 62.5, title: "Main", href: "https://example.com/main", image: "main.jpg"),
        ]
        expected.transcripts = [
            FeedTranscript(url: "https://example.com/1.vtt", type: "text/vtt", language: "en", rel: "captions"),
            FeedTranscript(url: folder + "1.srt", type: "application/srt"),
        ]
        expected.persons = [FeedPerson(name: "Gus Guest", role: "guest", group: "writing")]
        expected.soundbites = [FeedSoundbite(start: 73.5, duration: 60, title: "The best minute")]
        expected.alternateEnclosures = [
            FeedAlternateEnclosure(type: "audio/opus", length: 3000, bitrate: 64000.5, title: "Small",
                                   sources: [folder + "ep1.opus", "ipfs://abc"]),
        ]
        expected.paymentURL = "https://pay.example.com/1"
        // content:encoded wins for the notes; its relative link is resolved, its script and handler gone.
        expected.notes = SanitizedHTML(nodes: [.element("p", attributes: [:], children: [
            .text("Rich "), .element("a", attributes: ["href": "https://example.com/links/1"], children: [.text("link")]),
        ])])
        #expect(item.details == expected)
        #expect(item.rawHTML == nil && item.asWritten == nil)  // only on request
    }

    @Test func keepsRawValuesOnRequest() throws {
        let content = try Self.parse(Self.feed, keepSource: true)
        #expect(content.asWritten == FeedAsWritten(author: nil, description: nil))
        let item = try #require(content.items.first)
        #expect(item.rawHTML == #"<p>Rich <a href="/links/1" onclick="x()">link</a></p><script>x()</script>"#)
        #expect(item.asWritten == FeedItemAsWritten(guid: "https://example.com/show/1", permalink: "https://example.com/show/1",
                                                    title: "Episode 1", description: "Plain summary"))
    }

    @Test func choosesShowNotesAsPodcastparserDoes() throws {
        func item(_ elements: String) throws -> FeedItem {
            try #require(try Self.parse("""
                <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                     xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
                <item><enclosure url="a.mp3"/>\(elements)</item></channel></rss>
                """, keepSource: true).items.first)
        }
        // A plain description is the summary; content:encoded the notes.
        let both = try item("<description>Short &amp; plain</description><content:encoded>&lt;p&gt;Long&lt;/p&gt;</content:encoded>")
        #expect(both.summary == "Short & plain")
        #expect(both.details.notes.nodes == [.element("p", attributes: [:], children: [.text("Long")])])
        // An HTML description: notes and summary from it (content:encoded would win if present).
        let html = try item("<description>&lt;p&gt;One&lt;/p&gt;&lt;p&gt;Two&lt;/p&gt;</description>")
        #expect(html.summary == "One\n\nTwo")
        #expect(html.details.notes.nodes.count == 2)
        #expect(html.rawHTML == "<p>One</p><p>Two</p>" && html.asWritten?.description == nil)
        // itunes:summary is the plain text even after a plain description.
        let summary = try item("<description>Desc</description><itunes:summary>Summary</itunes:summary>")
        #expect(summary.summary == "Summary")
        // Plain text only: its paragraphs and lines become the notes.
        let plain = try item("<description>Line one\nline two\n\nSecond</description>")
        #expect(plain.details.notes.nodes == [
            .element("p", attributes: [:], children: [.text("Line one"), .element("br", attributes: [:], children: []), .text("line two")]),
            .element("p", attributes: [:], children: [.text("Second")]),
        ])
        // An itunes:summary full of tags is HTML after all.
        let tagged = try item("<itunes:summary>&lt;b&gt;Bold&lt;/b&gt; claim</itunes:summary>")
        #expect(tagged.summary == "Bold claim")
        #expect(tagged.rawHTML == "<b>Bold</b> claim")
        #expect(tagged.details.notes.nodes == [.element("b", attributes: [:], children: [.text("Bold")]), .text(" claim")])
    }

    @Test func readsAtomPodcastLinks() throws {
        let content = try Self.parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
              <title>Atom</title>
              <link rel="alternate" type="text/html" href="https://example.com/"/>
              <link rel="payment" href="https://pay.example.com/"/>
              <link rel="next" href="?page=2"/>
              <itunes:explicit>yes</itunes:explicit>
              <entry>
                <id>tag:example.com,2024:1</id>
                <title type="text">One</title>
                <link rel="enclosure" type="audio/mpeg" length="9" href="1.mp3"/>
                <link rel="enclosure" type="video/mp4" href="1.mp4"/>
                <link rel="payment" href="https://pay.example.com/1"/>
                <updated>2024-01-02T00:00:00Z</updated>
                <published>2024-01-01T00:00:00+01:00</published>
                <summary type="html">&lt;p&gt;Sum &lt;b&gt;mary&lt;/b&gt;&lt;/p&gt;</summary>
              </entry>
            </feed>
            """)
        #expect(content.link == "https://example.com/")
        #expect(content.details.paymentURL == "https://pay.example.com/")
        #expect(content.details.pageNextURL == "https://example.com/podcasts/show/feed.xml?page=2")
        #expect(content.details.explicit == true)
        let entry = try #require(content.items.first)
        #expect(entry.published == Date(timeIntervalSince1970: 1_704_063_600))  // published wins over updated
        #expect(entry.enclosureURL == "https://example.com/podcasts/show/1.mp3" && entry.enclosureLength == 9)
        #expect(entry.details.enclosures.map(\.type) == ["audio/mpeg", "video/mp4"])
        #expect(entry.details.paymentURL == "https://pay.example.com/1")
        #expect(entry.link == nil)  // an Atom id is never a link
        #expect(entry.summary == "Sum mary")
        #expect(entry.details.notes.nodes == [.element("p", attributes: [:], children: [
            .text("Sum "), .element("b", attributes: [:], children: [.text("mary")]),
        ])])
    }

    @Test func followsRedirectsAndXMLBase() throws {
        let redirected = try Self.parse("""
            <rss><redirect><newLocation> https://new.example.com/feed </newLocation></redirect><channel><title>T</title></channel></rss>
            """)
        #expect(redirected.newFeedURL == "https://new.example.com/feed")
        let based = try Self.parse("""
            <rss xml:base="https://cdn.example.net/show/"><channel><title>T</title>
            <item><guid>ep/1</guid><enclosure url="ep1.mp3"/></item></channel></rss>
            """, keepSource: true)
        let item = try #require(based.items.first)
        #expect(item.enclosureURL == "https://cdn.example.net/show/ep1.mp3")
        // A relative permalink resolves, but only an absolute one becomes the episode's link.
        #expect(item.asWritten?.permalink == "https://cdn.example.net/show/ep/1")
        #expect(item.guid == "ep/1" && item.link == nil)
        // Without the source text kept, the same: a guid that is no web address is no link (and is not
        // resolved at all); an absolute one is, unless the item has a link of its own.
        let plain = try Self.parse("""
            <rss xml:base="https://cdn.example.net/show/"><channel><title>T</title>
            <item><guid>ep/1</guid><enclosure url="ep1.mp3"/></item>
            <item><guid> HTTPS://cdn.example.net/show/ep/2 </guid><enclosure url="ep2.mp3"/></item>
            <item><guid>https://cdn.example.net/show/ep/3</guid><link>https://example.org/3</link><enclosure url="ep3.mp3"/></item>
            </channel></rss>
            """)
        #expect(plain.items.map(\.link) == [nil, "HTTPS://cdn.example.net/show/ep/2", "https://example.org/3"])
    }

    @Test func readsUndeclaredPodcastingPrefixes() throws {
        let content = try Self.parse("""
            <rss><channel><title>T</title><podcast:locked>yes</podcast:locked>
            <item><enclosure url="a.mp3"/><podcast:chapters url="c.json" type="application/json"/>
            <psc:chapters><psc:chapter start="5" title="Five"/></psc:chapters>
            <itunes:episodeType>trailer</itunes:episodeType></item></channel></rss>
            """)
        #expect(content.details.locked == true)
        let details = try #require(content.items.first?.details)
        #expect(details.chaptersURL == "https://example.com/podcasts/show/c.json")
        #expect(details.chapters == [FeedChapter(start: 5, title: "Five")])
        #expect(details.type == "trailer")
    }

    /// Podlove Simple Chapters read in one pass over each element's attributes: any order, the start's
    /// forms and whitespace, `&` in a title and an address (escaped for XML), empty `href` and `image` as
    /// none, a prefixed `title` that is not the chapter's, a chapter without a start or title skipped — the
    /// same whichever reads the document (the scan, libxml2) on one thread or with the rules on a tape.
    @Test func readsChaptersInOnePass() throws {
        let xml = """
            <rss xmlns:psc="http://podlove.org/simple-chapters" xmlns:x="urn:x"><channel><title>T</title>
            <item><enclosure url="a.mp3"/><psc:chapters>
              <psc:chapter title="Intro &amp; news" start=" 00:00:05.5 " href="https://example.org/?a=1&amp;b=2" image=""/>
              <psc:chapter x:title="Not this" image="https://example.org/c.jpg" start="1:02:03" title="Q&amp;A" href=""/>
              <psc:chapter start="10"/>
              <psc:chapter title="No start"/>
              <psc:chapter start="soon" title="Unreadable start"/>
            </psc:chapters></item></channel></rss>
            """
        let expected = [
            FeedChapter(start: 5.5, title: "Intro & news", href: "https://example.org/?a=1&b=2"),
            FeedChapter(start: 3723, title: "Q&A", image: "https://example.org/c.jpg"),
            FeedChapter(start: 0, title: "Unreadable start"),
        ]
        for reading in [FeedParser.Reading.scanningFirst, .libxml2] {
            for threads in [FeedParser.Threads.one, .tape] {
                let content = try FeedParser.parse(Data(xml.utf8), baseURL: Self.base, threads: threads, reading: reading)
                #expect(content.items.first?.details.chapters == expected, "\(reading), \(threads)")
            }
        }
    }

    @Test func fallsBackToMediaContentForTheEnclosure() throws {
        let content = try Self.parse("""
            <rss xmlns:media="http://search.yahoo.com/mrss/"><channel><title>T</title>
            <item><title>Video</title><media:group>
              <media:content url="thumb.jpg" medium="image"/>
              <media:content url="v.mp4" type="video/mp4" fileSize="123"/>
            </media:group></item>
            <item><title>Untyped</title><media:content url="u.mp3"/></item>
            <item><title>Flash</title><media:content url="p.swf" type="application/x-shockwave-flash"/></item>
            </channel></rss>
            """)
        #expect(content.items.map(\.title) == ["Video", "Untyped"])
        #expect(content.items.map(\.enclosureURL) == ["https://example.com/podcasts/show/v.mp4",
                                                     "https://example.com/podcasts/show/u.mp3"])
        #expect(content.items.first?.enclosureLength == 123)
    }
}
