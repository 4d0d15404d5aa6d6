import EarshotCore
import Foundation
import Library
import Testing

/// The library's sync side (LibrarySchema+Sync): the subscription log its triggers keep, episode
/// matching, phones' actions and Earshot's own listening as actions.
@Suite("Library: sync's log, matching and actions")
struct SyncStoreTests {
    @Test("every way the subscriptions change is logged: subscribe, unsubscribe, subscribe again, a feed that moved")
    func subscriptionLog() async throws {
        try await withStore { store, _ in
            let start = Date().timeIntervalSince1970 - 1
            let a = try await store.subscribe(feedURL: "https://a.example/feed", content: feed("A", items: 2))
            let b = try await store.subscribe(feedURL: "https://b.example/feed", content: feed("B", items: 1))
            #expect(try await store.subscriptionChanges(since: start) == (["https://a.example/feed", "https://b.example/feed"], []))
            #expect(try await store.unsubscribe(podcastID: a.id))
            var changes = try await store.subscriptionChanges(since: start)
            #expect(changes.add == ["https://b.example/feed"] && changes.remove == ["https://a.example/feed"], "the last word per feed")
            _ = try await store.subscribe(feedURL: "https://a.example/feed", content: feed("A", items: 2))
            #expect(try await store.moveFeed(podcastID: b.id, to: "https://b.example/new-feed", keepingValidators: false))
            changes = try await store.subscriptionChanges(since: start)
            #expect(Set(changes.add) == ["https://a.example/feed", "https://b.example/new-feed"] && changes.remove == ["https://b.example/feed"])
            #expect(try await store.podcastID(feedURL: "https://b.example/feed") == b.id, "the old address still finds it")
            #expect(try await store.subscriptionChanges(since: Date().timeIntervalSince1970 + 10) == ([], []))
            #expect(try await store.subscribedFeedURLs() == ["https://a.example/feed", "https://b.example/new-feed"])
        }
    }

    @Test("an action finds its episode by media address, guid, an address the feed changed, or anywhere when the podcast is unknown")
    func matching() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://a.example/feed", content: feed("A", items: 3))
            let episodes = try await store.episodes(podcastID: podcast.id)
            let first = try #require(episodes.first { $0.guid == "ep0" })
            #expect(try await store.matchEpisode(podcast: podcast.feedURL, episode: first.mediaURL, guid: nil)?.id == first.id)
            #expect(try await store.matchEpisode(podcast: podcast.feedURL, episode: "https://cdn/other.mp3", guid: "ep0")?.id == first.id)
            // The feed moves its media to another host: the phone's old address is still understood.
            var moved = feed("A", items: 3)
            moved.items = moved.items.map { var i = $0; i.enclosureURL = i.enclosureURL.replacingOccurrences(of: "example.org", with: "cdn.example.net"); return i }
            _ = try await store.storeRefresh(podcastID: podcast.id, content: moved, etag: nil, lastModified: nil)
            #expect(try await store.matchEpisode(podcast: podcast.feedURL, episode: "https://example.org/ep0.mp3", guid: nil)?.id == first.id)
            #expect(try await store.matchEpisode(podcast: "https://unknown.example/rss", episode: "https://cdn.example.net/ep0.mp3", guid: nil)?.id == first.id)
            #expect(try await store.matchEpisode(podcast: "https://unknown.example/rss", episode: "https://nowhere/x.mp3", guid: "ep0") == nil,
                    "a guid alone, across podcasts, is not trusted")
        }
    }

    @Test("Earshot's own listening as actions: play at the position, at the end when played, new when put back")
    func ownActions() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://a.example/feed", content: feed("A", items: 3))
            let episodes = try await store.episodes(podcastID: podcast.id).sorted { $0.guid < $1.guid }
            let before = Date().timeIntervalSince1970 - 1
            try await store.savePosition(episodeID: episodes[0].id, position: 12.7)
            try await store.setPlayed(episodeID: episodes[1].id, played: true)
            try await store.setPlayed(episodeID: episodes[2].id, played: false)
            try await store.applySyncedProgress(episodeID: episodes[2].id, position: 30, played: false, at: before + 0.5, device: "phone")
            let own = try await store.episodeActions(since: before, device: LibraryStore.syncDeviceID)
            #expect(own.count == 2, "the phone's position is not Earshot's to publish: \(own)")
            let play = try #require(own.first { $0.episode == episodes[0].mediaURL })
            #expect(play.kind == .play && play.position == 12 && play.total == 61 && play.device == "earshot" && play.guid == "ep0")
            let played = try #require(own.first { $0.episode == episodes[1].mediaURL })
            #expect(played.position == 61 && played.total == 61)
            try await store.setPlayed(episodeID: episodes[1].id, played: false)
            try await store.savePosition(episodeID: episodes[1].id, position: 0)
            #expect(try await store.episodeActions(since: before, device: "earshot").first { $0.episode == episodes[1].mediaURL }?.kind == .new)
        }
    }

    @Test("phones' actions kept as sent, filtered by podcast and device, aggregated to the newest per episode")
    func storedActions() async throws {
        try await withStore { store, _ in
            let now = Date().timeIntervalSince1970
            let actions: [(action: EpisodeAction, episodeID: Int64?)] = [
                (EpisodeAction(podcast: "https://p/1", episode: "https://e/1", device: "a", kind: .play, timestamp: now - 30, position: 5), nil),
                (EpisodeAction(podcast: "https://p/1", episode: "https://e/1", kind: .play, timestamp: now - 20, position: 9), nil),
                (EpisodeAction(podcast: "https://p/2", episode: "https://e/2", guid: "g", kind: .download, timestamp: now - 10), nil),
            ]
            _ = try await store.storeEpisodeActions(actions, device: "b", receivedAt: now)
            #expect(try await store.episodeActions(since: 0).count == 3)
            #expect(try await store.episodeActions(since: now + 1).isEmpty, "since counts from when they arrived")
            #expect(try await store.episodeActions(since: 0, device: "b").map(\.position) == [9, nil])
            #expect(try await store.episodeActions(since: 0, podcast: "https://p/2").map(\.guid) == ["g"])
            #expect(try await store.episodeActions(since: 0, aggregated: true).map(\.position) == [9, nil])
            #expect(try await store.unmatchedEpisodeActions(podcast: "https://p/1").count == 2)
        }
    }
}
