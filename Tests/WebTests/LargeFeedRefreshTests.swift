import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// A refresh of a feed above the fetcher's spool threshold is merged while it is parsed
/// (`LibraryStore.storeRefresh(podcastID:parsing:…)`, `StreamedRefresh`): items with a stored guid as
/// they come, the others at the end. A listener sees what a refresh held whole gives.
@Suite("Refreshing a large feed")
struct LargeFeedRefreshTests {
    typealias F = RefreshFixtures
    typealias Item = F.Item

    /// The podcast after subscribing to `before` and refreshing to `after`, as a listener sees it:
    /// episodes (id, guid, title, address, position), Inbox, title and validators.
    static func refreshed(spoolingAbove: Int?, before: Data, after: Data) async throws -> [String] {
        var seen: [String] = []
        try await F.with(spoolingAbove: spoolingAbove) { store, refresher, fixture in
            fixture.set("/big.xml", F.feedResponse(before))
            let podcast = try await F.subscribe("/big.xml", fixture, refresher, store)
            for episode in try await store.episodes(podcastID: podcast.id, limit: 10_000) where episode.id % 3 == 0 {
                try await store.savePosition(episodeID: episode.id, position: Double(episode.id))
            }
            fixture.set("/big.xml", F.feedResponse(after, headers: ["ETag": "\"v2\""]))
            let outcome = try await refresher.refreshAndWait(podcastID: podcast.id)
            guard case .updated = outcome else {
                Issue.record("the refresh was \(outcome)")
                return
            }
            let stored = try await store.podcast(id: podcast.id)
            seen = ["\(stored?.title ?? "-") \(stored?.episodeCount ?? -1)",
                    "etag \(try await store.feedToRefresh(podcastID: podcast.id)?.etag ?? "-")",
                    "inbox " + (try await store.inbox(limit: 10_000).episodes.map { "\($0.id)" }.joined(separator: ","))]
                + (try await store.episodes(podcastID: podcast.id, limit: 10_000)).map {
                    "\($0.id) \($0.guid) \($0.title) \($0.mediaURL) \($0.position)"
                }
        }
        return seen
    }

    @Test("random changes (guids changed with the audio kept, new, dropped, moved and repeated items) end as a whole refresh ends (property)")
    func sameAsWhole() async throws {
        var random = SplitMix64(seed: 2026)
        for round in 0..<6 {
            let count = 150 + Int(random.next() % 150)
            let before = (0..<count).map { Item("g\($0)") }
            var after: [Item] = []
            for item in before {
                switch random.next() % 10 {
                case 0: continue  // dropped from the feed
                case 1: after.append(Item("new-guid-\(item.guid)", url: item.url, title: "Renamed \(item.guid)"))  // same audio
                case 2: after.append(Item(item.guid, url: "https://cdn.example.org/moved-\(item.guid).mp3"))
                case 3: after.append(Item(item.guid, title: "Retitled \(item.guid)"))
                default: after.append(item)
                }
            }
            for n in 0..<Int(random.next() % 20) {
                after.insert(Item("fresh-\(round)-\(n)"), at: Int(random.next() % UInt64(after.count + 1)))
            }
            // Listed twice: a stored guid, a new one, and a changed guid whose audio an episode has.
            after.append(Item("g1", title: "g1 again"))
            after.append(Item("fresh-\(round)-twice", title: "first"))
            after.append(Item("fresh-\(round)-twice", title: "second"))
            after.insert(Item("claims-g2", url: before[2].url), at: 0)
            let old = F.rss("Big Show", before), new = F.rss("Big Show \(round)", after)
            let whole = try await Self.refreshed(spoolingAbove: nil, before: old, after: new)
            let streamed = try await Self.refreshed(spoolingAbove: 1_024, before: old, after: new)
            #expect(streamed == whole, "round \(round): \(zip(streamed, whole).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "lengths \(streamed.count) \(whole.count)")")
            #expect(whole.first == "Big Show \(round) \(whole.count - 3)")
        }
    }

    @Test("a spooled refresh that is no feed is a clear error and changes nothing; a cut-off one is read as far as it goes, as whole")
    func unreadableAndCutOff() async throws {
        try await F.with(spoolingAbove: 1_024) { store, refresher, fixture in
            fixture.set("/big.xml", F.feedResponse(F.rss("Big Show", (0..<100).map { Item("g\($0)") })))
            let podcast = try await F.subscribe("/big.xml", fixture, refresher, store)
            let before = try await store.episodes(podcastID: podcast.id, limit: 10_000)
            let page = Data("<!DOCTYPE html><html><head><title>Shop</title></head><body>\(String(repeating: "<p>x</p>", count: 400))</body></html>".utf8)
            fixture.set("/big.xml", FixtureHTTPServer.Response(status: 200, headers: ["Content-Type": "text/html"], body: page))
            let outcome = try await refresher.refreshAndWait(podcastID: podcast.id)
            guard case .failed(let status, let message) = outcome else {
                Issue.record("an HTML page refreshed the podcast: \(outcome)")
                return
            }
            #expect(status == .error)
            #expect(message.contains("could not be read") && message.contains("not a podcast feed"), "\(message)")
            #expect(try await store.episodes(podcastID: podcast.id, limit: 10_000) == before)
            #expect(try await store.podcast(id: podcast.id)?.title == "Big Show")
        }
        // Cut off after about two thirds: what libxml2 recovers, stored the same either way.
        let full = F.rss("Big Show", (0..<300).map { Item("x\($0)") })
        let cut = full.prefix(full.count * 2 / 3)
        let old = F.rss("Big Show", (0..<100).map { Item("x\($0 * 3)") })
        let whole = try await Self.refreshed(spoolingAbove: nil, before: old, after: cut)
        let streamed = try await Self.refreshed(spoolingAbove: 1_024, before: old, after: cut)
        #expect(streamed == whole)
        #expect(whole.count > 150 + 3 && whole.count < 300 + 3, "\(whole.count - 3) episodes")
    }
}
