import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// Chapters from each source on a live server: feeds, chapters files and audio all come from a
/// real loopback HTTP server, mpv plays them for real (`ao=null`).
@Suite("Chapters from the feed, a JSON file and the audio, on a live server", .serialized)
struct ChapterSourcesTests {
    static let samples = ServerHarness.repository.deletingLastPathComponent().appendingPathComponent("shared/conformance/audio")

    /// One item of a test feed: what it names, nothing else.
    struct Item {
        var guid: String
        var audio: URL
        var type = "audio/wav"
        var psc: [(String, String, String)] = [] // start, title, extra attributes
        var json: URL?
    }

    static func feed(_ items: [Item]) -> Data {
        let entries = items.enumerated().map { index, item in
            let psc = item.psc.isEmpty ? "" : "<psc:chapters version=\"1.2\">"
                + item.psc.map { #"<psc:chapter start="\#($0.0)" title="\#($0.1)" \#($0.2)/>"# }.joined() + "</psc:chapters>"
            let json = item.json.map { #"<podcast:chapters url="\#($0.absoluteString)" type="application/json+chapters"/>"# } ?? ""
            return """
                <item><title>\(item.guid)</title><guid>\(item.guid)</guid>
                <pubDate>\(["Tue, 10 Mar 2026", "Mon, 09 Mar 2026", "Sun, 08 Mar 2026", "Sat, 07 Mar 2026"][index % 4]) 09:00:00 GMT</pubDate>
                <enclosure url="\(item.audio.absoluteString)" length="1000" type="\(item.type)"/>\(psc)\(json)</item>
                """
        }.joined(separator: "\n")
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters" xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel><title>Chaptered</title>
            \(entries)
            </channel></rss>
            """.utf8)
    }

    static let chaptersJSON = """
        {"version": "1.2.0", "chapters": [
          {"startTime": 0, "title": "JSON opening", "img": "https://example.com/open.jpg"},
          {"startTime": 15, "title": "Image change only", "toc": false, "img": "https://example.com/x.jpg"},
          {"startTime": 25.5, "title": "JSON middle", "url": "https://example.com/middle"},
          {"startTime": -3, "title": "Clamped to the top? No: a second chapter at 0 is dropped"},
          {"startTime": "50", "title": "a string start is skipped"},
          {"startTime": 50, "title": "JSON end", "img": "javascript:alert(1)"}
        ]}
        """

    /// Subscribes `items` (served by `fixture`) and returns episode ids by guid. The server's own
    /// subscribing code fetches the feed over loopback HTTP; it is called directly rather than
    /// through `POST /api/subscriptions` because the test client's 5 s read timeout is too short for
    /// a first URLSession fetch while every suite of the target starts at once (SubscriptionTests
    /// covers the endpoint).
    static func subscribe(_ h: ServerHarness, _ fixture: FixtureHTTPServer, _ items: [Item], path: String = "/feed.xml") async throws -> [String: Int64] {
        fixture.set(path, headers: ["Content-Type": "application/rss+xml"], body: feed(items))
        let (podcast, isNew) = try await h.server.subscriptions.add(fixture.url(path).absoluteString)
        #expect(isNew)
        let episodes = try await h.store.episodes(podcastID: podcast.id)
        return Dictionary(uniqueKeysWithValues: episodes.map { ($0.guid, $0.id) })
    }

    static func chapters(_ state: [String: Any]) -> [[String: Any]] { state["chapters"] as? [[String: Any]] ?? [] }
    static func titles(_ state: [String: Any]) -> [String] { chapters(state).compactMap { $0["title"] as? String } }

    /// Plays `episode` paused and waits for a state whose chapter titles are `titles`.
    static func play(_ ws: TestWebSocket, _ episode: Int64, until titles: [String], timeout: Double = 10) async throws -> [String: Any] {
        try await ws.send(#"{"id":"play","cmd":"play","episode":\#(episode)}"#)
        _ = try await ws.receive { $0["type"] as? String == "ack" && $0["id"] as? String == "play" }
        try await ws.send(#"{"id":"pause","cmd":"pause"}"#)
        return try await ws.receive(timeout: timeout) {
            $0["type"] as? String == "state" && ($0["episode"] as? [String: Any])?["id"] as? Int == Int(episode)
                && Self.titles($0) == titles
        }
    }

    func fixtureWithAudio(_ dir: TemporaryDirectory) throws -> FixtureHTTPServer {
        let fixture = try FixtureHTTPServer()
        let tone = try Data(contentsOf: GeneratedAudio.writeWAV(to: dir.file("tone.wav"), seconds: 60))
        fixture.set("/tone.wav", headers: ["Content-Type": "audio/wav"], body: tone)
        for name in ["auphonic.mp3", "mp3chaps-py.mp3"] {
            fixture.set("/\(name)", headers: ["Content-Type": "audio/mpeg"],
                        body: try Data(contentsOf: Self.samples.appendingPathComponent(name)))
        }
        return fixture
    }

    @Test("precedence: JSON over the feed's Podlove chapters over the file's own, each over HTTP")
    func precedence() async throws {
        try await ServerHarness.with { h in
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let fixture = try fixtureWithAudio(dir)
            defer { fixture.stop() }
            fixture.set("/c.json", headers: ["Content-Type": "application/json+chapters"], body: Data(Self.chaptersJSON.utf8))
            let psc = [("00:00:00", "PSC opening", #"href="https://example.com/psc" image="https://example.com/psc.jpg""#),
                       ("00:00:04.5", "PSC second", "")]
            let ids = try await Self.subscribe(h, fixture, [
                Item(guid: "file-only", audio: fixture.url("/auphonic.mp3"), type: "audio/mpeg"),
                Item(guid: "file-and-psc", audio: fixture.url("/mp3chaps-py.mp3"), type: "audio/mpeg", psc: psc),
                Item(guid: "all-three", audio: fixture.url("/auphonic.mp3"), type: "audio/mpeg", psc: psc, json: fixture.url("/c.json")),
            ])
            let ws = try await h.socket()
            _ = try await ws.receiveJSON()

            // The file alone: mpv's chapter-list (ID3 CHAP read from the HTTP stream).
            let file = try await Self.play(ws, try #require(ids["file-only"]), until: ["Chapter 1 - ❤️😊", "Chapter 2 - ßöÄ", "Chapter 3 - 爱", "Chapter 4"])
            #expect(Self.chapters(file).allSatisfy { $0["img"] == nil && $0["url"] == nil })
            #expect(await h.engine.chapterSources.source == .file)

            // Podlove chapters beat the file's (mp3chaps-py.mp3 has four of its own).
            let feed = try await Self.play(ws, try #require(ids["file-and-psc"]), until: ["PSC opening", "PSC second"])
            let feedChapters = Self.chapters(feed)
            #expect(feedChapters.map { $0["start"] as? Double } == [0, 4.5])
            #expect(feedChapters[0]["url"] as? String == "https://example.com/psc")
            #expect(feedChapters[0]["img"] as? String == "https://example.com/psc.jpg")
            try await Task.sleep(for: .milliseconds(500)) // mpv has read the file's chapters by now: still PSC
            #expect(await h.engine.chapterSources.file.count == 4)
            #expect(await h.engine.state.chapters.map(\.title) == ["PSC opening", "PSC second"])

            // JSON beats both; validated (toc:false out, a string start skipped, a second 0 dropped, a javascript: image dropped).
            let json = try await Self.play(ws, try #require(ids["all-three"]), until: ["JSON opening", "JSON middle", "JSON end"])
            let jsonChapters = Self.chapters(json)
            #expect(jsonChapters.map { $0["start"] as? Double } == [0, 25.5, 50])
            #expect(jsonChapters[0]["img"] as? String == "https://example.com/open.jpg")
            #expect(jsonChapters[1]["url"] as? String == "https://example.com/middle")
            #expect(jsonChapters[2]["img"] == nil)
            #expect(await h.engine.chapterSources.source == .json)
            #expect(json["error"] is NSNull)
        }
    }

    @Test("JSON chapters are fetched once and cached in the library: the second play fetches nothing")
    func cached() async throws {
        try await ServerHarness.with { h in
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let fixture = try fixtureWithAudio(dir)
            defer { fixture.stop() }
            fixture.set("/c.json", headers: ["Content-Type": "application/json"], body: Data(Self.chaptersJSON.utf8))
            let ids = try await Self.subscribe(h, fixture, [
                Item(guid: "json", audio: fixture.url("/tone.wav"), json: fixture.url("/c.json")),
                Item(guid: "other", audio: fixture.url("/tone.wav")),
            ])
            let episode = try #require(ids["json"])
            let fetches = { fixture.requests.filter { $0.target == "/c.json" }.count }
            let ws = try await h.socket()
            _ = try await ws.receiveJSON()
            let titles = ["JSON opening", "JSON middle", "JSON end"]
            _ = try await Self.play(ws, episode, until: titles)
            #expect(fetches() == 1)
            #expect(try await h.store.cachedChapters(episodeID: episode, url: fixture.url("/c.json").absoluteString)?.map(\.title) == titles)

            // Another episode, then this one again: from the cache, at once.
            _ = try await Self.play(ws, try #require(ids["other"]), until: [])
            fixture.set("/c.json", status: 500, body: Data()) // a fetch now would fail: the list must come from the cache
            _ = try await Self.play(ws, episode, until: titles)
            try await ws.send(#"{"id":"stop","cmd":"stop"}"#)
            _ = try await ws.receive { $0["type"] as? String == "state" && $0["episode"] is NSNull && Self.titles($0).isEmpty }
            _ = try await Self.play(ws, episode, until: titles)
            try await Task.sleep(for: .milliseconds(300))
            #expect(fetches() == 1, "fetched once per episode")
        }
    }

    @Test("a chapters file that fails (404, not JSON, wrong version, too big) is harmless and tried again next time")
    func failuresAreHarmless() async throws {
        try await ServerHarness.with { h in
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let fixture = try fixtureWithAudio(dir)
            defer { fixture.stop() }
            fixture.set("/bad.json", headers: ["Content-Type": "application/json"], body: Data("<html>nope</html>".utf8))
            fixture.set("/v2.json", headers: ["Content-Type": "application/json"], body: Data(#"{"version":"2.0","chapters":[{"startTime":1}]}"#.utf8))
            fixture.set("/big.json", headers: ["Content-Type": "application/json"],
                        body: Data(repeating: UInt8(ascii: " "), count: PodcastChaptersJSON.maximumBytes + 10))
            let psc = [("00:00:00", "Kept opening", ""), ("00:00:30", "Kept second", "")]
            var items: [Item] = []
            for name in ["missing", "bad", "v2", "big"] {
                items.append(Item(guid: name, audio: fixture.url("/tone.wav"), psc: psc, json: fixture.url("/\(name).json")))
            }
            items.append(Item(guid: "no-psc", audio: fixture.url("/auphonic.mp3"), type: "audio/mpeg", json: fixture.url("/missing.json")))
            let ids = try await Self.subscribe(h, fixture, items)
            let ws = try await h.socket()
            _ = try await ws.receiveJSON()
            for name in ["missing", "bad", "v2", "big"] {
                let id = try #require(ids[name])
                let state = try await Self.play(ws, id, until: ["Kept opening", "Kept second"])
                #expect(state["error"] is NSNull, "\(name)")
                // Wait for the fetch to finish: nothing changes and nothing is cached.
                let target = "/\(name).json"
                for _ in 0..<100 where !fixture.requests.contains(where: { $0.target == target }) {
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await Task.sleep(for: .milliseconds(300))
                #expect(await h.engine.state.chapters.map(\.title) == ["Kept opening", "Kept second"], "\(name)")
                #expect(await h.engine.state.error == nil, "\(name)")
                #expect(try await h.store.cachedChapters(episodeID: id, url: fixture.url(target).absoluteString) == nil, "\(name)")
            }
            // Without Podlove chapters the file's own show; the failed address is tried again on the next play.
            let before = fixture.requests.filter { $0.target == "/missing.json" }.count
            _ = try await Self.play(ws, try #require(ids["no-psc"]), until: ["Chapter 1 - ❤️😊", "Chapter 2 - ßöÄ", "Chapter 3 - 爱", "Chapter 4"])
            for _ in 0..<100 where fixture.requests.filter({ $0.target == "/missing.json" }).count == before {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(fixture.requests.filter { $0.target == "/missing.json" }.count == before + 1)
        }
    }
}
