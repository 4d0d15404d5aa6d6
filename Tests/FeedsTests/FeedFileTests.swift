import EarshotCore
import Foundation
import Testing
import TestSupport
@testable import Feeds

/// `FeedParser.parse(contentsOf:)` reads a file a chunk at a time: it must give exactly what parsing the
/// file's bytes in memory gives, on every real feed and every encoding sample, and fail the same way.
@Suite struct FeedFileTests {
    static let feeds = Conformance.folder("feeds")

    static var samples: [URL] {
        let encoding = feeds.appendingPathComponent("encoding")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: feeds.path)) ?? []
        let encodings = (try? FileManager.default.contentsOfDirectory(atPath: encoding.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") || $0.hasSuffix(".rss") }.sorted().map { feeds.appendingPathComponent($0) }
            + encodings.filter { !$0.hasSuffix(".md") }.sorted().map { encoding.appendingPathComponent($0) }
    }

    @Test func givesWhatParsingTheBytesGives() async throws {
        let files = Self.samples
        #expect(files.count >= 15)
        try await HeavyWork.run {
            for file in files {
                let data = try Data(contentsOf: file)
                let inMemory = Result { try FeedParser.parse(data, baseURL: file, keepingItemsWithoutEnclosure: true) }
                let streamed = Result { try FeedParser.parse(contentsOf: file, keepingItemsWithoutEnclosure: true) }
                switch (inMemory, streamed) {
                case (.success(let a), .success(let b)):
                    let same = a == b  // not inside #expect: it would print both whole feeds
                    #expect(same, "\(file.lastPathComponent) parses differently from a file")
                case (.failure(let a as FeedError), .failure(let b as FeedError)):
                    #expect(a == b, "\(file.lastPathComponent)")
                default:
                    Issue.record("\(file.lastPathComponent): \(inMemory) vs \(streamed)")
                }
            }
        }
    }

    /// A feed larger than a chunk (and `FeedTape`'s threshold), whose items straddle chunk ends.
    @Test func readsAFeedOfManyChunks() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("big.xml")
        var xml = "\n\n  <?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss><channel><title>Big</title>\n"
        for index in 0..<3_000 {
            xml += "<item><guid>g\(index)</guid><title>Episode \(index) — ünïcode</title>"
            xml += "<enclosure url=\"https://x.example/\(index).mp3\" type=\"audio/mpeg\"/>"
            xml += "<content:encoded xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><![CDATA[<p>Notes "
            xml += String(repeating: "<b>word</b> &amp; more ", count: 40) + "\(index)</p><script>x()</script>]]></content:encoded></item>\n"
        }
        xml += "</channel></rss>\n"
        try Data(xml.utf8).write(to: file)
        #expect(xml.utf8.count > 3 * XMLEventStream.chunkSize)
        let (streamed, inMemory) = try await HeavyWork.run {
            (try FeedParser.parse(contentsOf: file), try FeedParser.parse(Data(xml.utf8), baseURL: file))
        }
        #expect(streamed == inMemory)
        #expect(streamed.items.count == 3_000)
        #expect(streamed.items[2_999].details.notes.plainText.hasSuffix("more 2999\n"))
        #expect(!streamed.items.contains { $0.details.notes.html.contains("script") })
    }

    /// Lines in a recovery warning count from the file's first line, leading blank lines included.
    @Test func countsLinesFromTheFilesStart() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("broken.xml")
        let xml = "\n\n\n<rss><channel><title>T</title>\n<item><title>A &gtgt; B</title><enclosure url=\"https://x.example/a.mp3\" type=\"audio/mpeg\"/></item></channel></rss>"
        try Data(xml.utf8).write(to: file)
        let content = try FeedParser.parse(contentsOf: file)
        #expect(content.warnings.first?.hasPrefix("line 5: undefined entity &gtgt;") == true, "\(content.warnings)")
        #expect(content == (try FeedParser.parse(Data(xml.utf8), baseURL: file)))
    }

    @Test func failsClearlyOnFilesThatAreNoFeed() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let empty = directory.url.appendingPathComponent("empty.xml")
        try Data("  \n ".utf8).write(to: empty)
        #expect(throws: FeedError.empty) { try FeedParser.parse(contentsOf: empty) }
        let page = directory.url.appendingPathComponent("page.html")
        try Data("<!DOCTYPE html><html><body><p>Not a feed</p></body></html>".utf8).write(to: page)
        #expect(throws: FeedError.notAFeed(rootElement: "html")) { try FeedParser.parse(contentsOf: page) }
        let missing = directory.url.appendingPathComponent("missing.xml")
        #expect { try FeedParser.parse(contentsOf: missing) } throws: { "\($0)".contains("missing.xml") }
    }

    /// The file is opened by its path on disk: spaces, a percent sign and letters outside ASCII in it
    /// are the file's name, not an address's escapes.
    @Test func opensAFileWhateverItsName() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let xml = "<rss><channel><title>Named</title><item><title>A</title><enclosure url=\"https://x.example/a.mp3\"/></item></channel></rss>"
        for name in ["with space.xml", "100%20 percent.xml", "Übersicht – ünïcode.xml"] {
            let file = directory.url.appendingPathComponent(name)
            try Data(xml.utf8).write(to: file)
            #expect(try FeedParser.parse(contentsOf: file).title == "Named", "\(name)")
        }
    }
}
