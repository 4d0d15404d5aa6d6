import EarshotCore
@testable import Feeds
import Foundation
import TestSupport
import Testing

/// A scanned feed is read in pieces on two threads (`SplitRead`): whatever the document, the result must
/// be the one read's, pieces that do not fit dropped and the rest read again on the calling thread.
@Suite("A feed read in pieces on two threads gives what one read gives")
struct SplitReadTests {
    /// The podcast read in pieces, and how many pieces the other thread's read counted; nil when the
    /// document is one for libxml2.
    static func split(_ data: Data) throws -> (content: FeedContent, apart: Int)? {
        let builder = FeedBuilder.Recipe(baseURL: FeedTapeTests.base, keepsItemsWithoutEnclosure: false, keepsSourceText: false)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        defer { copy.deallocate() }
        copy.copyBytes(from: data)
        guard let first = SplitRead.firstPoint(UnsafeRawBufferPointer(copy)) else { return nil }
        let (handler, read) = FeedParser.splitRead(copy, at: first, into: builder)
        guard read else { return nil }
        if let error = handler.error { throw error }
        return (handler.finish(), handler.piecesReadApart)
    }

    static func one(_ data: Data) -> FeedTapeTests.Outcome { FeedTapeTests.outcome(data, threads: .one, keepingSource: false) }

    static func item(_ n: Int, notes: String = "") -> String {
        "<item><title>Episode \(n)</title><guid>g\(n)</guid><itunes:duration>\(n)</itunes:duration>"
            + "<enclosure url=\"https://example.org/\(n).mp3\" length=\"\(n)\" type=\"audio/mpeg\"/>"
            + "<description><![CDATA[<p>Notes \(n) \(notes)</p>]]></description></item>\n"
    }

    static func feed(_ body: String, channelAttributes: String = "") -> Data {
        Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">"
              + "<channel\(channelAttributes)><title>Pieces</title>\n" + body + "</channel></rss>").utf8)
    }

    @Test("a plain feed is read in pieces, its items in order")
    func plainFeedSplits() throws {
        let data = Self.feed((0..<2_000).map { Self.item($0) }.joined())
        #expect(data.count > 2 * SplitRead.pieceBytes, "several pieces")
        let (content, apart) = try #require(try Self.split(data))
        #expect(apart > 0, "the other thread's pieces were taken")
        #expect(content.items.map(\.guid) == (0..<2_000).map { "g\($0)" })
        #expect(FeedTapeTests.difference(.parsed(content), Self.one(data)) == nil)
    }

    /// Pieces shrink toward the middle, where the threads meet, so the one that finishes first waits for
    /// at most a small piece; there are never more than `maxPieces`.
    @Test("pieces shrink toward the middle of the document")
    func piecesShrinkTowardTheMiddle() {
        var random = SplitMix64(seed: 21)
        let sizes = [SplitRead.pieceBytes, 200 << 10, 1_253_348, 3 << 20, 8 << 20] + (0..<200).map { _ in Int(random.next() % (8 << 20)) + (128 << 10) }
        for count in sizes {
            let starts = SplitRead.pieceStarts(count: count)
            let pieces = zip([0] + starts, starts + [count]).map { $1 - $0 }
            #expect(pieces.allSatisfy { $0 > 0 }, "ascending, inside the document: \(count)")
            #expect(pieces.count <= SplitRead.maxPieces, "\(count): \(pieces.count) pieces")
            // From each end to the middle, no piece is larger than the one before it (but for a byte or
            // two of rounding: halves round down, the last piece of a half takes what is left).
            let front = pieces.prefix(pieces.count / 2), back = pieces.suffix(pieces.count / 2).reversed()
            for half in [Array(front), Array(back)] {
                #expect(zip(half, half.dropFirst()).allSatisfy { $0 + 2 >= $1 }, "\(count): \(pieces)")
                #expect(half.last! < SplitRead.smallestPiece * 2, "\(count): small where they meet: \(pieces)")
            }
            #expect(starts.contains(count / 2))
        }
        #expect(SplitRead.pieceStarts(count: 1_253_348).count > 8, "a megabyte feed has small pieces in its middle")
    }

    /// The other thread of a split read starts before the file is read: it must be let go whatever the
    /// file turns out to be — one for libxml2 (an undeclared entity late in it), one without items, one
    /// that is only whitespace, one that is not there — and the parse must give what one thread gives.
    @Test("a split read's early thread is let go whatever the file turns out to be", .timeLimit(.minutes(1)))
    func earlyThreadIsLetGo() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let items = (0..<1_500).map { Self.item($0, notes: "text") }
        let cases: [(String, Data)] = [
            ("undeclared entity late", Self.feed(items.joined() + "<item><title>&nbsp;</title></item>")),
            ("no items", Self.feed(String(repeating: "<itunes:summary>long</itunes:summary>\n", count: 6_000))),
            ("whitespace", Data(String(repeating: " \n", count: 100_000).utf8)),
            ("items", Self.feed(items.joined())),
        ]
        for (name, data) in cases {
            #expect(data.count >= SplitRead.pieceBytes, "\(name): large enough to be split")
            let file = directory.url.appendingPathComponent("\(name).xml")
            try data.write(to: file)
            let fromFile: FeedTapeTests.Outcome
            do {
                fromFile = .parsed(try FeedParser.parse(contentsOf: file, baseURL: FeedTapeTests.base))
            } catch {
                fromFile = .failed("\(error)")
            }
            #expect(FeedTapeTests.difference(fromFile, Self.one(data)) == nil, "\(name)")
            #expect(FeedTapeTests.difference(FeedTapeTests.outcome(data, threads: .split, keepingSource: false), Self.one(data)) == nil, "\(name)")
        }
        #expect(throws: (any Error).self) { try FeedParser.parse(contentsOf: directory.url.appendingPathComponent("missing.xml")) }
    }

    /// Where pieces start is found sixteen bytes a step: it must be the first start tag a byte-by-byte
    /// search finds, wherever the tag stands against the steps (random mixes of near misses).
    @Test("pieces start at the first start tag of their name, found sixteen bytes a step")
    func findsTheNextStartTag() {
        var random = SplitMix64(seed: 22)
        let pieces = ["<item>", "<item ", "<item/", "<items>", "<i>", "<", "i", "item", "<itemx", "x", "é", "\n<", "</item>", "<<item\t"]
        let name = Array("item".utf8)
        var found = 0
        for _ in 0..<3_000 {
            let text = (0..<Int(random.next() % 24)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let bytes = Array(text.utf8)
            let from = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            let expected = bytes.withUnsafeBytes { document in
                (from..<max(from, bytes.count)).first { XMLFastScan.isTag(name, in: document, at: $0) }
            }
            let next = bytes.withUnsafeBytes { SplitRead.nextTag(name, in: $0, from: from) }
            #expect(next == expected, "\(text.debugDescription) from \(from)")
            if expected != nil { found += 1 }
        }
        #expect(found > 1_000, "most texts have a tag to find")
    }

    @Test("an Atom feed is read in pieces at its entries")
    func atomSplits() throws {
        let entries = (0..<1_500).map {
            "<entry><id>e\($0)</id><title>Entry \($0)</title><link rel=\"enclosure\" href=\"https://example.org/\($0).mp3\" type=\"audio/mpeg\"/></entry>\n"
        }.joined()
        let data = Data("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Atom</title>\(entries)</feed>".utf8)
        let (content, apart) = try #require(try Self.split(data))
        #expect(apart > 0)
        #expect(content.items.count == 1_500)
        #expect(FeedTapeTests.difference(.parsed(content), Self.one(data)) == nil)
    }

    @Test("where pieces do not fit, the calling thread reads on, and the podcast is the one read's")
    func misfitsReadOn() throws {
        let items = (0..<1_200).map { Self.item($0) }
        let cases: [(String, Data)] = [
            // A channel field after the items: one read sets it on the podcast.
            ("a channel image after the items",
             Self.feed(items.joined() + "<itunes:image href=\"https://example.org/late.png\"/><itunes:author>Late</itunes:author>\n")),
            // "<item>" in notes near every meeting point: inside a CDATA section, not a tag.
            ("<item> inside notes",
             Self.feed(items.enumerated().map { $1 + ($0 % 40 == 0 ? "<item><title>x</title><description><![CDATA[\n<item> not a tag <item>\n" + String(repeating: "<item>", count: 30) + "]]></description><guid>c\($0)</guid><enclosure url=\"https://e.org/c.mp3\" type=\"audio/mpeg\"/></item>\n" : "") }.joined())),
            // Items inside an element no rule knows: one read ignores them.
            ("items wrapped in an unknown element",
             Self.feed(items[..<300].joined() + "<wrapper>" + items[300...].joined() + "</wrapper>")),
            // A namespace declared again halfway: the context there is another.
            ("a namespace declared on the way",
             Self.feed(items[..<600].joined() + "<itunes:block xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">no</itunes:block>"
                       + items[600...].joined())),
            ("xml:base on the channel", Self.feed(items.joined(), channelAttributes: " xml:base=\"https://example.org/base/\"")),
            // Two channels, the second with a base of its own: the same names, another context (its
            // items' relative links resolve against its base), whichever thread reads them.
            ("a second channel with its own xml:base",
             Self.feed(items[..<200].joined() + "</channel><channel xml:base=\"https://other.example/\">"
                       + (0..<1_000).map { Self.item($0).replacingOccurrences(of: "https://example.org/", with: "") }.joined())),
            // No item before the first meeting point: read alone, the other thread never started.
            ("the first item past the middle",
             Self.feed("<description><![CDATA[" + String(repeating: "long channel notes ", count: 20_000) + "]]></description>\n"
                       + items.joined())),
            // The document breaks late: left to libxml2 (nil), as the one read leaves it.
            ("a mismatched tag near the end", Self.feed(items.joined() + "<item><title>bad</titel></item>")),
        ]
        for (name, data) in cases {
            let one = Self.one(data)
            if let (content, _) = try Self.split(data) {
                #expect(FeedTapeTests.difference(.parsed(content), one) == nil, "\(name)")
            } else {
                #expect(name == "a mismatched tag near the end", "\(name): the scan read it as one read")
                #expect(FeedTapeTests.difference(one, FeedTapeTests.outcome(data, threads: .split, keepingSource: false)) == nil)
            }
        }
        // The late image is the podcast's, as one read has it.
        let late = try #require(try Self.split(cases[0].1))
        #expect(late.content.artworkURL == "https://example.org/late.png")
        #expect(late.content.author == "Late")
    }

    /// A split read checks the document's references on both threads, a half each (`SplitRead
    /// .referencesAreReadable`): whatever the halves cut — a CDATA section, a comment, a `<!` inside one —
    /// the verdict must be the one check's (random mixes; the halves meet at a `<`, as they do there).
    @Test("references checked in two halves: the verdict one check gives, wherever the halves meet (property)")
    func referencesInHalvesAsInOne() {
        var random = SplitMix64(seed: 23)
        let pieces = ["&amp;", "&bad;", "&#38;", "&", "<![CDATA[", "]]>", "<!--", "-->", "x", "<item>", "<", "!", "<!", "&lt;"]
        var readable = 0, cut = 0
        for _ in 0..<4_000 {
            let text = (0..<Int(random.next() % 16)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { document in
                let whole = XMLFastScan.referencesAreReadable(document)
                if whole { readable += 1 }
                for half in bytes.indices where bytes[half] == UInt8(ascii: "<") {
                    let earlier = XMLFastScan.referencesReadable(document, from: 0, to: half)
                    let later = XMLFastScan.referencesReadable(document, from: half, to: bytes.count) != nil
                    if let earlier, earlier != half { cut += 1 }
                    #expect(XMLFastScan.referencesAreReadable(document, halvesAt: half, earlier: earlier, later: later) == whole,
                            "\(text.debugDescription) cut at \(half)")
                }
            }
        }
        #expect(readable > 400 && readable < 3_600, "both verdicts are common: \(readable)")
        #expect(cut > 500, "halves often meet inside a section: \(cut)")
    }

    /// The halves of the reference check meet at an `<item` past the middle: one inside a CDATA section
    /// or a comment must not change what is read.
    @Test("where the reference check's halves meet inside notes or a comment, the podcast is the one read's")
    func referenceHalvesInsideSections() throws {
        let items = (0..<400).map { Self.item($0) }
        let filler = String(repeating: "filler ", count: 60_000)
        // A CDATA section holding `&` and `<item>` across the middle: the scan reads it all the same.
        let notes = Self.feed(items.joined() + "<item><title>Long</title><guid>long</guid><enclosure url=\"https://e.org/l.mp3\" type=\"audio/mpeg\"/>"
                              + "<description><![CDATA[" + filler + " Q&A <item> & <!-- " + filler + "]]></description></item>\n"
                              + (400..<800).map { Self.item($0) }.joined())
        // A comment across the middle holding `<item> <![CDATA[`: read from there, the `&bad;` after the comment
        // would look like CDATA; it is an undeclared entity, and the document is libxml2's.
        let comment = Self.feed(items.joined() + "<!-- " + filler + " <item> <![CDATA[ " + filler + " -->"
                                + "<itunes:author>&bad;</itunes:author><itunes:keywords a=\"]]>\"/>\n" + (400..<800).map { Self.item($0) }.joined())
        for data in [notes, comment] {
            let middle = data.count / 2
            let start = data.range(of: Data((data == notes ? "<![CDATA[" : "<!--").utf8))!.lowerBound
            #expect(start < middle && middle < start + 2 * filler.utf8.count, "the section holds the middle")
        }
        let (content, _) = try #require(try Self.split(notes), "read by the scan")
        #expect(content.items.count == 801)
        #expect(FeedTapeTests.difference(.parsed(content), Self.one(notes)) == nil)
        #expect(try Self.split(comment) == nil, "left to libxml2")
        #expect(FeedTapeTests.difference(FeedTapeTests.outcome(comment, threads: .split, keepingSource: false), Self.one(comment)) == nil)
    }

    @Test("a scan told of meeting points it reads on through hands over the events it gives without them")
    func readingOnChangesNoEvent() throws {
        // Text before each meeting point, references in it: handed over, and decoded in place, once.
        let bytes = [UInt8](Self.feed((0..<2_000).map { "a &amp;lt; b &#38;amp;\n" + Self.item($0) }.joined()))
        let plain = try #require(XMLFastScanTests.scanned(bytes))
        let first = try #require(bytes.withUnsafeBytes { SplitRead.firstPoint($0) })
        let offsets = bytes.withUnsafeBytes { SplitRead.laterPoints($0, after: first) }
        #expect(offsets.count > 1)
        var copy = bytes
        let recorder = XMLFastScanTests.Recorder()
        var arrivals = 0
        let meeting = XMLFastScan.Meeting(offset: offsets[0], name: first.name, first: { _ in }, reached: { _ in
            arrivals += 1
            return .readOn(arrivals < offsets.count ? offsets[arrivals] : Int.max)
        }, passed: {})
        let read = copy.withUnsafeMutableBytes { XMLFastScan.read($0, handler: recorder, meeting: meeting) }
        recorder.flush()
        #expect(read)
        #expect(arrivals == offsets.count, "every meeting point reached")
        #expect(recorder.events == plain)
    }

    @Test("random feeds: pieces, CDATA, late fields and namespaces read as one read reads them")
    func randomFeeds() throws {
        var random = SplitMix64(seed: 15)
        var splitApart = 0
        for round in 0..<60 {
            var body = ""
            for n in 0..<Int.random(in: 200...900, using: &random) {
                switch Int.random(in: 0..<100, using: &random) {
                case 0: body += "<itunes:subtitle>late \(n)</itunes:subtitle>\n"
                case 1: body += "<!-- <item> in a comment -->\n"
                case 2: body += "<x:item xmlns:x=\"urn:x\"><title>not an item</title></x:item>\n"
                case 3: body += Self.item(n, notes: "]]><![CDATA[<item>")
                default: body += Self.item(n, notes: String(repeating: "words ", count: Int.random(in: 0...80, using: &random)))
                }
            }
            let data = Self.feed(body)
            let one = Self.one(data)
            let (content, apart) = try #require(try Self.split(data), "round \(round)")
            #expect(FeedTapeTests.difference(.parsed(content), one) == nil, "round \(round)")
            splitApart += apart
        }
        #expect(splitApart > 0, "some rounds were read in pieces")
    }
}
