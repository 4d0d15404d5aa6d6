import EarshotCore
import Foundation
@testable import Library
import Testing
import TestSupport

/// What refreshing and unsubscribing record: validators, status, moves; rows hidden, progress kept.
@Suite("Refresh state and unsubscribing")
struct LibraryRefreshTests {
    static let url = "https://example.org/feed"

    @Test("validators, warnings and details are stored exactly as given and read back")
    func validatorsAndDetails() async throws {
        try await withStore { store, _ in
            var content = feed("Show", items: 1)
            content.warnings = ["line 3: unescaped & in a title", "second warning ✓"]
            content.details.ownerName = "Zoë"
            content.details.funding = [FeedLink(url: "https://example.org/give", title: "Support")]
            // Weak ETag with spaces and punctuation, and a Last-Modified with odd spacing: bytes kept.
            let etag = #"W/"a b;c=1, \"q\""  "#
            let lastModified = "Tue,  10 Jun 2003 04:00:00 GMT"
            let podcast = try await store.subscribe(feedURL: Self.url, content: content, etag: etag, lastModified: lastModified)
            #expect(podcast.warnings == content.warnings && podcast.details == content.details)
            #expect(try await store.podcasts().first?.warnings == content.warnings)
            #expect(try await store.podcasts().first?.details == nil)
            let target = try #require(try await store.feedToRefresh(podcastID: podcast.id))
            #expect(target == FeedToRefresh(podcastID: podcast.id, feedURL: Self.url, title: "Show",
                                            etag: etag, lastModified: lastModified))
            #expect(try await store.feedsToRefresh() == [target])

            // A refresh without warnings clears them (stored as NULL, not "[]").
            try await store.storeRefresh(podcastID: podcast.id, content: feed("Show", items: 1), etag: nil, lastModified: nil)
            #expect(try await store.podcast(id: podcast.id)?.warnings == [])
            let raw = try await store.withDatabase { db in
                try db.fetchOne("SELECT warnings_json IS NULL, etag IS NULL FROM podcasts") { ($0.bool(at: 0), $0.bool(at: 1)) }
            }
            #expect(raw?.0 == true && raw?.1 == true)
        }
    }

    @Test("a 304 rewrites nothing but the status and refresh time; failures keep the content")
    func notModifiedAndFailures() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: Self.url, content: feed("Show", items: 3),
                                                    etag: "\"v1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")
            let episodes = try await store.episodes(podcastID: podcast.id)
            try await store.markFailed(podcastID: podcast.id, status: .gone, message: "The feed is gone.")
            var failed = try #require(try await store.podcast(id: podcast.id))
            #expect(failed.status == .gone && failed.error == "The feed is gone.")
            #expect(failed.refreshedAt == podcast.refreshedAt, "refreshedAt is the last success")
            #expect(try await store.episodes(podcastID: podcast.id) == episodes)

            try await store.markNotModified(podcastID: podcast.id, etag: nil, lastModified: nil)
            var back = try #require(try await store.podcast(id: podcast.id))
            #expect(back.status == .ok && back.error == nil)
            #expect(try #require(back.refreshedAt) >= podcast.refreshedAt!)
            back.refreshedAt = podcast.refreshedAt
            #expect(back == podcast)
            #expect(try await store.episodes(podcastID: podcast.id) == episodes)
            #expect(try await store.feedToRefresh(podcastID: podcast.id)?.etag == "\"v1\"", "a 304 without validators keeps ours")

            try await store.markNotModified(podcastID: podcast.id, etag: "\"v2\"", lastModified: nil)
            let renewed = try await store.feedToRefresh(podcastID: podcast.id)
            #expect(renewed?.etag == "\"v2\"" && renewed?.lastModified == "Mon, 01 Jan 2024 00:00:00 GMT")

            try await store.markFailed(podcastID: podcast.id, status: .error, message: "HTTP 500")
            failed = try #require(try await store.podcast(id: podcast.id))
            #expect(failed.status == .error && failed.error == "HTTP 500")
            try await store.storeRefresh(podcastID: podcast.id, content: feed("Show", items: 3), etag: nil, lastModified: nil)
            let healed = try #require(try await store.podcast(id: podcast.id))
            #expect(healed.status == .ok && healed.error == nil)
        }
    }

    @Test("a feed moves to a free address only; forgetting validators when told")
    func moves() async throws {
        try await withStore { store, _ in
            let a = try await store.subscribe(feedURL: "https://a.example/feed", content: feed("A", items: 1), etag: "\"a\"")
            let b = try await store.subscribe(feedURL: "https://b.example/feed", content: feed("B", items: 1, prefix: "b"))
            #expect(try await !store.moveFeed(podcastID: a.id, to: "https://b.example/feed", keepingValidators: true))
            #expect(try await store.moveFeed(podcastID: a.id, to: "https://a2.example/feed", keepingValidators: true))
            #expect(try await store.feedToRefresh(podcastID: a.id) == FeedToRefresh(
                podcastID: a.id, feedURL: "https://a2.example/feed", title: "A", etag: "\"a\""))
            #expect(try await store.moveFeed(podcastID: a.id, to: "https://a3.example/feed", keepingValidators: false))
            #expect(try await store.feedToRefresh(podcastID: a.id)?.etag == nil)

            // Not even onto an unsubscribed podcast's address: that row keeps its listener's progress.
            try await store.unsubscribe(podcastID: b.id)
            #expect(try await !store.moveFeed(podcastID: a.id, to: "https://b.example/feed", keepingValidators: true))
            #expect(try await !store.moveFeed(podcastID: b.id, to: "https://b2.example/feed", keepingValidators: true))
        }
    }

    @Test("unsubscribing hides the podcast and its episodes everywhere; subscribing again revives them with progress")
    func unsubscribeAndBack() async throws {
        try await withStore { store, _ in
            let kept = try await store.subscribe(feedURL: "https://example.org/kept", content: feed("Kept", items: 2, prefix: "k"))
            let podcast = try await store.subscribe(feedURL: Self.url, content: feed("Gone soon", items: 3))
            let episodes = try await store.episodes(podcastID: podcast.id)
            try await store.savePosition(episodeID: episodes[0].id, position: 321)
            try await store.setPlayed(episodeID: episodes[1].id, played: true)

            #expect(try await store.unsubscribe(podcastID: podcast.id))
            #expect(try await !store.unsubscribe(podcastID: podcast.id), "already unsubscribed")
            #expect(try await !store.unsubscribe(podcastID: 9_999))
            #expect(try await store.podcasts().map(\.id) == [kept.id])
            #expect(try await store.podcast(id: podcast.id) == nil)
            #expect(try await store.podcast(feedURL: Self.url) == nil)
            #expect(try await store.episodes(podcastID: podcast.id) == [])
            #expect(Set(try await store.recentEpisodes().map(\.podcastID)) == [kept.id])
            #expect(try await store.feedsToRefresh().map(\.podcastID) == [kept.id])
            #expect(try await store.feedToRefresh(podcastID: podcast.id) == nil)
            // The player may hold one of its episodes: it is still readable, progress and all.
            #expect(try await store.episode(id: episodes[0].id)?.position == 321)
            // A refresh that was under way stores nothing and does not revive it.
            #expect(try await !store.storeRefresh(podcastID: podcast.id, content: feed("Gone soon", items: 5), etag: nil, lastModified: nil))
            #expect(try await store.podcast(id: podcast.id) == nil)

            let again = try await store.subscribe(feedURL: Self.url, content: feed("Back", items: 4))
            #expect(again.id == podcast.id && again.episodeCount == 4)
            let back = Dictionary(uniqueKeysWithValues: try await store.episodes(podcastID: podcast.id).map { ($0.guid, $0) })
            #expect(back["ep0"]?.id == episodes.first { $0.guid == "ep0" }?.id)
            let byID = Dictionary(uniqueKeysWithValues: back.values.map { ($0.id, $0) })
            #expect(byID[episodes[0].id]?.position == 321 && byID[episodes[1].id]?.played == true)
            #expect(try await store.podcasts().count == 2)
        }
    }

    @Test("a v1 library gains the new columns: old podcasts are subscribed, ok, refreshed when last updated")
    func migratesAV1Library() async throws {
        try await withDirectory { dir in
            let path = dir.file("library.sqlite").path
            do {
                var v1Only = Migrator()
                let v1 = try #require(LibrarySchema.migrator.migrations.first)
                v1Only.register(v1.name, v1.body)
                let db = try Database(path: path)
                try v1Only.migrate(db)
                try db.run("INSERT INTO podcasts(feed_url, title, added_at, updated_at) VALUES('https://old/feed', 'Old', 100, 200)")
                try db.run("INSERT INTO episodes(podcast_id, guid, title, media_url, position) VALUES(1, 'g', 'E', 'https://old/e.mp3', 55)")
            }
            let store = try LibraryStore(path: path)
            let podcast = try #require(try await store.podcasts().first)
            #expect(podcast.status == .ok && podcast.error == nil && podcast.warnings == [])
            #expect(podcast.refreshedAt == Date(timeIntervalSince1970: 200))
            #expect(try await store.podcast(id: podcast.id)?.details == nil, "nothing stored yet: no details")
            let episode = try #require(try await store.episodes(podcastID: podcast.id).first)
            #expect(episode.position == 55)
            #expect(try await store.episode(id: episode.id)?.details == nil)
            // The first refresh merges into the old row by guid.
            var content = feed("Old", items: 0)
            content.items = [FeedItem(guid: "g", title: "E2", enclosureURL: "https://old/e.mp3")]
            try await store.storeRefresh(podcastID: podcast.id, content: content, etag: nil, lastModified: nil)
            #expect(try await store.episodes(podcastID: podcast.id).map(\.title) == ["E2"])
            #expect(try await store.episode(id: episode.id)?.position == 55)
        }
    }
}
