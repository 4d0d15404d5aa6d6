import EarshotCore
import Foundation
import Testing
import TestSupport
@testable import FeedFetching
import Feeds
import HTTPClient

/// Fetching over a real loopback HTTP server (`FixtureHTTPServer`).
@Suite struct FeedFetcherTests {
    static let feed = """
        <?xml version="1.0"?>
        <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Served</title>
        <item><title>One</title><enclosure url="audio/one.mp3" type="audio/mpeg" length="3"/>
        <itunes:duration>0:42</itunes:duration></item></channel></rss>
        """

    @Test func fetchesAndParsesAFeed() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/feed.xml", headers: ["Content-Type": "application/rss+xml", "ETag": "\"v1\"",
                                          "Last-Modified": "Tue, 10 Jun 2003 04:00:00 GMT"], body: Data(Self.feed.utf8))
        let url = server.url("/feed.xml")

        let response = try await FeedFetcher().fetch(url)
        #expect(response.data == Data(Self.feed.utf8))
        #expect(response.finalURL == url)
        #expect(response.etag == "\"v1\"")
        #expect(response.lastModified == "Tue, 10 Jun 2003 04:00:00 GMT")
        #expect(!response.notModified)
        #expect(response.permanentURL == nil)

        let (content, finalURL) = try await FeedFetcher.fetchAndParse(url: url)
        #expect(finalURL == url)
        #expect(content.title == "Served")
        #expect(content.items.map(\.enclosureURL) == [server.url("/audio/one.mp3").absoluteString])
        #expect(content.items.map(\.duration) == [42])
        #expect(server.requests.last?.header("user-agent")?.hasPrefix("Earshot/") == true)
    }

    @Test("a finished fetch lets go of its request and body (a cycle kept every refreshed feed's bytes: +2 MB a refresh in the soak)")
    func nothingOutlivesAFetch() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/feed.xml", body: Data(Self.feed.utf8))
        weak var task: FetchTask?
        do {
            let fetch = FetchTask(url: server.url("/feed.xml"), options: .init(url: server.url("/feed.xml").absoluteString),
                                  maximumBytes: 1 << 20, spoolThreshold: nil)
            task = fetch
            #expect(try await fetch.run().data == Data(Self.feed.utf8))
        }
        #expect(task == nil, "the fetch (and the body it holds) is still referenced after it finished")
    }

    @Test("a body above the spool threshold goes to a temporary file, parsed from there and deleted with the response")
    func spoolsLargeBodies() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/feed.xml", body: Data(Self.feed.utf8))
        let url = server.url("/feed.xml")
        var path: String?
        do {
            let response = try await FeedFetcher(spoolingAbove: 100).fetch(url)
            let spooled = try #require(response.spooled)
            path = spooled.url.path
            #expect(response.data.isEmpty)
            #expect(try Data(contentsOf: spooled.url) == Data(Self.feed.utf8), "every byte, in order")
            #expect(try response.parsed() == FeedParser.parse(Data(Self.feed.utf8), baseURL: url))
        }
        #expect(!FileManager.default.fileExists(atPath: try #require(path)), "the temporary file outlived its response")

        let small = try await FeedFetcher(spoolingAbove: 1 << 20).fetch(url)
        #expect(small.spooled == nil && small.data == Data(Self.feed.utf8), "below the threshold it stays in memory")
        #expect(try await FeedFetcher().fetch(url).spooled == nil, "no threshold: never spooled")
    }

    @Test("a temporary folder that cannot take the body keeps it in memory")
    func spoolFallsBackToMemory() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/feed.xml", body: Data(Self.feed.utf8))
        let previous = ProcessInfo.processInfo.environment["TMPDIR"]
        // Below a file: no folder can be made there, not even by root (a folder at a mere unused path
        // can be, and then outlives the test).
        setenv("TMPDIR", "/dev/null/earshot-no-folder", 1)
        defer { if let previous { setenv("TMPDIR", previous, 1) } else { unsetenv("TMPDIR") } }
        let response = try await FeedFetcher(spoolingAbove: 100).fetch(server.url("/feed.xml"))
        #expect(response.spooled == nil)
        #expect(response.data == Data(Self.feed.utf8))
    }

    @Test func reportsHTTPErrorsWithStatusAndURL() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let url = server.url("/missing.xml")
        await #expect(throws: FeedError.httpStatus(404, url: url.absoluteString)) {
            _ = try await FeedFetcher().fetch(url)
        }
        #expect(FeedError.httpStatus(404, url: url.absoluteString).description == "HTTP 404 from \(url.absoluteString)")
        server.set("/broken", status: 500, body: Data("oops".utf8))
        await #expect(throws: FeedError.httpStatus(500, url: server.url("/broken").absoluteString)) {
            _ = try await FeedFetcher().fetch(server.url("/broken"))
        }
    }

    @Test func reportsADeadPortAsANetworkError() async throws {
        let server = try FixtureHTTPServer()
        let url = server.url("/feed.xml")
        server.stop()
        do {
            _ = try await FeedFetcher(timeout: 5).fetch(url)
            Issue.record("fetched from a stopped server")
        } catch let error as FeedError {
            guard case .network(let failedURL, let reason) = error else {
                Issue.record("expected a network error, got \(error)")
                return
            }
            #expect(failedURL == url.absoluteString)
            #expect(!reason.isEmpty)
        }
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://example.com/feed.xml", "feed.xml", "javascript:alert(1)", "http://"])
    func refusesURLsThatAreNotHTTP(_ text: String) async throws {
        let url = try #require(URL(string: text))
        await #expect(throws: FeedError.invalidURL(url.absoluteString)) { _ = try await FeedFetcher().fetch(url) }
    }

    @Test func refusesBodiesOverTheLimit() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/big.xml", body: Data(repeating: UInt8(ascii: "x"), count: 300_000))
        let url = server.url("/big.xml")
        await #expect(throws: FeedError.tooLarge(url: url.absoluteString, limit: 100_000)) {
            _ = try await FeedFetcher(maximumBytes: 100_000).fetch(url)
        }
        // Without a Content-Length the body is counted as it arrives.
        server.set("/chunked.xml", FixtureHTTPServer.Response(
            headers: ["Content-Length": "999999999"], body: Data(repeating: UInt8(ascii: "x"), count: 10)))
        await #expect(throws: FeedError.tooLarge(url: server.url("/chunked.xml").absoluteString, limit: 100_000)) {
            _ = try await FeedFetcher(maximumBytes: 100_000).fetch(server.url("/chunked.xml"))
        }
        #expect(try await FeedFetcher(maximumBytes: 300_000).fetch(url).data.count == 300_000)
    }

    @Test func sendsValidatorsAndReportsNotModified() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/feed.xml", FixtureHTTPServer.Response(status: 304, headers: ["ETag": "\"v1\""]))
        let response = try await FeedFetcher().fetch(server.url("/feed.xml"), etag: "\"v1\"",
                                                     lastModified: "Tue, 10 Jun 2003 04:00:00 GMT")
        #expect(response.notModified)
        #expect(response.data.isEmpty)
        let request = try #require(server.requests.last)
        #expect(request.header("If-None-Match") == "\"v1\"")
        #expect(request.header("If-Modified-Since") == "Tue, 10 Jun 2003 04:00:00 GMT")
    }

    @Test func followsRedirectsAndNotesPermanentOnes() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/new.xml", body: Data(Self.feed.utf8))
        server.set("/moved", status: 301, headers: ["Location": server.url("/new.xml").absoluteString], body: Data())
        server.set("/temporary", status: 302, headers: ["Location": "/moved"], body: Data())

        let permanent = try await FeedFetcher().fetch(server.url("/moved"))
        #expect(permanent.finalURL == server.url("/new.xml"))
        #expect(permanent.permanentURL == server.url("/new.xml"))

        let mixed = try await FeedFetcher().fetch(server.url("/temporary"))
        #expect(mixed.finalURL == server.url("/new.xml"))
        #expect(mixed.permanentURL == nil)

        server.set("/to-file", status: 301, headers: ["Location": "file:///etc/passwd"], body: Data())
        await #expect(throws: FeedError.self) { _ = try await FeedFetcher().fetch(server.url("/to-file")) }
    }
}
