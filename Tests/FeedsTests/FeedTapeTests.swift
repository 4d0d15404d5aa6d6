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

    /// Where two outcomes differ, in a line (nil when they are equal): printing two feeds whole on a
    /// failure took minutes.
    static func difference(_ a: Outcome, _ b: Outcome) -> String? {
        guard a != b else { return nil }
        guard case .parsed(let x) = a, case .parsed(let y) = b else { return "\(String(describing: a).prefix(200)) vs \(String(describing: b).prefix(200))" }
        guard x.items.count == y.items.count else { return "\(x.items.count) items vs \(y.items.count)" }
        if let index = x.items.indices.first(where: { x.items[$0] != y.items[$0] }) {
            return "item \(index) differs: \(x.items[index].title) (\(x.items[index].guid)) vs \(y.items[index].title) (\(y.items[index].guid))"
        }
        return "the podcast's fields differ"
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
                #expect(Self.difference(one, tape) == nil, "\(file.lastPathComponent), keeping the source text: \(keepingSource)")
                #expect(Self.difference(one, Self.outcome(data, threads: .split, keepingSource: keepingSource)) == nil,
                        "\(file.lastPathComponent) read in pieces, keeping the source text: \(keepingSource)")
                #expect(Self.difference(one, Self.outcome(data, threads: .tapeHandingOver, keepingSource: keepingSource)) == nil,
                        "\(file.lastPathComponent) with long notes finished by either thread, keeping the source text: \(keepingSource)")
                if case .parsed(let content) = tape, !content.items.isEmpty { taped += 1 }
            }
        }
        #expect(taped > 100, "most of them are feeds with items")
    }

    /// Long notes (a text event far larger than a segment), attributes with escaped ampersands and
    /// prefixes, an undeclared prefix, an `xml:base`, inline XHTML in Atom: what the tape must carry.
    /// Every third item's notes are `longNotes` paragraphs of 75 bytes: by default 225 KB, far larger
    /// than a segment (`FeedTape.segmentBytes`).
    static func awkwardFeed(items: Int, longNotes paragraphs: Int = 3_000) -> Data {
        let longNotes = String(repeating: "<p>Notes &amp; more <a href=\"https://example.org/?a=1&amp;b=2\">link</a></p>", count: paragraphs)
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
        for threads in [FeedParser.Threads.tape, .tapeHandingOver, .split, .bySize] {
            #expect(Self.difference(one, Self.outcome(data, threads: threads, keepingSource: true)) == nil, "\(threads)")
        }
        let content = try one.get()
        #expect(content.items.count == 40)
        #expect(content.items.first?.enclosureURL == "https://example.org/base/audio/0.mp3?x=1&y=2")
        #expect(content.items.first?.title == "Episode 0 <1>")
    }

    /// Takes the items it is handed, in batches.
    final class Batches: FeedItemSink {
        var batches: [[FeedItem]] = []
        func take(_ items: [FeedItem]) throws { batches.append(items) }
        func restart() throws { batches = [] }
    }

    @Test("items finished by either thread reach a sink in document order, in batches, each once")
    func handedOverItemsKeepTheirOrder() throws {
        // Long notes on every third, long enough to go over to the line (11 KB; a larger feed only
        // takes longer: 233 notes of 225 KB made this test 19 s of the suite's 22 in a debug build).
        let data = Self.awkwardFeed(items: 700, longNotes: 150)
        #expect(150 * 75 - 512 > FinishingLine.shareableBytes, "the long notes are worth sharing")
        #expect(data.count > FeedTape.threshold, "large enough that a parse by size takes the tape")
        let whole = try Self.outcome(data, threads: .one, keepingSource: false).get()
        for threads in [FeedParser.Threads.tapeHandingOver, .tape, .split] {
            let sink = Batches()
            let streamed = try FeedParser.parse(data, baseURL: Self.base, into: sink, threads: threads)
            #expect(streamed.items.isEmpty, "the items went to the sink")
            #expect(Self.difference(.parsed(FeedContent(title: "", author: "", summary: "", items: sink.batches.flatMap { $0 })),
                                    .parsed(FeedContent(title: "", author: "", summary: "", items: whole.items))) == nil, "\(threads)")
            // Read in pieces, the other thread's items come at the end, whatever the sink: in order all the same.
            if threads != .split { #expect(sink.batches.count > 1, "handed over as they were finished, not all at the end") }
        }
    }

    @Test("a page that is no feed stops at its root, however large, and says what it is")
    func notAFeedStops() throws {
        let rows = String(repeating: "<div><p>row</p></div>", count: 20_000)
        let page = Data("<html><head><title>Sign in</title></head><body>\(rows)</body></html>".utf8)
        #expect(page.count > FeedTape.threshold)
        for threads in [FeedParser.Threads.one, .tape, .split, .bySize] {
            #expect(throws: FeedError.notAFeed(rootElement: "html")) {
                try FeedParser.parse(page, baseURL: Self.base, threads: threads)
            }
        }
    }
}
