import EarshotCore
import Feeds
import Foundation
import TestSupport
import Testing
@testable import Web

/// `POST /api/opml` and `GET /api/opml` on a live server, with feeds on a loopback HTTP server.
@Suite("OPML over HTTP on a live server", .serialized)
struct OPMLServerTests {
    static func podcasts(_ h: ServerHarness) async throws -> [[String: Any]] {
        try #require(try await h.json("/api/podcasts")["podcasts"] as? [[String: Any]])
    }

    @Test("POST /api/opml: two feeds added, a 404 failed with its reason, a duplicate once; every client told")
    func importFile() async throws {
        try await ServerHarness.with { h in
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            fixture.set("/alpha.xml", headers: ["Content-Type": "application/rss+xml"], body: OPMLImportTests.feed("Alpha & Co"))
            fixture.set("/beta.xml", headers: ["Content-Type": "application/rss+xml"], body: OPMLImportTests.feed("Beta"))
            let host = "127.0.0.1:\(fixture.port)"
            let file = """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="1.0"><head><title>From another app</title></head><body>
                <outline text="Podcasts">
                  <outline type="rss" text="Alpha" xmlUrl="http://\(host)/alpha.xml"/>
                  <outline type="rss" text="Gone" xmlUrl="http://\(host)/missing.xml"/>
                </outline>
                <outline type="rss" text="Beta" xmlURL="http://\(host)/beta.xml"/>
                <outline type="rss" text="Alpha again" xmlUrl="  HTTP://\(host)/alpha.xml "/>
                </body></opml>
                """
            let ws = try await h.socket()
            _ = try await ws.receiveJSON()
            let response = try await h.http("/api/opml", method: "POST", headers: ["Content-Type": "text/x-opml"], body: Data(file.utf8))
            #expect(response.status == 200, "\(response.text)")
            let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(json["found"] as? Int == 3)
            #expect(json["existing"] as? Int == 0)
            let added = try #require(json["added"] as? [[String: Any]])
            #expect(added.map { $0["title"] as? String } == ["Alpha & Co", "Beta"])
            #expect(added.map { $0["feedUrl"] as? String } == ["http://\(host)/alpha.xml", "http://\(host)/beta.xml"])
            #expect(added.allSatisfy { $0["id"] is Int })
            let failed = try #require(json["failed"] as? [[String: Any]])
            #expect(failed.count == 1)
            #expect(failed.first?["url"] as? String == "http://\(host)/missing.xml")
            #expect((failed.first?["error"] as? String)?.contains("404") == true, "\(failed)")
            _ = try await ws.receive { $0["type"] as? String == "library" }

            let titles = try await Self.podcasts(h).compactMap { $0["title"] as? String }
            #expect(Set(titles) == [h.podcast.title, "Alpha & Co", "Beta"])
            #expect(fixture.requests.filter { $0.target == "/alpha.xml" }.count == 1)

            // The same file again: everything it names is already there or still missing.
            let again = try await h.http("/api/opml", method: "POST", body: Data(file.utf8))
            let second = try #require(try JSONSerialization.jsonObject(with: again.body) as? [String: Any])
            #expect(second["existing"] as? Int == 2)
            #expect((second["added"] as? [Any])?.isEmpty == true)
            #expect((second["failed"] as? [Any])?.count == 1)
        }
    }

    @Test("POST /api/opml with files that are not OPML: 400 with a reason, nothing fetched, the library unchanged")
    func junk() async throws {
        try await ServerHarness.with { h in
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            fixture.set("/alpha.xml", body: OPMLImportTests.feed("Alpha"))
            let url = fixture.url("/alpha.xml").absoluteString
            let cases: [(String, String)] = [
                ("", "empty"),
                ("this is not xml at all", "not well-formed XML"),
                ("<!DOCTYPE html><html><head><meta charset=utf-8></head><body><a href=\"\(url)\">feed</a></body></html>", "<html>"),
                ("<opml version=\"2.0\"><body><outline xmlUrl=\"\(url)\"/></body>", "not well-formed XML"),
                ("<opml version=\"2.0\"><head><title>x</title></head></opml>", "no <body>"),
                ("<rss><channel><title>A feed, not a list</title></channel></rss>", "<rss>"),
            ]
            for (body, fragment) in cases {
                let response = try await h.http("/api/opml", method: "POST", body: Data(body.utf8))
                #expect(response.status == 400, "\(body) → \(response.status) \(response.text)")
                let message = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String
                #expect(message?.contains(fragment) == true, "\(body) → \(message ?? response.text)")
            }
            #expect(fixture.requests.isEmpty)
            #expect(try await Self.podcasts(h).count == 1)
        }
    }

    @Test("GET /api/opml downloads the subscriptions as OPML that reads back; HEAD too; other methods 405")
    func export() async throws {
        try await ServerHarness.with { h in
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            fixture.set("/alpha.xml", body: OPMLImportTests.feed("Alpha", link: "https://alpha.example/?a=1&b=2"))
            let added = try await h.server.subscriptions.subscribe(fixture.url("/alpha.xml").absoluteString)

            let response = try await h.http("/api/opml")
            #expect(response.status == 200, "\(response.text)")
            #expect(response.headers["content-type"] == "text/x-opml; charset=utf-8")
            #expect(response.headers["content-disposition"] == "attachment; filename=\"earshot-subscriptions.opml\"")
            #expect(response.headers["content-security-policy"] != nil)
            let document = try OPMLParser.parse(response.body)
            #expect(document.feeds == [
                OPMLFeed(url: added.feedURL, title: "Alpha", htmlURL: "https://alpha.example/?a=1&b=2"),
                OPMLFeed(url: h.podcast.feedURL, title: h.podcast.title),
            ])
            let lint = try await OPMLExportTests.xmllint(response.text)
            #expect(lint == nil || lint == "", "xmllint: \(lint ?? "")")

            let head = try await h.http("/api/opml", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.headers["content-type"] == "text/x-opml; charset=utf-8")
            let delete = try await h.http("/api/opml", method: "DELETE")
            #expect(delete.status == 405)
        }
    }
}
