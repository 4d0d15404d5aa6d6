import EarshotCore
import Feeds
import Foundation
import Library
import Mustache
import TestSupport
import Testing
@testable import Web

/// `OPMLImport` and `OPMLExport` on their own, as `earshot import` and `earshot export` use them: a library
/// file and feeds on a loopback HTTP server, no Earshot server running.
@Suite("OPML import and export without a server", .serialized)
struct OPMLImportTests {
    /// A minimal podcast feed called `title`.
    static func feed(_ title: String, link: String? = nil) -> Data {
        func escaped(_ s: String) -> String { s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;") }
        return Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>\(escaped(title))</title>\(link.map { "<link>\(escaped($0))</link>" } ?? "")
        <item><title>Episode of \(escaped(title))</title><guid>\(escaped(title))-1</guid>
        <enclosure url="http://127.0.0.1:9/episode.mp3" length="1000" type="audio/mpeg"/></item>
        </channel></rss>
        """.utf8)
    }

    static func opml(_ urls: [String]) -> Data {
        Data(("<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>t</title></head><body>\n"
            + urls.map { "<outline type=\"rss\" text=\"x\" xmlUrl=\"\($0.replacingOccurrences(of: "&", with: "&amp;"))\"/>\n" }.joined()
            + "</body></opml>").utf8)
    }

    @Test("imports into a library file: outcomes reported one by one, existing feeds not fetched again; export reads it back")
    func importThenExport() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fixture = try FixtureHTTPServer()
        defer { fixture.stop() }
        fixture.set("/one.xml", body: Self.feed("One", link: "https://one.example/"))
        fixture.set("/two.xml", body: Self.feed("Two"))
        fixture.set("/page.html", headers: ["Content-Type": "text/html"], body: Data("<html><body>hi</body></html>".utf8))
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        _ = try await store.subscribe(feedURL: fixture.url("/held.xml").absoluteString, content: FeedContent(title: "Held"))
        let importer = OPMLImport(subscriptions: Subscriptions(store: store), store: store)

        let outcomes = Outcomes()
        let host = "127.0.0.1:\(fixture.port)"
        let report = try await importer.run(Self.opml([
            "http://\(host)/one.xml", "http://\(host)/two.xml", "http://\(host)/page.html", "HTTP://\(host)/held.xml",
            "ftp://\(host)/three.xml", "http://\(host)/one.xml",
        ]), progress: { outcomes.append($0) })
        #expect(report.found == 5)
        #expect(report.added.map(\.title) == ["One", "Two"])
        #expect(report.existing == 1)
        #expect(report.failed.map(\.url) == ["ftp://\(host)/three.xml", "http://\(host)/page.html"])
        #expect(report.failed.first?.error.contains("not an http or https address") == true, "\(report.failed)")
        #expect(report.failed.last?.error.contains("not a podcast feed") == true, "\(report.failed)")
        #expect(outcomes.count == 5)
        #expect(!fixture.requests.contains { $0.target == "/held.xml" }, "a feed already held is not fetched")
        #expect(fixture.requests.filter { $0.target == "/one.xml" }.count == 1, "a duplicate is fetched once")

        let podcasts = try await store.podcasts()
        #expect(Set(podcasts.map(\.title)) == ["Held", "One", "Two"])

        let templates = try MustacheLibrary(directory: ServerHarness.repository.appendingPathComponent("Templates"))
        let exported = try OPMLParser.parse(Data(try await OPMLExport.library(store, templates: templates).utf8))
        #expect(Set(exported.feeds.map(\.url)) == Set(podcasts.map(\.feedURL)))
        #expect(exported.feeds.first { $0.title == "One" }?.htmlURL == "https://one.example/")

        // Importing the export again adds nothing (the CLI's way in: templates by directory).
        let cliExport = try await OPMLExport.library(store, templatesDirectory: ServerHarness.repository.appendingPathComponent("Templates"))
        let again = try await importer.run(Data(cliExport.utf8))
        #expect(again.found == 3 && again.existing == 3 && again.added.isEmpty && again.failed.isEmpty)
    }

    @Test("a broken file throws before anything is fetched or stored")
    func brokenFile() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fixture = try FixtureHTTPServer()
        defer { fixture.stop() }
        fixture.set("/one.xml", body: Self.feed("One"))
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let importer = OPMLImport(subscriptions: Subscriptions(store: store), store: store)
        var truncated = Self.opml([fixture.url("/one.xml").absoluteString])
        truncated.removeLast(10)
        await #expect(throws: OPMLError.self) { try await importer.run(truncated) }
        #expect(fixture.requests.isEmpty)
        #expect(try await store.podcasts().isEmpty)
    }

    @Test("at most four feeds are fetched at once; added ones are reported in the file's order")
    func boundedConcurrency() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fixture = try FixtureHTTPServer()
        defer { fixture.stop() }
        // Each feed is a little over 64 KiB and the fixture pauses 1.5 s after its first 64 KiB: a fetch
        // holds its connection long enough to see how many run side by side.
        let padding = "<!--" + String(repeating: "padding ", count: 9_000) + "-->"
        for n in 1...10 {
            var body = Self.feed("Slow \(n)")
            body.append(Data(padding.utf8))
            fixture.set("/slow\(n).xml", FixtureHTTPServer.Response(body: body, chunkDelay: 1.5))
        }
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let importer = OPMLImport(subscriptions: Subscriptions(store: store), store: store)
        let file = Self.opml((1...10).map { fixture.url("/slow\($0).xml").absoluteString })
        async let running = importer.run(file)

        let deadline = Date().addingTimeInterval(10)
        while fixture.requests.count < OPMLImport.concurrency, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(fixture.requests.count == OPMLImport.concurrency, "requests in flight before the first answer ends")

        let report = try await running
        #expect(fixture.requests.count == 10)
        #expect(report.added.map(\.title) == (1...10).map { "Slow \($0)" })
    }
}

/// Collects progress callbacks (which arrive one at a time, from the importing task).
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [OPMLImport.Outcome] = []
    func append(_ outcome: OPMLImport.Outcome) { lock.lock(); items.append(outcome); lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return items.count }
}
