import Foundation
import TestSupport
import Testing
@testable import Feeds

/// CDATA sections and long text runs handed to the handler without libxml2 (`CDATASection`, `XMLTextRun`,
/// `XMLEventStream`): the checks of their bytes, and — the point — the same events, errors and error lines
/// as libxml2's own reading on every conformance document and on documents made to trip it, in chunks of
/// any size.
@Suite struct CDATASectionTests {
    // MARK: - the bytes

    /// The reference: Swift's own UTF-8 decoding, then XML 1.0's characters, carriage return refused.
    static func reference(_ bytes: [UInt8]) -> Int? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var lineFeeds = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: lineFeeds += 1
            case 0x09, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: continue
            default: return nil
            }
        }
        return lineFeeds
    }

    static func checked(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { CDATASection.checkedLineFeeds($0) }
    }

    @Test("a section's bytes: UTF-8 of XML characters, line feeds counted; controls, CR, bad sequences refused")
    func bytesChecked() {
        #expect(Self.checked(Array("plain <b>html</b>\n\tand a line\n".utf8)) == 2)
        #expect(Self.checked(Array("é € 😀 中文 \u{D7FF} \u{E000} \u{FFFD} \u{10FFFF}".utf8)) == 0)
        for bad: [UInt8] in [[0x41, 0x0D, 0x0A], [0x00], [0x1F], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80],
                             [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
                             [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF]] {
            #expect(Self.checked(Array("long enough ascii ".utf8) + bad + Array(" and more".utf8)) == nil, "\(bad)")
        }
        // Random bytes, mostly printable with some of every kind, agree with the reference.
        var random = SplitMix64(seed: 1_515)
        let pieces: [[UInt8]] = [Array("abcdefgh".utf8), [0x0A], [0x09], [0x0D], [0x01], Array("é".utf8), Array("€".utf8),
                                 Array("😀".utf8), [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xC3], [0xBF], [0xF0, 0x9F]]
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 40) {
                bytes += random.next() % 3 == 0 ? pieces[Int(random.next() % UInt64(pieces.count))] : pieces[0]
            }
            #expect(Self.checked(bytes) == Self.reference(bytes), "\(bytes)")
        }
    }

    @Test("finding sections: whole and long ones only, the rest left to libxml2")
    func finding() {
        let long = String(repeating: "<p>notes</p>\n", count: 30)
        func found(_ text: String) -> CDATASection.Found? {
            Array(text.utf8).withUnsafeBytes { CDATASection.next(in: $0) }
        }
        guard case .section(let section) = found("ab<![CDATA[\(long)]]>cd") else { Issue.record("not found"); return }
        #expect(section.start == 2 && section.text == 11..<(11 + long.utf8.count) && section.lineFeeds == 30)
        #expect(section.end == 11 + long.utf8.count + 3)
        #expect(found("ab<![CDATA[short]]>") == .leaveToLibxml2(start: 2), "short: libxml2's")
        #expect(found("ab<![CDATA[\(long)") == .leaveToLibxml2(start: 2), "not ended in these bytes")
        #expect(found("ab<![CDATA[\(long)\r\n]]>") == .leaveToLibxml2(start: 2), "a carriage return")
        #expect(found("<![CDAT \(long)") == nil)
        #expect(found("]]> <!") == nil)
    }

    // MARK: - the events

    /// Every event as text: start and end tags by name, character data merged between them.
    final class Recorder: XMLEventHandler {
        var events: [String] = []
        private var text: [UInt8] = []

        func startElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) {
            flush()
            events.append("<\(element.qualifiedName) \(element.attribute("url") ?? "")>")
        }
        func endElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) {
            flush()
            events.append("</\(element.qualifiedName)>")
        }
        func characters(_ text: UnsafeBufferPointer<UInt8>) { self.text += text }
        func flush() {
            if !text.isEmpty { events.append(String(decoding: text, as: UTF8.self)) }
            text = []
        }
    }

    struct Reading: Equatable {
        var events: [String]
        var first: String?
        var firstLine: Int?
        var fatal: String?
        var fatalLine: Int?
    }

    /// `bytes` read in chunks of `chunk` bytes, CDATA and text handed over or not; how many of each were.
    static func read(_ bytes: [UInt8], chunk: Int, handingOver: Bool) -> (Reading, handedOver: Int) {
        let (reading, sections, runs) = readCounting(bytes, chunk: chunk, handingOver: handingOver)
        return (reading, sections + runs)
    }

    static func readCounting(_ bytes: [UInt8], chunk: Int, handingOver: Bool) -> (Reading, sections: Int, runs: Int) {
        let recorder = Recorder()
        let outcome = bytes.withUnsafeBytes { all in
            var offset = 0
            return XMLEventStream.parse(chunks: {
                guard offset < all.count else { return nil }
                let length = min(chunk, all.count - offset)
                defer { offset += length }
                return UnsafeRawBufferPointer(rebasing: all[offset..<offset + length])
            }, handler: recorder, readingCDATA: handingOver)
        }
        recorder.flush()
        return (Reading(events: recorder.events, first: outcome.first?.message, firstLine: outcome.first?.line,
                        fatal: outcome.fatal?.message, fatalLine: outcome.fatal?.line), outcome.sectionsHandedOver, outcome.runsHandedOver)
    }

    /// The same reading with and without handing over, in every chunk size (libxml2 in the same chunks: how
    /// far it reads into a broken section before it stops depends on them); how many were handed over in one piece.
    @discardableResult
    static func expectSame(_ bytes: [UInt8], _ name: String, chunks: [Int] = [1 << 20, 4_096, 997]) -> Int {
        var whole = 0
        for chunk in chunks {
            let (libxml2, _) = read(bytes, chunk: chunk, handingOver: false)
            let (ours, handedOver) = read(bytes, chunk: chunk, handingOver: true)
            #expect(ours == libxml2, "\(name), chunks of \(chunk)")
            if chunk == 1 << 20 { whole = handedOver }
        }
        return whole
    }

    @Test("every conformance document reads the same, in chunks of any size, and real feeds' notes are handed over")
    func conformanceDocuments() throws {
        var handedOver: [String: Int] = [:]
        let folders = ["feeds", "feeds/encoding", "podcastparser"]
        for folder in folders {
            let directory = Conformance.folder(folder)
            for ext in ["xml", "rss", "atom"] {
                for file in Conformance.files(in: directory, ext: ext) {
                    let bytes = [UInt8](try Data(contentsOf: file))
                    handedOver[file.lastPathComponent] = Self.expectSame(bytes, file.lastPathComponent)
                }
            }
        }
        #expect(handedOver.count > 60, "the documents were found (\(handedOver.count))")
        for name in ["freakshow_feed.mp3.xml", "2020-12-19-LinuxUnplugged.xml", "2026-02-13-deprogram.xml", "no-agenda.xml",
                     "giantbomb-podcast.rss"] {
            #expect((handedOver[name] ?? 0) > 20, "\(name): \(handedOver[name] ?? 0) handed over")
        }
        // no-agenda's notes are escaped HTML (text runs full of references), before and after its undefined
        // entity on line 2761 (libxml2 is told the document is well-formed again at the next event).
        let noAgenda = [UInt8](try Data(contentsOf: Conformance.folder("feeds").appendingPathComponent("no-agenda.xml")))
        #expect(Self.readCounting(noAgenda, chunk: 1 << 20, handingOver: true).runs > 45, "39 were before libxml2 was told")
    }

    static let notes = String(repeating: "<p>Show notes with <a href=\"https://example.com/?a=1&b=2\">a link</a> &amp; more</p>\n", count: 6)

    @Test("random text and sections, references good and bad, read as libxml2 reads them (property)")
    func randomDocuments() {
        let pieces = ["plain words ", "&lt;p&gt;", "&amp;amp;", "&#233;", "&#x1F600;", "&quot;", "\n", "é€", "&nbsp;", "&#0;",
                      "& ", "]]>", "\r\n", "\t", " > ", "<b>bold</b>", "<![CDATA[<p>in a section</p>]]>", "<!-- > -->", "&bogus",
                      String(repeating: "long plain text ", count: 20)]
        var random = SplitMix64(seed: 2_761)
        var handedOver = 0
        for round in 0..<1_000 {
            var body = ""
            for _ in 0..<Int(random.next() % 60) {
                // Mostly harmless pieces, so that long runs form; now and then one libxml2 must see.
                let index = random.next() % 4 == 0 ? Int(random.next() % UInt64(pieces.count)) : [0, 1, 2, 3, 4, 5, 6, 19][Int(random.next() % 8)]
                body += pieces[index]
            }
            let document = "<?xml version=\"1.0\"?>\n<rss><channel><item><description>\(body)</description></item>" +
                "<item><title>after</title></item></channel></rss>"
            handedOver += Self.expectSame(Array(document.utf8), "round \(round): \(body.prefix(200))", chunks: [1 << 20, 509])
        }
        #expect(handedOver > 150, "\(handedOver) runs and sections handed over: the property reaches them")
    }

    static let escaped = String(repeating: "&lt;p&gt;Show notes, escaped: &lt;a href=&quot;https://example.com/?a=1&amp;amp;b=2&quot;&gt;a link&lt;/a&gt;&lt;/p&gt;\n", count: 4)

    @Test("documents made to trip it read as libxml2 reads them, errors and their lines included")
    func trickyDocuments() {
        let notes = Self.notes
        let escaped = Self.escaped
        let open = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss><channel><title>T</title>\n"
        let close = "</channel></rss>\n"
        let cases: [(String, String, Bool)] = [  // (name, document, handed over)
            ("plain", open + "<item><description><![CDATA[\(notes)]]></description></item>" + close, true),
            ("text and an entity before, text after", open + "<item><description>\n  before &amp; <![CDATA[\(notes)]]> after</description></item>" + close, true),
            ("two in a row", open + "<item><description><![CDATA[\(notes)]]><![CDATA[\(notes)]]></description></item>" + close, true),
            ("in a comment", open + "<!-- <![CDATA[\(notes)]]> -->" + close, false),
            ("in a processing instruction", open + "<?note <![CDATA[\(notes)]]> ?>" + close, false),
            ("looking nested", open + "<d><![CDATA[<![CDATA[\(notes)]]></d>" + close, true),
            ("before the root element", "<?xml version=\"1.0\"?>\n<![CDATA[\(notes)]]><rss/>", false),
            ("after the root element", "<rss></rss><![CDATA[\(notes)]]>", false),
            ("carriage returns", open + "<d><![CDATA[\(notes.replacingOccurrences(of: "\n", with: "\r\n"))]]></d>" + close, false),
            ("invalid UTF-8 inside", open + "<d><![CDATA[\(notes)\u{FFFF}]]></d>" + close, false),
            ("an error after it names its line", open + "<d><![CDATA[\(notes)]]></d>\n<e>&nbsp;</e>\n<f>" + close, true),
            ("a tag left open before it", open + "<d attr=\"x <![CDATA[\(notes)]]>\"></d>" + close, false),
            ("declared Latin-1", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<rss><d><![CDATA[\(notes)]]></d></rss>", false),
            ("no declaration", "<rss><d><![CDATA[\(notes)]]></d></rss>", true),
            // Text runs: escaped HTML, every kind of reference; what libxml2 must see left to it.
            ("escaped notes", open + "<d>\(escaped)</d>" + close, true),
            ("references of every kind", open + "<d>\(escaped) &lt;&gt;&amp;&quot;&apos; &#233; &#xE9; &#x1F600; &#9;</d>" + close, true),
            ("an HTML entity", open + "<d>\(escaped) &nbsp; more</d>" + close, false),
            ("a reference to no character", open + "<d>\(escaped) &#0; &#xFFFE;</d>" + close, false),
            ("a malformed reference", open + "<d>\(escaped) & more &amp</d>" + close, false),
            ("]]> in text", open + "<d>\(escaped) ]]> more</d>" + close, false),
            ("carriage returns in text", open + "<d>\(escaped.replacingOccurrences(of: "\n", with: "\r\n"))</d>" + close, false),
            ("text after a section", open + "<d><![CDATA[\(notes)]]>\(escaped)</d>" + close, true),
            ("text after an attribute holding >", open + "<d title=\"a > b\">\(escaped)</d>" + close, true),
            ("text in a comment", open + "<!-- \(escaped) > \(escaped) -->" + close, false),
            ("text after a comment holding >", open + "<d><!-- a > b -->\(escaped)</d>" + close, true),
            // The run after a > in text follows text libxml2 still holds: left to it.
            ("text with > in it", open + "<d>\(escaped) a > b \(escaped)</d>" + close, false),
            ("text before the root", "<?xml version=\"1.0\"?>\n<!-- x -->\(String(repeating: " ", count: 300))<rss/>", false),
            ("an error after text names its line", open + "<d>\(escaped)</d>\n<e>&nbsp;</e>" + close, true),
        ]
        for (name, document, expected) in cases {
            var bytes = Array(document.utf8)
            if name == "invalid UTF-8 inside" {  // U+FFFF is no XML character; a lone continuation byte is no UTF-8
                bytes = Array(document.replacingOccurrences(of: "\u{FFFF}", with: "").utf8)
                bytes.insert(0xBF, at: bytes.count - close.utf8.count - 8)
            }
            let handedOver = Self.expectSame(bytes, name, chunks: [1 << 20, 64, 301])
            #expect((handedOver > 0) == expected, "\(name): \(handedOver) handed over")
        }
        // The error line after a handed-over section is the document's.
        let document = open + "<d><![CDATA[\(notes)]]></d>\n<e>&nbsp;</e>" + close
        let (reading, handedOver) = Self.read(Array(document.utf8), chunk: 1 << 20, handingOver: true)
        #expect(handedOver == 1)
        #expect(reading.firstLine == 3 + notes.filter { $0 == "\n" }.count + 1, "\(String(describing: reading.first))")
    }
}
