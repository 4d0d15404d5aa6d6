import EarshotCore
@testable import Feeds
import Foundation
import Testing

/// Larger documents are parsed on two threads: libxml2's pass records the events on a tape, the rules
/// replay it on a thread of their own (`FeedTape`). Whatever the document, that must give what the
/// parse on one thread gives, and stop where it stops.
@Suite("The rules replayed from a tape give what the parse on one thread gives")
struct FeedTapeTests {
    static let base = URL(string: "https://example.org/feed.xml")!

    static let files: [URL] = Conformance.files(in: Conformance.folder("feeds"), ext: "xml")
        + Conformance.files(in: Conformance.folder("feeds"), ext: "rss")
        + Conformance.files(in: Conformance.folder("podcastparser"), ext: "rss")
        + Conformance.files(in: Conformance.folder("feeds").appendingPathComponent("encoding"), ext: "xml")

    /// The parse's result, or what it threw, as text.
    enum Outcome: Equatable {
        case parsed(FeedContent)
        case failed(String)

        func get() throws -> FeedContent {
            guard case .parsed(let content) = self else { throw FeedError.empty }
            return content
        }
    }

    static func outcome(_ data: Data, threads: FeedParser.Threads, keepingSource: Bool) -> Outcome {
        do {
            return .parsed(try FeedParser.parse(data, baseURL: base, keepingItemsWithoutEnclosure: keepingSource,
                                                keepingSourceText: keepingSource, threads: threads))
        } catch {
            return .failed("\(error)")
        }
    }

    @Test("every conformance feed, real and podcastparser's: the same podcast, items and warnings")
    func sameAsOneThread() throws {
        #expect(Self.files.count > 80, "the conformance feeds are where they should be")
        var taped = 0
        for file in Self.files {
            let data = try Data(contentsOf: file)
            for keepingSource in [false, true] {
                let one = Self.outcome(data, threads: .one, keepingSource: keepingSource)
                let tape = Self.outcome(data, threads: .tape, keepingSource: keepingSource)
                #expect(one == tape, "\(file.lastPathComponent), keeping the source text: \(keepingSource)")
                if case .parsed(let content) = tape, !content.items.isEmpty { taped += 1 }
            }
        }
        #expect(taped > 100, "most of them are feeds with items")
    }

    /// Long notes (a text event far larger than a segment), attributes with escaped ampersands and
    /// prefixes, an undeclared prefix, an `xml:base`, inline XHTML in Atom: what the tape must carry.
    static func awkwardFeed(items: Int) -> Data {
        let longNotes = String(repeating: "<p>Notes &amp; more <a href=\"https://example.org/?a=1&amp;b=2\">link</a></p>", count: 3_000)
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:content="http://purl.org/rss/1.0/modules/content/">
            <channel xml:base="https://example.org/base/"><title>Awkward &amp; long</title>
            """
        for n in 0..<items {
            xml += """
                <item><title>Episode \(n) &lt;1&gt;</title><guid isPermaLink="false">g\(n)</guid>
                <enclosure url="audio/\(n).mp3?x=1&amp;y=2" length="\(n * 1000)" type="audio/mpeg"/>
                <itunes:duration>1:0\(n % 10)</itunes:duration><podcast:season>2</podcast:season>
                <content:encoded><![CDATA[\(n % 3 == 0 ? longNotes : "<p>short \(n)</p>")]]></content:encoded>
                <description>plain &amp; simple</description></item>
                """
        }
        return Data((xml + "</channel></rss>").utf8)
    }

    @Test("long notes, escaped attributes, prefixes and xml:base, by size and forced either way")
    func awkwardDocument() throws {
        let data = Self.awkwardFeed(items: 40)
        #expect(data.count > FeedTape.threshold, "large enough that a parse by size takes the tape")
        let one = Self.outcome(data, threads: .one, keepingSource: true)
        #expect(one == Self.outcome(data, threads: .tape, keepingSource: true))
        #expect(one == Self.outcome(data, threads: .bySize, keepingSource: true))
        let content = try one.get()
        #expect(content.items.count == 40)
        #expect(content.items.first?.enclosureURL == "https://example.org/base/audio/0.mp3?x=1&y=2")
        #expect(content.items.first?.title == "Episode 0 <1>")
    }

    @Test("a page that is no feed stops at its root, however large, and says what it is")
    func notAFeedStops() throws {
        let rows = String(repeating: "<div><p>row</p></div>", count: 20_000)
        let page = Data("<html><head><title>Sign in</title></head><body>\(rows)</body></html>".utf8)
        #expect(page.count > FeedTape.threshold)
        for threads in [FeedParser.Threads.one, .tape, .bySize] {
            #expect(throws: FeedError.notAFeed(rootElement: "html")) {
                try FeedParser.parse(page, baseURL: Self.base, threads: threads)
            }
        }
    }
}
