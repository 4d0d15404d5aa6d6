import EarshotCore
@testable import Feeds
import Foundation
import TestSupport
import Testing

/// `XMLFastScan` reads plainly well-formed UTF-8 feeds without libxml2: whatever it reads must come out
/// as libxml2's events, and whatever it does not read must be left to libxml2 whole.
@Suite("The fast scan gives libxml2's events, or leaves the document to libxml2")
struct XMLFastScanTests {
    /// The events of one read, text between two element events joined into one.
    final class Recorder: XMLEventHandler {
        var events: [String] = []
        private var text: [UInt8] = []

        func startElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) {
            flush()
            events.append("start " + element.summary)
        }

        func endElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) {
            flush()
            events.append("end " + element.summary)
        }

        func characters(_ text: UnsafeBufferPointer<UInt8>) { self.text.append(contentsOf: text) }

        func flush() {
            guard !text.isEmpty else { return }
            events.append("text " + String(decoding: text, as: UTF8.self).debugDescription)
            text = []
        }
    }

    /// The scan's events, or nil when it left the document to libxml2.
    static func scanned(_ bytes: [UInt8]) -> [String]? {
        var copy = bytes
        let recorder = Recorder()
        let read = copy.withUnsafeMutableBytes { XMLFastScan.read($0, handler: recorder) }
        recorder.flush()
        return read ? recorder.events : nil
    }

    /// libxml2's events and whether it met an error it had to recover from.
    static func libxml2(_ bytes: [UInt8]) -> (events: [String], fatal: Bool) {
        let recorder = Recorder()
        let outcome = bytes.withUnsafeBytes { XMLEventStream.parse($0, handler: recorder) }
        recorder.flush()
        return (recorder.events, outcome.fatal != nil)
    }

    static func document(_ file: URL) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: file))
        return Array(bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })  // as FeedParser hands it over
    }

    @Test("every conformance feed the scan reads gives libxml2's events; most real feeds are read")
    func conformanceFeeds() throws {
        var read = 0
        for file in FeedTapeTests.files {
            let bytes = try Self.document(file)
            guard let events = Self.scanned(bytes) else { continue }
            read += 1
            let reference = Self.libxml2(bytes)
            #expect(!reference.fatal, "\(file.lastPathComponent): libxml2 found an error in a document the scan read")
            let first = zip(events, reference.events).first { $0 != $1 }
            #expect(events == reference.events, "\(file.lastPathComponent): \(first.map { "\($0)\n  vs \($1)" } ?? "\(events.count) events vs \(reference.events.count)")")
        }
        #expect(read > 70, "the scan read \(read) of \(FeedTapeTests.files.count)")
        for name in ["2020-12-19-LinuxUnplugged.xml", "giantbomb-podcast.rss", "themnshow.xml", "podlovers.xml", "homegrown-hits.xml"] {
            #expect(Self.scanned(try Self.document(Conformance.folder("feeds").appendingPathComponent(name))) != nil, "\(name) is read by the scan")
        }
    }

    @Test("an attribute value's ampersands, handed over as '&#38;', read back as '&' and nothing else")
    func escapedAmpersandsAreReadBack() {
        let pieces = ["&#38;", "&", "#38;", "&#3", ";", "a", "é", "&#38", "x=1"]
        var random = SplitMix64(seed: 38)
        for _ in 0..<3_000 {
            let value = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            var expected = "", rest = Substring(value)
            while let range = rest.range(of: "&#38;") {
                expected += rest[..<range.lowerBound] + "&"
                rest = rest[range.upperBound...]
            }
            expected += rest
            let read = Array(value.utf8).withUnsafeBufferPointer { XMLEventStream.Element.replacingEscapedAmpersands($0) }
            #expect(read == expected, "\(value)")
        }
    }

    @Test("what XML says and feeds do: line ends, references, namespaces, CDATA, empty elements")
    func details() {
        let cases = [
            "<rss>\r\n<a b=\"x\r\ny\tz\nw\">1\r2\r\n3</a></rss>",
            "<rss><a href=\"?a=1&amp;b=2&#38;c&#x26;&lt;&gt;&quot;&apos;&#233;&#x1F600;\">&amp;&lt;b&gt; &#169; &#x263A;</a></rss>",
            "<rss xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><itunes:image href=\"i\"/><podcast:guid>u</podcast:guid></rss>",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"http://e/\"><entry xmlns=\"\"><a:b xmlns:a=\"urn:a\" a:c=\"1\" c=\"2\"/></entry></feed>",
            "\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?><!-- c --><?xml-stylesheet href=\"s\"?><rss><![CDATA[<p>x\r\ny</p>]]>&amp;<![CDATA[]]></rss><!-- after -->",
            "<rss><a/><b   /><c x='1' y = \"2\" ></c ></rss>\n\n",
            "<?xml version='1.0' encoding = 'UTF-8' ?><rss/>",
            "<?xml version=\"1.0\"\tstandalone=\"no\"?>\n<rss/>",
            "<rss><![CDATA[a & b &nbsp; <!-- ]]><!-- & &nbsp; -->&lt;!</rss>",  // an & in a section or comment is no reference
        ]
        for text in cases {
            let bytes = Array(text.utf8)
            let events = Self.scanned(bytes)
            #expect(events != nil, "read: \(text)")
            #expect(events == Self.libxml2(bytes).events, "\(text)")
        }
    }

    @Test("left to libxml2: other encodings, a document type, undeclared entities, errors, non-ASCII names")
    func leftToLibxml2() {
        let cases = [
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss/>",
            "<?xml version=\"1.1\"?><rss/>",
            "<?xml version=\"1.0\" encoding=\"utf8\"?><rss/>",
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"maybe\"?><rss/>",
            "<?xml version=\"1.0\" other=\"x\"?><rss/>",
            "<?xml version=\"1.0\"encoding=\"UTF-8\"?><rss/>",
            "<?xml version=\"1.0?><rss/>",
            "<?xml encoding=\"UTF-8\" version=\"1.0\"?><rss/>",
            "<!DOCTYPE rss [<!ENTITY x \"y\">]><rss>&x;</rss>",
            "<rss>&nbsp;</rss>",
            // A small document's references are read by the scan alone (no check before it): each of these stops it.
            "<rss><a>text</a><b x=\"&nbsp;\"/></rss>",
            "<rss><a>text</a>&amp</rss>",
            "<rss><a>text</a>& b</rss>",
            "<rss><a>text</a>&#xZZ;</rss>",
            "<rss><a>text</a><b x=\"&\"/></rss>",
            "<rss><a></b></rss>",
            "<rss><a>",
            "<rss a=\"1\" a=\"2\"/>",
            "<rss a=\"<\"/>",
            "<rss>]]></rss>",
            "<rss><!-- a -- b --></rss>",
            "<rss><é/></rss>",
            "<rss>\u{01}</rss>",
            "<rss/><rss/>",
            "text<rss/>",
            "<rss xmlns:a=\"\"/>",
            "<rss>&#0;</rss>",
            String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300),
        ]
        for text in cases {
            #expect(Self.scanned(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(Self.scanned([0x3C, 0x72, 0x3E, 0xC3, 0x28, 0x3C, 0x2F, 0x72, 0x3E]) == nil, "invalid UTF-8")
        #expect(Self.scanned(Array("<r>\u{FFFF}</r>".utf8)) == nil, "U+FFFF")
    }

    @Test("a large document is checked a block at a time as it is read: a bad byte far in is still found, characters across blocks read whole")
    func checkedInBlocks() {
        let item = "<item><title>Caf\u{E9} \u{1F600} na\u{EF}ve</title><description>\(String(repeating: "\u{E9}t\u{E9} ", count: 40))</description></item>"
        let body = String(repeating: item, count: 900)  // several blocks; multi-byte characters fall across their ends
        let good = Array("<rss><channel>\(body)</channel></rss>".utf8)
        #expect(good.count > 3 * 65_536)
        let events = Self.scanned(good)
        #expect(events != nil && events == Self.libxml2(good).events)
        for offset in [70_000, 150_000, good.count - 20] {
            var bad = good
            bad.insert(0xFF, at: offset)
            #expect(Self.scanned(bad) == nil, "an invalid byte at \(offset)")
            var control = good
            control.insert(0x01, at: offset)
            #expect(Self.scanned(control) == nil, "a control character at \(offset)")
        }
    }

    @Test("random damage to real feeds: whatever the scan still reads, libxml2 reads without error to the same events (property)")
    func damagedFeeds() throws {
        var random = SplitMix64(seed: 1_505)
        let pieces: [[UInt8]] = ["<", ">", "&", "\"", "'", ";", ":", "/", "\r", " ", "x", "=", "<!--", "]]>", "&amp;", "&#38;", "xmlns:a=\"u\"", "<![CDATA[", "\u{E9}"]
            .map { Array($0.utf8) } + [[0xC3], [0x01], [0xEF, 0xBF, 0xBF]]
        var read = 0
        for name in ["podlovers.xml", "homegrown-hits.xml"] {
            let original = try Self.document(Conformance.folder("feeds").appendingPathComponent(name))
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<(1 + Int(random.next() % 3)) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    switch random.next() % 3 {
                    case 0: bytes.insert(contentsOf: pieces[Int(random.next() % UInt64(pieces.count))], at: at)
                    case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 4)))
                    default: bytes.replaceSubrange(at..<at + 1, with: pieces[Int(random.next() % UInt64(pieces.count))])
                    }
                }
                guard let events = Self.scanned(bytes) else { continue }
                read += 1
                let reference = Self.libxml2(bytes)
                #expect(!reference.fatal, "the scan read a document libxml2 finds broken: \(String(decoding: bytes, as: UTF8.self).prefix(300))")
                #expect(events == reference.events, "\(zip(events, reference.events).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "counts")")
            }
        }
        #expect(read > 50, "some damage leaves a well-formed document (read \(read))")
    }

    @Test("a feed parsed with the scan first is the feed libxml2 reads, on one thread and two, sink or none")
    func wholeParses() throws {
        for file in FeedTapeTests.files {
            let data = try Data(contentsOf: file)
            for threads in [FeedParser.Threads.one, .tape, .split] {
                let scanned = Self.outcome(data, threads: threads, reading: .scanningFirst)
                let libxml2 = Self.outcome(data, threads: threads, reading: .libxml2)
                #expect(FeedTapeTests.difference(libxml2, scanned) == nil, "\(file.lastPathComponent), \(threads)")
            }
        }
        // An HTML page that happens to be well-formed stops at its root either way.
        let page = Data("<html><head><title>Shop</title></head><body><p>x</p></body></html>".utf8)
        #expect(Self.outcome(page, threads: .one, reading: .scanningFirst) == .failed("\(FeedError.notAFeed(rootElement: "html"))"))
    }

    @Test("notes read where they stand when they are one piece, copied when several (CDATA and text, a comment): the feed libxml2 reads, on one thread and in pieces on two")
    func notesInOnePieceOrSeveral() throws {
        let notes = [
            "<content:encoded><![CDATA[<p>One <b>piece</b></p>]]></content:encoded>",
            "<content:encoded><![CDATA[<p>First</p>]]> and &lt;i&gt;text&lt;/i&gt; <![CDATA[<p>then more</p>]]></content:encoded>",
            "<description>&lt;p&gt;Escaped &lt;a href=&quot;https://e.org/?a=1&amp;amp;b=2&quot;&gt;link&lt;/a&gt;&lt;/p&gt;</description>",
            "<description>plain words</description><content:encoded>  </content:encoded>",
            "<description>&lt;p&gt;before<!-- a comment -->after&lt;/p&gt;</description>",
            "<itunes:summary><![CDATA[Summary]]></itunes:summary><description><![CDATA[<p>HTML <a href=\"https://e.org/x\">x</a></p>]]></description>",
        ]
        let items = (0..<300).map { index in
            "<item><title>E\(index)</title><guid>g\(index)</guid><enclosure url=\"https://e.org/\(index).mp3\" type=\"audio/mpeg\" length=\"1\"/>"
                + notes[index % notes.count] + "</item>"
        }.joined()
        let data = Data(("<rss xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">"
            + "<channel><title>Pieces</title>\(items)</channel></rss>").utf8)
        for threads in [FeedParser.Threads.one, .split] {
            let scanned = Self.outcome(data, threads: threads, reading: .scanningFirst)
            #expect(FeedTapeTests.difference(Self.outcome(data, threads: threads, reading: .libxml2), scanned) == nil, "\(threads)")
            let parsed = try scanned.get().items
            #expect(parsed.count == 300)
            let first = parsed[0].details.notes.nodes, several = parsed[1].details.notes.nodes, commented = parsed[4].details.notes.nodes
            #expect(first == [.element("p", attributes: [:], children: [.text("One "), .element("b", attributes: [:], children: [.text("piece")])])])
            #expect(several == [.element("p", attributes: [:], children: [.text("First")]), .text("and "),
                                .element("i", attributes: [:], children: [.text("text")]),
                                .element("p", attributes: [:], children: [.text("then more")])], "\(several)")
            #expect(commented == [.element("p", attributes: [:], children: [.text("beforeafter")])], "\(commented)")
            #expect(parsed[5].summary == "Summary" && parsed[3].summary == "plain words")
        }
    }

    @Test("a document the scan gives up on late: its sink is told to start again and ends with libxml2's items")
    func lateFallbackRestartsTheSink() throws {
        let items = (0..<400).map {
            "<item><title>Episode \($0)</title><guid>g\($0)</guid><enclosure url=\"https://e.org/\($0).mp3\" type=\"audio/mpeg\" length=\"1\"/>"
                + "<description>\(String(repeating: "notes ", count: 60))</description></item>"
        }.joined()
        // "]]>" may not stand in text: an error only met there (a document with an undeclared entity
        // is left to libxml2 before the scan starts).
        let last = "<item><title>Last ]]> one</title><guid>last</guid><enclosure url=\"https://e.org/last.mp3\" type=\"audio/mpeg\" length=\"1\"/></item>"
        let data = Data("<rss><channel><title>Late</title>\(items)\(last)</channel></rss>".utf8)
        #expect(data.count > FeedTape.threshold, "taped, items handed over in batches while the scan reads")
        func sunk(_ reading: FeedParser.Reading) throws -> (guids: [String], restarts: Int) {
            var guids: [String] = []
            var restarts = 0
            let sink = FeedItemHandler(take: { guids += $0.map(\.guid) }, restart: {
                guids = []
                restarts += 1
            })
            _ = try FeedParser.parse(data, baseURL: FeedTapeTests.base, into: sink, threads: .bySize, reading: reading)
            return (guids, restarts)
        }
        let scanned = try sunk(.scanningFirst), libxml2 = try sunk(.libxml2)
        #expect(scanned.guids == libxml2.guids)
        #expect(scanned.guids.count == 401 && scanned.guids.last == "last")
        #expect(scanned.restarts == 1 && libxml2.restarts == 0)
    }

    static func outcome(_ data: Data, threads: FeedParser.Threads, reading: FeedParser.Reading) -> FeedTapeTests.Outcome {
        do {
            return .parsed(try FeedParser.parse(data, baseURL: FeedTapeTests.base, threads: threads, reading: reading))
        } catch {
            return .failed("\(error)")
        }
    }
}
