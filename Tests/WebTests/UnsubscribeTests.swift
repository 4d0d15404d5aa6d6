import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// `DELETE /api/podcasts/{id}` on a live server.
@Suite("Unsubscribing over HTTP", .serialized)
struct UnsubscribeTests {
    typealias F = RefreshFixtures
    typealias Item = RefreshFixtures.Item

    @Test("unsubscribing removes the podcast from every list, keeps positions, and subscribing again finds them")
    func unsubscribeAndBack() async throws {
        try await ServerHarness.with { h in
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            fixture.set("/feed.xml", F.feedResponse(F.rss("Leaving", [Item("a"), Item("b")])))
            let body = Data(#"{"url":"\#(fixture.url("/feed.xml"))"}"#.utf8)
            let created = try await h.http("/api/subscriptions", method: "POST", headers: ["Content-Type": "application/json"], body: body)
            #expect(created.status == 201)
            let podcast = try #require((try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["podcast"] as? [String: Any])
            let id = try #require(podcast["id"] as? Int)
            let episodes = try await h.store.episodes(podcastID: Int64(id))
            try await h.store.savePosition(episodeID: episodes[0].id, position: 42)
            try await h.store.setPlayed(episodeID: episodes[1].id, played: true)

            let ws = try await h.socket()
            _ = try await ws.receiveJSON()
            let removed = try await h.http("/api/podcasts/\(id)", method: "DELETE", headers: ["Origin": "http://127.0.0.1:\(h.port)"])
            #expect(removed.status == 200)
            #expect((try JSONSerialization.jsonObject(with: removed.body) as? [String: Any])?["removed"] as? Int == id)
            _ = try await ws.receive { $0["type"] as? String == "library" }

            let podcasts = try #require(try await h.json("/api/podcasts")["podcasts"] as? [[String: Any]])
            #expect(podcasts.map { $0["id"] as? Int } == [Int(h.podcast.id)])
            let recent = try #require(try await h.json("/api/episodes")["episodes"] as? [[String: Any]])
            #expect(!recent.contains { $0["podcastId"] as? Int == id })
            #expect(recent.count == h.episodes.count)
            #expect(try await h.http("/api/podcasts/\(id)").status == 404)
            #expect(try await h.http("/api/podcasts/\(id)/episodes").status == 404)
            #expect(try await h.http("/api/podcasts/\(id)", method: "DELETE").status == 404, "already gone")
            #expect(try await h.http("/api/podcasts/abc", method: "DELETE").status == 404)
            #expect(try await h.http("/api/podcasts/\(id)/refresh", method: "POST").status == 404)

            let again = try await h.http("/api/subscriptions", method: "POST", headers: ["Content-Type": "application/json"], body: body)
            #expect(again.status == 201, "\(again.text)")
            let back = try #require(try await h.json("/api/podcasts/\(id)/episodes")["episodes"] as? [[String: Any]])
            let byID = Dictionary(uniqueKeysWithValues: back.map { ($0["id"] as? Int ?? -1, $0) })
            #expect(byID.count == 2)
            #expect(byID[Int(episodes[0].id)]?["position"] as? Double == 42)
            #expect(byID[Int(episodes[1].id)]?["played"] as? Bool == true)
        }
    }

    @Test("an episode of an unsubscribed podcast still plays from where it was")
    func episodeStillReadable() async throws {
        try await ServerHarness.with { h in
            try await h.store.savePosition(episodeID: h.episodes[0].id, position: 12)
            #expect(try await h.http("/api/podcasts/\(h.podcast.id)", method: "DELETE").status == 200)
            let episode = try #require(try await h.json("/api/episodes/\(h.episodes[0].id)")["episode"] as? [String: Any])
            #expect(episode["position"] as? Double == 12)
            #expect(episode["details"] is [String: Any], "a single episode carries its details")
            #expect((try await h.json("/api/episodes")["episodes"] as? [Any])?.isEmpty == true)
        }
    }
}
