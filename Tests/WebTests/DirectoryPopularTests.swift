import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// `GET /api/directory/popular`, `/api/directory/settings` and result artwork on a live server,
/// the directories played by a loopback fixture server in their documented shapes.
@Suite("Directory: popular, settings, artwork on a live server", .serialized)
struct DirectoryPopularTests {
    /// iTunes' legacy top-podcasts chart: names podcasts by id (`im:id`), no feed addresses.
    static let chart = #"""
    {"feed": {"author": {"name": {"label": "iTunes Store"}}, "entry": [
      {"im:name": {"label": "Second Show"}, "im:artist": {"label": "B"}, "id": {"label": "https://podcasts.apple.com/us/podcast/id222", "attributes": {"im:id": "222"}}},
      {"im:name": {"label": "First Show"}, "im:artist": {"label": "A"}, "id": {"label": "https://podcasts.apple.com/us/podcast/id111", "attributes": {"im:id": "111"}}},
      {"im:name": {"label": "Gone"}, "id": {"label": "x", "attributes": {"im:id": "333"}}}
    ]}}
    """#
    /// The lookup answers in its own order and leaves 333 out (it happens: a chart is cached longer).
    static let lookup = #"""
    {"resultCount": 2, "results": [
      {"wrapperType": "track", "kind": "podcast", "collectionId": 111, "collectionName": "First Show", "artistName": "A",
       "feedUrl": "http://127.0.0.1/test.xml", "trackCount": 5, "genres": ["News", "Podcasts"]},
      {"wrapperType": "track", "kind": "podcast", "collectionId": 222, "collectionName": "Second Show", "artistName": "B",
       "feedUrl": "https://example.org/second.rss", "artworkUrl600": "https://example.org/second.jpg", "trackCount": 9, "genres": ["Comedy"]}
    ]}
    """#
    static let trending = #"""
    {"status": "true", "feeds": [
      {"id": 920666, "url": "https://example.org/trend.xml", "title": "Trending One", "description": "d", "author": "T",
       "image": "https://example.org/t.jpg", "artwork": "https://example.org/t-art.jpg", "newestItemPublishTime": 1700000000,
       "itunesId": 5, "trendScore": 9, "language": "en", "categories": {"102": "Technology", "9": "Business"}}
    ], "count": 1, "max": "30", "since": null, "description": "Found matching feeds"}
    """#

    static func object(_ response: RawHTTP.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)")
    }

    /// The response's JSON is `expected` (key order aside).
    static func same(_ response: RawHTTP.Response, _ expected: String) -> Bool {
        guard let got = try? JSONSerialization.jsonObject(with: response.body) as? NSDictionary,
              let want = try? JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary else { return false }
        return got == want
    }

    static func json(_ object: [String: String]) -> Data { try! JSONSerialization.data(withJSONObject: object) }

    @Test("iTunes popular: the chart, then one lookup for the feeds, in the chart's order")
    func iTunesPopular() async throws {
        let directory = try FixtureHTTPServer()
        defer { directory.stop() }
        directory.set("/us/rss/toppodcasts/limit=30/explicit=true/json", body: Data(Self.chart.utf8))
        directory.set("/lookup", body: Data(Self.lookup.utf8))
        try await ServerHarness.with(configure: { $0.directoryBaseURLs[.itunes] = directory.baseURL.absoluteString }) { h in
            let response = try await h.http("/api/directory/popular")
            #expect(response.status == 200, "\(response.text)")
            let results = try #require(try Self.object(response)["results"] as? [[String: Any]])
            #expect(results.map { $0["title"] as? String } == ["Second Show", "First Show"], "chart order; 333 had no feed")
            #expect(results.map { $0["subscribed"] as? Bool } == [false, true])
            #expect(results[1]["genres"] as? [String] == ["News"] && results[0]["episodeCount"] as? Int == 9)
            #expect(directory.requests.map(\.target) == ["/us/rss/toppodcasts/limit=30/explicit=true/json",
                                                         "/lookup?entity=podcast&id=222,111,333"])

            // A chart that is not one, a lookup that fails: 502 in words; an empty chart: no results.
            directory.set("/us/rss/toppodcasts/limit=30/explicit=true/json", body: Data(#"{"feed": {"entry": [}}"#.utf8))
            var failed = try await h.http("/api/directory/popular")
            #expect(failed.status == 502)
            #expect(try Self.object(failed)["error"] as? String == "The iTunes directory answered with something that is not its top podcasts chart")
            directory.set("/us/rss/toppodcasts/limit=30/explicit=true/json", body: Data(Self.chart.utf8))
            directory.set("/lookup", status: 500, body: Data("oops".utf8))
            failed = try await h.http("/api/directory/popular")
            #expect(failed.status == 502)
            #expect((try Self.object(failed)["error"] as? String)?.hasPrefix("The iTunes directory could not be asked for popular podcasts: ") == true, "\(failed.text)")
            directory.set("/us/rss/toppodcasts/limit=30/explicit=true/json", body: Data(#"{"feed": {"author": {}}}"#.utf8))
            let empty = try await h.http("/api/directory/popular")
            #expect(empty.status == 200, "\(empty.text)")
            #expect(try (Self.object(empty)["results"] as? [Any])?.isEmpty == true, "\(empty.text)")
        }
    }

    @Test("settings: a saved key switches to Podcast Index, survives a restart, is never sent back; clearing goes back")
    func settings() async throws {
        let directory = try FixtureHTTPServer()
        defer { directory.stop() }
        directory.set("/api/1.0/podcasts/trending", body: Data(Self.trending.utf8))
        directory.set("/api/1.0/search/byterm", body: Data(Self.trending.utf8))
        directory.set("/search", body: Data(#"{"resultCount": 0, "results": []}"#.utf8))
        let configure: (inout ServerConfiguration) -> Void = {
            $0.directoryBaseURLs[.podcastindex] = directory.baseURL.absoluteString
            $0.directoryBaseURLs[.itunes] = directory.baseURL.absoluteString
        }
        let library = TemporaryDirectory()
        defer { library.remove() }
        try await ServerHarness.with(libraryAt: library, configure: configure) { h in
            var response = try await h.http("/api/directory/settings")
            #expect(response.status == 200)
            #expect(Self.same(response, #"{"podcastIndex":{"configured":false,"from":null,"key":null},"provider":"itunes"}"#), "\(response.text)")
            _ = try await h.http("/api/directory/search?q=linux")
            #expect(directory.requests.last?.target.hasPrefix("/search?") == true, "iTunes without a key")

            for (key, secret, message) in [("ABCDEFGH", "", "the Podcast Index secret is missing"),
                                           ("", "s3cret", "the Podcast Index key is missing")] {
                response = try await h.http("/api/directory/settings", method: "PUT", headers: ["Content-Type": "application/json"],
                                            body: Self.json(["podcastIndexKey": key, "podcastIndexSecret": secret]))
                #expect(response.status == 400, "\(response.text)")
                #expect(try Self.object(response)["error"] as? String == message, "\(response.text)")
            }
            response = try await h.http("/api/directory/settings", method: "PUT", headers: ["Content-Type": "text/plain"],
                                        body: Self.json(["podcastIndexKey": "A", "podcastIndexSecret": "B"]))
            #expect(response.status == 415, "a page elsewhere cannot set the key")
            response = try await h.http("/api/directory/settings", method: "PUT", headers: ["Content-Type": "application/json"],
                                        body: Self.json(["podcastIndexKey": " ABCDEFGH ", "podcastIndexSecret": "s3cret-value"]))
            #expect(response.status == 200, "\(response.text)")
            #expect(Self.same(response, #"{"podcastIndex":{"configured":true,"from":"settings","key":"ABCD…"},"provider":"podcastindex"}"#), "\(response.text)")
            #expect(!response.text.contains("s3cret"))
        }
        try await ServerHarness.with(libraryAt: library, configure: configure) { h in
            let shown = try await h.http("/api/directory/settings")
            #expect(shown.text.contains(#""from":"settings""#), "kept in the library across a restart: \(shown.text)")
            let popular = try await h.http("/api/directory/popular")
            #expect(popular.status == 200, "\(popular.text)")
            #expect(try #require(try Self.object(popular)["results"] as? [[String: Any]]).first?["title"] as? String == "Trending One")
            #expect(!popular.text.contains("s3cret") && !popular.text.contains("ABCDEFGH"))
            let asked = try #require(directory.requests.last)
            #expect(asked.target == "/api/1.0/podcasts/trending?max=30")
            let date = try #require(asked.header("x-auth-date"))
            #expect(asked.header("x-auth-key") == "ABCDEFGH" && asked.header("authorization") == SHA1.hex("ABCDEFGHs3cret-value" + date))
            _ = try await h.http("/api/directory/search?q=linux")
            #expect(directory.requests.last?.target == "/api/1.0/search/byterm?max=30&q=linux", "Podcast Index is the default now")

            let cleared = try await h.http("/api/directory/settings", method: "PUT", headers: ["Content-Type": "application/json"],
                                           body: Self.json(["podcastIndexKey": "", "podcastIndexSecret": ""]))
            #expect(Self.same(cleared, #"{"podcastIndex":{"configured":false,"from":null,"key":null},"provider":"itunes"}"#), "\(cleared.text)")
            #expect(try await h.http("/api/directory/popular?provider=podcastindex").status == 409)
        }
        // The environment's key shows as such, and a saved one takes its place while it is saved.
        try await ServerHarness.with(configure: {
            configure(&$0)
            $0.podcastIndexCredentials = PodcastIndexCredentials(key: "ENVKEY99", secret: "envsecret")
        }) { h in
            let shown = try await h.http("/api/directory/settings")
            #expect(Self.same(shown, #"{"podcastIndex":{"configured":true,"from":"environment","key":"ENVK…"},"provider":"podcastindex"}"#), "\(shown.text)")
        }
    }

    @Test("result artwork goes through the artwork cache; addresses no result named are not fetched")
    func resultArtwork() async throws {
        let directory = try FixtureHTTPServer()
        defer { directory.stop() }
        let cover = directory.url("/cover.bmp").absoluteString
        directory.set("/cover.bmp", .init(headers: ["Content-Type": "image/bmp"], body: GeneratedImage.bmp(width: 600, height: 600)))
        directory.set("/search", body: try JSONSerialization.data(withJSONObject: ["resultCount": 1, "results": [
            ["collectionName": "Pictured", "artistName": "P", "feedUrl": "https://example.org/p.rss", "artworkUrl600": cover]]]))
        try await ServerHarness.with(configure: { $0.directoryBaseURLs[.itunes] = directory.baseURL.absoluteString }) { h in
            let key = try #require(ArtworkAddress.key(for: cover))
            #expect(try await h.http("/artwork/\(key)/96.jpg").status == 404, "unknown before a search named it")
            #expect(try await h.http("/api/directory/search?q=pictured").status == 200)
            #expect(await h.server.artwork.image(key: key, size: 96) == .image(h.server.artwork.file(key, 96)))
            let image = try await h.http("/artwork/\(key)/96.jpg")
            #expect(image.status == 200 && image.headers["content-type"] == "image/jpeg", "\(image.status)")
            #expect(image.body.starts(with: [0xFF, 0xD8, 0xFF]))
        }
    }
}
