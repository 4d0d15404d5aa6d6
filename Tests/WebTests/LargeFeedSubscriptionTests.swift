import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// A feed above the fetcher's spool threshold is fetched into a temporary file and stored while it is
/// parsed (`Subscriptions.addStreaming`); below it, fetched into memory and stored whole. A listener
/// sees no difference.
@Suite("Subscribing to a large feed")
struct LargeFeedSubscriptionTests {
    typealias F = RefreshFixtures
    typealias Item = F.Item

    static func items(_ count: Int) -> [Item] { (0..<count).map { Item("g\($0)") } + [Item("g5", title: "Listed twice")] }

    /// The podcast and its episodes as a listener sees them, ids aside.
    static func subscribed(spoolingAbove: Int?, body: Data) async throws -> [String] {
        var seen: [String] = []
        try await F.with(spoolingAbove: spoolingAbove) { store, refresher, fixture in
            fixture.set("/big.xml", F.feedResponse(body, headers: ["ETag": "\"big\""]))
            let podcast = try await F.subscribe("/big.xml", fixture, refresher, store)
            let episodes = try await store.episodes(podcastID: podcast.id, limit: 10_000)
            seen = ["\(podcast.title) \(podcast.episodeCount) \(podcast.feedURL.hasSuffix("/big.xml"))",
                    "etag \(try await store.feedToRefresh(podcastID: podcast.id)?.etag ?? "-")",
                    "inbox \(try await store.inbox(limit: 10_000).episodes.count)"]
                + episodes.map { "\($0.guid) \($0.title) \($0.mediaURL)" }
        }
        return seen
    }

    @Test("a spooled feed is stored as one in memory is: title, episodes (a guid listed twice once), Inbox, validators")
    func sameEitherWay() async throws {
        let body = F.rss("Big Show", Self.items(1_500))
        let inMemory = try await Self.subscribed(spoolingAbove: nil, body: body)
        let spooled = try await Self.subscribed(spoolingAbove: 1_024, body: body)
        #expect(spooled == inMemory)
        #expect(inMemory.first == "Big Show 1500 true")
        #expect(inMemory.contains("g5 Listed twice https://cdn.example.org/g5.mp3"))

        // Without a title the show is named after its host, either way.
        let untitled = F.rss("", Self.items(20))
        #expect(try await Self.subscribed(spoolingAbove: 1_024, body: untitled).first == "127.0.0.1 20 true")
    }

    @Test("a spooled page that is no feed is a clear error and stores nothing")
    func spooledPageIsNoFeed() async throws {
        try await F.with(spoolingAbove: 16) { store, refresher, fixture in
            let page = Data("<!DOCTYPE html><html><head><title>Shop</title></head><body>\(String(repeating: "<p>x</p>", count: 200))</body></html>".utf8)
            fixture.set("/page", FixtureHTTPServer.Response(status: 200, headers: ["Content-Type": "text/html"], body: page))
            let url = fixture.url("/page").absoluteString
            do {
                _ = try await Subscriptions(store: store, refresher: refresher).add(url)
                Issue.record("an HTML page was subscribed")
            } catch let error as SubscriptionError {
                #expect(error.status == 502)
                #expect(error.message.contains("not a podcast feed") && error.message.contains(url), "\(error.message)")
            }
            #expect(try await store.podcasts().isEmpty)
        }
    }
}
