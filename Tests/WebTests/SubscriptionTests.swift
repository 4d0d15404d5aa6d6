import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// Feeds come from a real HTTP server on loopback; the audio they point at too.
@Suite("Subscribing by URL on a live server", .serialized)
struct SubscriptionTests {
    static func feed(audioURL: URL, title: String = "Loopback Radio") -> Data {
        Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
        <channel><title>\(title)</title><itunes:author>Fixture</itunes:author>
        <description><![CDATA[<p>Notes <script>alert(1)</script></p>]]></description>
        <item><title>Tone over HTTP</title><guid>tone-http</guid><pubDate>Tue, 10 Mar 2026 09:00:00 GMT</pubDate>
        <enclosure url="\(audioURL.absoluteString)" length="960044" type="audio/wav"/><itunes:duration>1:00</itunes:duration></item>
        </channel></rss>
        """.utf8)
    }

    @Test("POST /api/subscriptions stores the feed, tells every client, and its episode plays over HTTP")
    func subscribeAndPlay() async throws {
        try await ServerHarness.with { h in
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let audio = try Data(contentsOf: GeneratedAudio.writeWAV(to: dir.file("tone.wav"), seconds: 60))
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            fixture.set("/tone.wav", headers: ["Content-Type": "audio/wav"], body: audio)
            fixture.set("/feed.xml", headers: ["Content-Type": "application/rss+xml"], body: Self.feed(audioURL: fixture.url("/tone.wav")))

            let ws = try await h.socket()
            _ = try await ws.receiveJSON()
            let body = Data(#"{"url":"\#(fixture.url("/feed.xml").absoluteString)"}"#.utf8)
            let response = try await h.http("/api/subscriptions", method: "POST", headers: ["Content-Type": "application/json"], body: body)
            #expect(response.status == 201, "\(response.text)")
            let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let podcast = try #require(json["podcast"] as? [String: Any])
            #expect(podcast["title"] as? String == "Loopback Radio")
            #expect(podcast["feedUrl"] as? String == fixture.url("/feed.xml").absoluteString)
            let library = try await ws.receive { $0["type"] as? String == "library" }
            #expect(library["version"] is Int)

            let podcasts = try #require(try await h.json("/api/podcasts")["podcasts"] as? [[String: Any]])
            #expect(podcasts.count == 2)
            let id = try #require(podcast["id"] as? Int)
            let episodes = try #require(try await h.json("/api/podcasts/\(id)/episodes")["episodes"] as? [[String: Any]])
            let episode = try #require(episodes.first)
            #expect(episode["duration"] as? Double == 60)
            #expect(episode["url"] as? String == fixture.url("/tone.wav").absoluteString)

            try await ws.send(#"{"id":1,"cmd":"play","episode":\#(episode["id"] as! Int)}"#)
            _ = try await ws.receive { $0["type"] as? String == "ack" }
            let moving = try await ws.receive(timeout: 8) { $0["type"] as? String == "time" && ($0["position"] as? Double ?? 0) > 1 }
            #expect(moving["paused"] as? Bool == false)
            #expect(fixture.requests.contains { $0.target == "/tone.wav" }, "mpv fetched the audio from the feed's server")
        }
    }

    @Test("a dead URL, a 404 and a page that is not a feed are clear errors, and the library is unchanged")
    func badFeeds() async throws {
        try await ServerHarness.with { h in
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            fixture.set("/page.html", headers: ["Content-Type": "text/html"], body: Data("<html><body><h1>Hello</h1></body></html>".utf8))
            let cases: [(String, Int, String)] = [
                (#"{"url":"http://127.0.0.1:9/feed.xml"}"#, 502, "Could not reach http://127.0.0.1:9/feed.xml"),
                (#"{"url":"\#(fixture.url("/missing.xml").absoluteString)"}"#, 502, "404"),
                (#"{"url":"\#(fixture.url("/page.html").absoluteString)"}"#, 502, "is not a podcast feed"),
                (#"{"url":"ftp://example.org/feed.xml"}"#, 400, "not a feed address"),
                (#"{"url":""}"#, 400, "not a feed address"),
                (#"{"address":"x"}"#, 400, "send {\"url\""),
                ("not json", 400, "send {\"url\""),
            ]
            for (body, status, fragment) in cases {
                let response = try await h.http("/api/subscriptions", method: "POST", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                #expect(response.status == status, "\(body) → \(response.status) \(response.text)")
                let message = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String
                #expect(message?.contains(fragment) == true, "\(body) → \(message ?? response.text)")
            }
            let podcasts = try #require(try await h.json("/api/podcasts")["podcasts"] as? [[String: Any]])
            #expect(podcasts.count == 1)
        }
    }
}
