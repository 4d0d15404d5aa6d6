import EarshotCore
@testable import Feeds
import Foundation
import Testing

/// A feed's items handed over in batches while it is parsed (what a large subscription is stored from).
@Suite("Items taken while a feed is parsed")
struct FeedItemSinkTests {
    /// Records what it is handed, and when it was told to start again.
    final class Recorder: FeedItemSink {
        var batches: [[FeedItem]] = []
        var restarts = 0
        var failAfter: Int?

        struct Refused: Error, Equatable {}

        func take(_ items: [FeedItem]) throws {
            if let failAfter, batches.count >= failAfter { throw Refused() }
            batches.append(items)
        }

        func restart() throws {
            restarts += 1
            batches = []
        }

        var items: [FeedItem] { batches.flatMap { $0 } }
    }

    static let base = URL(string: "https://example.org/feed.xml")!

    /// `count` items, each with show notes of about `notes` bytes (a large document's rules run on
    /// `FeedTape`'s thread, a small one's on the parsing thread).
    static func feed(items count: Int, notes: Int) -> Data {
        let body = String(repeating: "words and <b>more</b> words ", count: max(1, notes / 28))
        let items = (0..<count).map { n in
            "<item><title>Item \(n)</title><guid>g\(n)</guid><enclosure url=\"a\(n).mp3\" type=\"audio/mpeg\"/>"
                + "<description><![CDATA[<p>\(n) \(body)</p>]]></description></item>"
        }.joined()
        return Data("<rss><channel><title>Big</title>\(items)<description>Said after the items</description></channel></rss>".utf8)
    }

    @Test("small and large documents: every item in document order, in batches, the same as parsed whole",
          arguments: [(600, 100), (3_000, 600)])
    func sameItemsInBatches(count: Int, notes: Int) throws {
        let data = Self.feed(items: count, notes: notes)
        let whole = try FeedParser.parse(data, baseURL: Self.base)
        let recorder = Recorder()
        let streamed = try FeedParser.parse(data, baseURL: Self.base, into: recorder)
        #expect(streamed.items.isEmpty, "the items went to the sink")
        #expect(recorder.items == whole.items)
        #expect(recorder.batches.count > 1, "handed over as it went, not all at the end")
        #expect(streamed.title == "Big" && streamed.summary == whole.summary, "what follows the items is read too")

        // The same from a file read a chunk at a time.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString).xml")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = Recorder()
        _ = try FeedParser.parse(contentsOf: file, baseURL: Self.base, into: fromFile)
        #expect(fromFile.items == whole.items)
    }

    @Test("a document read again after its bytes were repaired: the sink starts again and gets each item once")
    func restartsOnRepair() throws {
        var data = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss><channel><title>Mixed</title>".utf8)
        for n in 0..<300 { data.append(contentsOf: Data("<item><guid>g\(n)</guid><title>Item \(n)</title><enclosure url=\"a\(n).mp3\"/></item>".utf8)) }
        data.append(contentsOf: Data("<item><guid>late</guid><title>Caf".utf8))
        data.append(0xE9)  // Windows-1252 under a UTF-8 declaration: found late, after a batch went
        data.append(contentsOf: Data("</title><enclosure url=\"late.mp3\"/></item></channel></rss>".utf8))
        let whole = try FeedParser.parse(data, baseURL: Self.base)
        #expect(whole.items.count == 301 && whole.items.last?.title == "Café")

        let recorder = Recorder()
        let streamed = try FeedParser.parse(data, baseURL: Self.base, into: recorder)
        #expect(recorder.restarts == 1)
        #expect(recorder.items == whole.items, "no item twice")
        #expect(streamed.warnings == whole.warnings)
    }

    @Test("a sink that throws stops the parse, and the parse throws what it threw")
    func sinkErrorStops() throws {
        let recorder = Recorder()
        recorder.failAfter = 1
        #expect(throws: Recorder.Refused()) {
            try FeedParser.parse(Self.feed(items: 2_000, notes: 600), baseURL: Self.base, into: recorder)
        }
        #expect(recorder.batches.count == 1)
    }
}
