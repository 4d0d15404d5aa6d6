import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// `GET /api/directory/search` on a live server, with the directories played by a loopback
/// fixture server answering in their documented shapes.
@Suite("Directory search on a live server", .serialized)
struct DirectorySearchTests {
    static let iTunesAnswer = #"""
    {"resultCount": 2, "results": [
      {"wrapperType": "track", "kind": "podcast", "artistName": "Jupiter Broadcasting", "collectionName": "LINUX Unplugged",
       "feedUrl": "https://feeds.fireside.fm/linuxunplugged/rss", "artworkUrl600": "https://is1-ssl.mzstatic.com/a/600x600bb.jpg",
       "trackCount": 300, "genres": ["Technology", "Podcasts"]},
      {"wrapperType": "track", "kind": "podcast", "artistName": "Harness", "collectionName": "Test Tones",
       "feedUrl": "http://127.0.0.1/test.xml", "trackCount": 2, "genres": ["Music"]}
    ]}
    """#
    static let podcastIndexAnswer = #"""
    {"status": "true", "feeds": [{"id": 1, "title": "Linux Voice", "url": "https://example.org/lv.rss", "author": "LV",
     "image": "https://example.org/lv.jpg", "artwork": "", "episodeCount": 7, "categories": {"102": "Technology"}}],
     "count": 1, "query": "linux", "description": "Found matching feeds."}
    """#

    static func body(_ response: RawHTTP.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)")
    }

    @Test("iTunes: the term goes to {base}/search, results come back marked subscribed where the library has the feed")
    func iTunes() async throws {
        let directory = try FixtureHTTPServer()
        defer { directory.stop() }
        directory.set("/search", body: Data(Self.iTunesAnswer.utf8))
        let timeout: TimeInterval = 2  // the server's is 8 s; a test need not wait that long for silence
        try await ServerHarness.with(configure: {
            $0.directoryBaseURLs[.itunes] = directory.baseURL.absoluteString
            $0.directoryTimeout = timeout
        }) { h in
            let response = try await h.http("/api/directory/search?q=linux%20unplugged")
            #expect(response.status == 200, "\(response.text)")
            let results = try #require(try Self.body(response)["results"] as? [[String: Any]])
            #expect(results.map { $0["title"] as? String } == ["LINUX Unplugged", "Test Tones"])
            #expect(results[0]["feedUrl"] as? String == "https://feeds.fireside.fm/linuxunplugged/rss")
            #expect(results[0]["artwork"] as? String == "https://is1-ssl.mzstatic.com/a/600x600bb.jpg")
            #expect(results[0]["episodeCount"] as? Int == 300 && results[0]["genres"] as? [String] == ["Technology"])
            #expect(results.map { $0["subscribed"] as? Bool } == [false, true], "the harness's own feed is subscribed")
            let asked = try #require(directory.requests.last)
            #expect(asked.target == "/search?media=podcast&entity=podcast&limit=30&term=linux%20unplugged")
            #expect(asked.header("user-agent")?.hasPrefix("Earshot/") == true)
            #expect(asked.header("x-auth-key") == nil, "nothing of Podcast Index goes to Apple")
        }
    }

    @Test("Podcast Index: signed with the server's key and secret; without them 409")
    func podcastIndex() async throws {
        let directory = try FixtureHTTPServer()
        defer { directory.stop() }
        directory.set("/api/1.0/search/byterm", body: Data(Self.podcastIndexAnswer.utf8))
        let credentials = PodcastIndexCredentials(key: "KEY123", secret: "SECRET456")
        try await ServerHarness.with(configure: {
            $0.directoryBaseURLs[.podcastindex] = directory.baseURL.absoluteString
            $0.podcastIndexCredentials = credentials
        }) { h in
            let before = Int64(Date().timeIntervalSince1970)
            let response = try await h.http("/api/directory/search?q=linux&provider=podcastindex")
            #expect(response.status == 200, "\(response.text)")
            #expect(!response.text.contains("SECRET456") && !response.text.contains("KEY123"), "the key stays on the server")
            let results = try #require(try Self.body(response)["results"] as? [[String: Any]])
            #expect(results.map { $0["title"] as? String } == ["Linux Voice"] && results[0]["genres"] as? [String] == ["Technology"])
            let asked = try #require(directory.requests.last)
            #expect(asked.target == "/api/1.0/search/byterm?max=30&q=linux")
            let date = try #require(asked.header("x-auth-date").flatMap { Int64($0) })
            #expect(date >= before && date <= before + 10)
            #expect(asked.header("x-auth-key") == "KEY123")
            #expect(asked.header("authorization") == SHA1.hex("KEY123SECRET456\(date)"))
        }
        try await ServerHarness.with { h in
            let response = try await h.http("/api/directory/search?q=linux&provider=podcastindex")
            #expect(response.status == 409)
            #expect(try Self.body(response)["error"] as? String == "Podcast Index needs an API key and secret: enter them in the directory settings (or set EARSHOT_PODCASTINDEX_KEY and EARSHOT_PODCASTINDEX_SECRET)")
        }
    }

    @Test("a directory that is down, wrong, unreachable or silent: 502 with a clear message; bad searches 400")
    func faults() async throws {
        let directory = try FixtureHTTPServer()
        defer { directory.stop() }
        let timeout: TimeInterval = 2  // the server's is 8 s; a test need not wait that long for silence
        try await ServerHarness.with(configure: {
            $0.directoryBaseURLs[.itunes] = directory.baseURL.absoluteString
            $0.directoryTimeout = timeout
        }) { h in
            directory.set("/search", status: 503, body: Data("busy".utf8))
            var response = try await h.http("/api/directory/search?q=linux")
            #expect(response.status == 502)
            #expect((try Self.body(response)["error"] as? String)?.hasPrefix("The iTunes directory could not be searched: ") == true, "\(response.text)")
            directory.set("/search", body: Data("<html>maintenance</html>".utf8))
            response = try await h.http("/api/directory/search?q=linux")
            #expect(response.status == 502)
            #expect(try Self.body(response)["error"] as? String == "The iTunes directory answered with something that is not its search results")
            directory.set("/search", FixtureHTTPServer.Response(body: Data(Self.iTunesAnswer.utf8), chunkDelay: 10, chunkSize: 16))
            let started = Date()
            response = try await RawHTTP.request(port: h.port, path: "/api/directory/search?q=linux", timeout: 15).0
            #expect(response.status == 502, "\(response.text)")
            let waited = Date().timeIntervalSince(started)
            #expect(waited >= timeout - 0.1 && waited < timeout + 1.5, "given up after \(timeout) s of silence, not \(waited) s")
            for bad in ["", "?q=", "?q=%20%20", "?q=\(String(repeating: "a", count: 201))", "?q=x&provider=gpodder"] {
                #expect(try await h.http("/api/directory/search\(bad)").status == 400, "\(bad)")
            }
            // The library still answers: nothing else broke.
            #expect(try await h.http("/api/podcasts").status == 200)
        }
        try await ServerHarness.with(configure: { $0.directoryBaseURLs[.itunes] = "http://127.0.0.1:9" }) { h in
            let response = try await h.http("/api/directory/search?q=linux")
            #expect(response.status == 502)
            #expect((try Self.body(response)["error"] as? String)?.hasPrefix("The iTunes directory could not be searched: ") == true)
        }
    }
}
