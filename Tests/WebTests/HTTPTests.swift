import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

@Suite("HTTP on a live server", .serialized)
struct HTTPTests {
    @Test("GET / is the page with the library already in it, and hostile feed text is escaped")
    func firstPaint() async throws {
        try await ServerHarness.with { h in
            let response = try await h.http("/")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/html; charset=utf-8")
            #expect(response.text.contains("First tone"))
            #expect(response.text.contains("Second tone"))
            #expect(!response.text.contains("<b>&amp; friends</b>"), "feed markup must not reach the page as markup")
            #expect(response.text.contains("Test Tones &lt;b&gt;&amp;amp; friends&lt;/b&gt;"), "…it is shown as text")
            #expect(response.headers["content-security-policy"]?.contains("script-src 'self'") == true)
            // The client's routes render the same page.
            #expect(try await h.http("/episode/\(h.episodes[0].id)").status == 200)
            #expect(try await h.http("/player").status == 200)
            #expect(try await h.http("/queue").status == 200)
            #expect(try await h.http("/episode/notanumber").status == 404)
        }
    }

    @Test("static files: MIME type, ETag and 304, Cache-Control")
    func staticFiles() async throws {
        try await ServerHarness.with { h in
            let js = try await h.http("/js/app.js")
            #expect(js.status == 200)
            #expect(js.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(js.headers["cache-control"] == "no-cache")
            let etag = try #require(js.headers["etag"])
            let again = try await h.http("/js/app.js", headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            let audio = try await h.http("/demo/feed.xml")
            #expect(audio.status == 200)
            #expect(audio.headers["content-type"] == "application/xml; charset=utf-8")
            #expect(try await h.http("/media/keepalive.mp3").headers["content-type"] == "audio/mpeg")
            #expect(try await h.http("/no/such/file.css").status == 404)
            // HEAD: the same headers, no body — the next response on the connection stays readable.
            let head = try await h.http("/js/app.js", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == "\(js.body.count)")
            #expect(head.body.isEmpty)
        }
    }

    @Test("no way out of Public/", arguments: [
        "/../Package.swift", "/%2e%2e/Package.swift", "/demo/../../Package.swift", "/..%2fPackage.swift",
        "/%2e%2e%2f%2e%2e%2fetc/passwd", "/js/../../Sources/Web/StaticFiles.swift", "/.git/config", "//etc/passwd",
    ])
    func traversal(path: String) async throws {
        try await ServerHarness.with { h in
            let response = try await h.http(path)
            #expect(response.status == 404 || response.status == 403 || response.status == 400, "\(path): \(response.status)")
            #expect(!response.text.contains("PackageDescription"))
            #expect(!response.text.contains("root:"))
            #expect(!response.text.contains("[core]"))
            #expect(!response.text.contains("struct StaticFiles"))
        }
    }

    @Test("JSON API: podcasts, a podcast's episodes, one episode, state; 404s")
    func api() async throws {
        try await ServerHarness.with { h in
            let podcasts = try #require(try await h.json("/api/podcasts")["podcasts"] as? [[String: Any]])
            #expect(podcasts.count == 1)
            #expect(podcasts[0]["title"] as? String == "Test Tones <b>&amp; friends</b>")
            #expect(podcasts[0]["episodeCount"] as? Int == 2)

            let list = try await h.json("/api/podcasts/\(h.podcast.id)/episodes")
            let episodes = try #require(list["episodes"] as? [[String: Any]])
            #expect(episodes.map { $0["title"] as? String } == ["First tone", "Second tone"])
            #expect(episodes[0]["duration"] as? Double == 60)
            #expect(episodes[0]["published"] as? Double == 1_780_000_000)

            let one = try #require(try await h.json("/api/episodes/\(h.episodes[0].id)")["episode"] as? [String: Any])
            #expect(one["title"] as? String == "First tone")
            #expect(one["podcast"] as? String == "Test Tones <b>&amp; friends</b>")

            let recent = try #require(try await h.json("/api/episodes?limit=1")["episodes"] as? [[String: Any]])
            #expect(recent.count == 1)

            let state = try await h.json("/api/state")
            #expect(state["type"] as? String == "state")
            #expect(state["episode"] is NSNull)

            #expect(try await h.http("/api/episodes/99999").status == 404)
            #expect(try await h.http("/api/podcasts/99999/episodes").status == 404)
            #expect(try await h.http("/api/nothing").status == 404)
            #expect(try await h.http("/api/podcasts", method: "DELETE").status == 405)
        }
    }

    @Test("Host must name this server; a foreign Origin may not change state")
    func hostAndOrigin() async throws {
        try await ServerHarness.with { h in
            let (evilHost, socket) = try await RawHTTP.request(port: h.port, path: "/api/podcasts", headers: ["Host": "evil.example:\(h.port)"])
            #expect(evilHost.status == 403)
            #expect(await socket.waitForClose(), "the connection stays open after a refused Host")
            #expect(try await h.http("/", headers: ["Host": "localhost:\(h.port)"]).status == 200)
            #expect(try await h.http("/", headers: ["Host": "127.0.0.1:\(h.port + 1)"]).status == 403)

            // A live feed: a refused request must not be carried out after its 403.
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            let audio = fixture.url("/a.wav")
            fixture.set("/feed.xml", body: SubscriptionTests.feed(audioURL: audio))
            let body = Data(#"{"url":"\#(fixture.url("/feed.xml").absoluteString)"}"#.utf8)
            for headers in [["Origin": "http://evil.example"], ["Host": "evil.example:\(h.port)"],
                            ["Origin": "http://127.0.0.1:\(h.port + 1)"]] {
                let (refused, socket) = try await RawHTTP.request(port: h.port, method: "POST", path: "/api/subscriptions",
                                                                  headers: headers, body: body)
                #expect(refused.status == 403, "\(headers)")
                #expect(await socket.waitForClose())
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(fixture.requests.isEmpty, "a refused request still fetched the feed")
        #expect((try await h.json("/api/podcasts")["podcasts"] as? [[String: Any]])?.count == 1)
        // The same request from our own page is carried out.
        let own = try await h.http("/api/subscriptions", method: "POST", headers: ["Origin": "http://127.0.0.1:\(h.port)", "Content-Type": "application/json"], body: body)
        #expect(own.status == 201)
        #expect((try await h.json("/api/podcasts")["podcasts"] as? [[String: Any]])?.count == 2)
        }
    }
}
