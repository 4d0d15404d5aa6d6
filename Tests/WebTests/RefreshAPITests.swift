import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// The refresh endpoints and `refresh` messages on a live server.
@Suite("Refresh over HTTP and the socket", .serialized)
struct RefreshAPITests {
    typealias F = RefreshFixtures
    typealias Item = RefreshFixtures.Item

    func post(_ h: ServerHarness, _ path: String, body: String = "") async throws -> (Int, [String: Any]) {
        let response = try await h.http(path, method: "POST", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        let json = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:]
        return (response.status, json)
    }

    @Test("POST /api/refresh: every client hears each start and finish in order, then the end, then library")
    func progressReachesClients() async throws {
        try await ServerHarness.with { h in
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            // The harness's own podcast now points at a feed that is not there: it fails, as part of the run.
            #expect(try await h.store.moveFeed(podcastID: h.podcast.id, to: fixture.url("/missing.xml").absoluteString,
                                               keepingValidators: true))
            for index in 0..<3 {
                fixture.set("/\(index).xml", F.feedResponse(F.rss("Show \(index)", [Item("i\(index)")])))
                let (status, _) = try await post(h, "/api/subscriptions", body: #"{"url":"\#(fixture.url("/\(index).xml"))"}"#)
                #expect(status == 201)
            }
            let ws = try await h.socket()
            let other = try await h.socket()
            _ = try await ws.receiveJSON(); _ = try await other.receiveJSON()

            let (status, json) = try await post(h, "/api/refresh")
            #expect(status == 202)
            let started = try #require(json["refresh"] as? [String: Any])
            #expect(started["running"] as? Bool == true && started["total"] as? Int == 4)

            for client in [ws, other] {
                var messages: [[String: Any]] = []
                while true {
                    let message = try await client.receive { ["refresh", "library"].contains($0["type"] as? String) }
                    if message["type"] as? String == "library" { break }
                    messages.append(message)
                }
                #expect(messages.count == 8, "4 starts + 4 finishes: \(messages)")
                let done = messages.map { $0["done"] as? Int ?? -1 }
                #expect(done == done.sorted() && done.last == 4)
                #expect(messages.allSatisfy { $0["total"] as? Int == 4 && $0["current"] is [String] })
                let last = try #require(messages.last)
                #expect(last["running"] as? Bool == false && last["failed"] as? Int == 1)
                #expect((last["current"] as? [String]) == [])
                #expect(messages.dropLast().allSatisfy { $0["running"] as? Bool == true })
            }

            let now = try await h.json("/api/refresh")["refresh"] as? [String: Any]
            #expect(now?["running"] as? Bool == false && now?["done"] as? Int == 4 && now?["failed"] as? Int == 1)
            let podcasts = try #require(try await h.json("/api/podcasts")["podcasts"] as? [[String: Any]])
            let broken = try #require(podcasts.first { $0["id"] as? Int == Int(h.podcast.id) })
            #expect(broken["status"] as? String == "gone")
            #expect((broken["error"] as? String)?.contains("/missing.xml answered 404 Not Found") == true)
            for podcast in podcasts where podcast["id"] as? Int != Int(h.podcast.id) {
                #expect(podcast["status"] as? String == "ok" && podcast["error"] is NSNull)
                #expect(podcast["refreshedAt"] is Double && podcast["warnings"] as? [String] == [])
                #expect(podcast["details"] == nil, "lists carry no details")
            }
        }
    }

    @Test("POST /api/podcasts/{id}/refresh refreshes that feed; unknown ids 404; other methods 405")
    func refreshOne() async throws {
        try await ServerHarness.with { h in
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a")])))
            let (_, created) = try await post(h, "/api/subscriptions", body: #"{"url":"\#(fixture.url("/feed.xml"))"}"#)
            let id = try #require((created["podcast"] as? [String: Any])?["id"] as? Int)
            let ws = try await h.socket()
            _ = try await ws.receiveJSON()
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a"), Item("b")])))

            let (status, json) = try await post(h, "/api/podcasts/\(id)/refresh")
            #expect(status == 202)
            #expect((json["refresh"] as? [String: Any])?["total"] as? Int == 1)
            let end = try await ws.receive { $0["type"] as? String == "refresh" && $0["running"] as? Bool == false }
            #expect(end["done"] as? Int == 1 && end["failed"] as? Int == 0)
            _ = try await ws.receive { $0["type"] as? String == "library" }
            let episodes = try #require(try await h.json("/api/podcasts/\(id)/episodes")["episodes"] as? [[String: Any]])
            #expect(episodes.count == 2)
            #expect(fixture.requests.count == 2)

            #expect(try await post(h, "/api/podcasts/9999/refresh").0 == 404)
            #expect(try await post(h, "/api/podcasts/abc/refresh").0 == 404)
            #expect(try await h.http("/api/refresh", method: "PUT").status == 405)
            #expect(try await h.http("/api/refresh", method: "DELETE").status == 405)
        }
    }

    @Test("POST /api/subscriptions for a feed already subscribed answers 200 after refreshing it")
    func subscribeExisting() async throws {
        try await ServerHarness.with { h in
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a")]), headers: ["ETag": "\"1\""]))
            let body = #"{"url":"\#(fixture.url("/feed.xml"))"}"#
            let (first, created) = try await post(h, "/api/subscriptions", body: body)
            #expect(first == 201)
            let podcast = try #require(created["podcast"] as? [String: Any])
            #expect(podcast["details"] is [String: Any], "a single podcast carries its details")
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a"), Item("b")])))
            let (second, again) = try await post(h, "/api/subscriptions", body: body)
            #expect(second == 200)
            let refreshed = try #require(again["podcast"] as? [String: Any])
            #expect(refreshed["id"] as? Int == podcast["id"] as? Int && refreshed["episodeCount"] as? Int == 2)
            #expect(fixture.requests.last?.header("If-None-Match") == "\"1\"", "the refresh was conditional")
            #expect((try await h.json("/api/podcasts")["podcasts"] as? [Any])?.count == 2)
        }
    }

    @Test("a foreign Origin cannot refresh or unsubscribe")
    func foreignOrigin() async throws {
        try await ServerHarness.with { h in
            for (method, path) in [("POST", "/api/refresh"), ("POST", "/api/podcasts/\(h.podcast.id)/refresh"),
                                   ("DELETE", "/api/podcasts/\(h.podcast.id)")] {
                let response = try await h.http(path, method: method, headers: ["Origin": "http://evil.example"])
                #expect(response.status == 403, "\(method) \(path)")
            }
            #expect(await h.server.refresher.currentStatus == RefreshStatus())
            #expect((try await h.json("/api/podcasts")["podcasts"] as? [Any])?.count == 1)
        }
    }
}
