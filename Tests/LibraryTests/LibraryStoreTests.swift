import EarshotCore
import Foundation
@testable import Library
import Testing
import TestSupport

@Suite("LibraryStore")
struct LibraryStoreTests {
    static let feedURL = "https://example.org/ünïcode/feed.xml"

    /// A feed whose every field differs from the defaults, with one undated item and Unicode text.
    static let fullFeed = FeedContent(
        title: "Ça va? 日本語ポッドキャスト 🎙", author: "Zoë Ångström", summary: "Line one\nLine \"two\" & <three>",
        artworkURL: "https://example.org/show.png", link: "https://example.org/show",
        items: [
            FeedItem(guid: "urn:uuid:1", title: "Épisode un — 第一話", summary: "Notes ✓",
                     enclosureURL: "https://cdn.example.org/1.m4a", enclosureType: "audio/x-m4a",
                     enclosureLength: 123_456_789_012, duration: 3_723.5, published: date(1_700_000_000.5),
                     artworkURL: "https://example.org/1.jpg", link: "https://example.org/1"),
            FeedItem(guid: "no-date", title: "Undated", enclosureURL: "https://cdn.example.org/2.mp3"),
        ])

    @Test("a podcast round-trips every field, by id, by feed URL and in the list")
    func podcastRoundTrip() async throws {
        try await withStore { store, _ in
            let saved = try await store.subscribe(feedURL: Self.feedURL, content: Self.fullFeed)
            let refreshedAt = try #require(saved.refreshedAt)
            #expect(abs(refreshedAt.timeIntervalSinceNow) < 600)
            // Lists and lookups by URL carry no details; a single podcast by id does.
            let expected = Podcast(id: saved.id, feedURL: Self.feedURL, title: Self.fullFeed.title,
                                   author: Self.fullFeed.author, summary: Self.fullFeed.summary,
                                   artworkURL: Self.fullFeed.artworkURL, link: Self.fullFeed.link, episodeCount: 2,
                                   status: .ok, error: nil, refreshedAt: refreshedAt, warnings: [])
            var withDetails = expected
            withDetails.details = Self.fullFeed.details
            #expect(saved == withDetails)
            #expect(try await store.podcast(id: saved.id) == withDetails)
            #expect(try await store.podcast(feedURL: Self.feedURL) == expected)
            #expect(try await store.podcasts() == [expected])
            #expect(try await store.podcast(id: saved.id + 1) == nil)
            #expect(try await store.podcast(feedURL: "https://example.org/other") == nil)
        }
    }

    @Test("an episode round-trips every field, including a nil date and artwork falling back to the podcast's")
    func episodeRoundTrip() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: Self.feedURL, content: Self.fullFeed)
            let episodes = try await store.episodes(podcastID: podcast.id)
            #expect(episodes.count == 2)
            let first = try #require(episodes.first)
            let own = Self.fullFeed.items[0]
            #expect(first == Episode(
                id: first.id, podcastID: podcast.id, podcastTitle: Self.fullFeed.title, guid: own.guid,
                title: own.title, summary: own.summary, mediaURL: own.enclosureURL, mediaType: own.enclosureType,
                mediaLength: own.enclosureLength, duration: own.duration, published: own.published,
                artworkURL: own.artworkURL, position: 0, played: false, inInbox: true),
                    "the newest episode of a new subscription is in the Inbox")
            let undated = try #require(episodes.last)
            #expect(!undated.inInbox, "the back catalogue is not")
            #expect(undated.guid == "no-date" && undated.published == nil && undated.title == "Undated")
            #expect(undated.summary == "" && undated.mediaType == "" && undated.mediaLength == 0 && undated.duration == 0)
            #expect(undated.artworkURL == Self.fullFeed.artworkURL)
            // A single episode carries its details; lists do not.
            #expect(first.details == nil)
            var firstWithDetails = first
            firstWithDetails.details = own.details
            #expect(try await store.episode(id: first.id) == firstWithDetails)
            #expect(try await store.episode(id: undated.id)?.details == EpisodeDetails())
            #expect(try await store.episode(id: 9_999) == nil)
            let link = try await store.withDatabase { db in
                try db.fetchOne("SELECT link FROM episodes WHERE guid = 'urn:uuid:1'") { $0.optionalString(at: 0) }
            }
            #expect(link == own.link)
        }
    }

    @Test("re-subscribing updates feed fields, keeps positions, played state and dropped items, adds new ones")
    func resubscribe() async throws {
        try await withStore { store, _ in
            let url = "https://example.org/feed"
            let original = try await store.subscribe(feedURL: url, content: feed("Old", items: 3))
            let before = try await store.episodes(podcastID: original.id)
            let byGUID = Dictionary(uniqueKeysWithValues: before.map { ($0.guid, $0) })
            try await store.savePosition(episodeID: byGUID["ep0"]!.id, position: 125.5)
            try await store.setPlayed(episodeID: byGUID["ep1"]!.id, played: true)
            let addedAt = try await store.withDatabase { db in
                try db.fetchOne("SELECT added_at FROM podcasts") { $0.double(at: 0) }
            }

            var renamed = feed("New name", items: 0)
            renamed.items = [item("ep0", published: date(1_700_000_000), title: "Retitled zero"),
                             item("ep1", published: date(1_700_003_600)),
                             item("ep9", published: date(1_800_000_000))]
            let updated = try await store.subscribe(feedURL: url, content: renamed)
            #expect(updated.id == original.id)
            #expect(updated.title == "New name" && updated.author == "Author of New name")
            #expect(updated.episodeCount == 4) // ep2 is no longer listed but kept
            #expect(try await store.podcasts().count == 1)

            let after = Dictionary(uniqueKeysWithValues: try await store.episodes(podcastID: original.id).map { ($0.guid, $0) })
            #expect(Set(after.keys) == ["ep0", "ep1", "ep2", "ep9"])
            #expect(after["ep0"]!.id == byGUID["ep0"]!.id)
            #expect(after["ep0"]!.title == "Retitled zero" && after["ep0"]!.position == 125.5 && !after["ep0"]!.played)
            #expect(after["ep1"]!.played && after["ep1"]!.position == 0)
            #expect(after["ep2"]! == byGUID["ep2"]!.with(podcastTitle: "New name", artworkURL: renamed.artworkURL))
            #expect(after["ep0"]!.podcastTitle == "New name")
            let addedAtAfter = try await store.withDatabase { db in
                try db.fetchOne("SELECT added_at FROM podcasts") { $0.double(at: 0) }
            }
            #expect(addedAtAfter == addedAt)
        }
    }

    @Test("episodes list newest first with undated ones last, honoring the limit")
    func episodeOrdering() async throws {
        try await withStore { store, _ in
            var content = feed("Show", items: 0)
            content.items = [item("mid", published: date(2_000)), item("undated-a"), item("new", published: date(3_000)),
                             item("old", published: date(1_000)), item("undated-b"), item("same-as-mid", published: date(2_000))]
            let podcast = try await store.subscribe(feedURL: "https://example.org/f", content: content)
            let guids = try await store.episodes(podcastID: podcast.id).map(\.guid)
            // Ties (same date, or both undated) fall back to the later-inserted first.
            #expect(guids == ["new", "same-as-mid", "mid", "old", "undated-b", "undated-a"])
            #expect(try await store.episodes(podcastID: podcast.id, limit: 2).map(\.guid) == ["new", "same-as-mid"])
            #expect(try await store.episodes(podcastID: podcast.id + 100) == [])
        }
    }

    @Test("recent episodes interleave podcasts by date, each with its podcast's title")
    func recentEpisodes() async throws {
        try await withStore { store, _ in
            var a = feed("A", items: 0)
            a.items = [item("a1", published: date(100)), item("a3", published: date(300)), item("a-undated")]
            var b = feed("B", items: 0)
            b.items = [item("b2", published: date(200)), item("b4", published: date(400))]
            try await store.subscribe(feedURL: "https://a", content: a)
            try await store.subscribe(feedURL: "https://b", content: b)
            let recent = try await store.recentEpisodes()
            #expect(recent.map(\.guid) == ["b4", "a3", "b2", "a1", "a-undated"])
            #expect(recent.map(\.podcastTitle) == ["B", "A", "B", "A", "A"])
            #expect(try await store.recentEpisodes(limit: 3).map(\.guid) == ["b4", "a3", "b2"])
        }
    }

    @Test("podcasts are ordered by title ignoring case, Unicode included, with episode counts")
    func podcastOrdering() async throws {
        try await withStore { store, _ in
            let titles = ["banana", "Apple", "élan", "Cherry", "Élan", "apple"]
            for (index, title) in titles.enumerated() {
                try await store.subscribe(feedURL: "https://example.org/\(index)", content: feed(title, items: index))
            }
            let listed = try await store.podcasts()
            // Titles equal but for case (ASCII or not) keep subscription order.
            #expect(listed.map(\.title) == ["Apple", "apple", "banana", "Cherry", "élan", "Élan"])
            #expect(Dictionary(uniqueKeysWithValues: listed.map { ($0.title, $0.episodeCount) })
                    == ["banana": 0, "Apple": 1, "élan": 2, "Cherry": 3, "Élan": 4, "apple": 5])
        }
    }

    @Test("saving a position and marking played or unplayed")
    func progress() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/f", content: feed("Show", items: 2))
            let episodes = try await store.episodes(podcastID: podcast.id)
            let id = episodes[0].id, other = episodes[1].id

            try await store.savePosition(episodeID: id, position: 42.25)
            #expect(try await store.episode(id: id)?.position == 42.25)
            #expect(try await store.episode(id: other)?.position == 0)

            try await store.setPlayed(episodeID: id, played: true)
            var episode = try #require(try await store.episode(id: id))
            #expect(episode.played && episode.position == 0)

            try await store.savePosition(episodeID: id, position: 10)
            try await store.setPlayed(episodeID: id, played: false)
            episode = try #require(try await store.episode(id: id))
            #expect(!episode.played && episode.position == 10)

            try await store.savePosition(episodeID: id, position: -5)
            #expect(try await store.episode(id: id)?.position == 0)
            try await store.savePosition(episodeID: id, position: .nan)
            #expect(try await store.episode(id: id)?.position == 0)

            let stamped = try await store.withDatabase { db in
                try db.fetchOne("SELECT position_updated_at FROM episodes WHERE id = ?", [id]) { $0.optionalDouble(at: 0) }
            }
            let stamp = try #require(stamped ?? nil)
            #expect(abs(stamp - Date().timeIntervalSince1970) < 600)

            await #expect(throws: LibraryError.episodeNotFound(9_999)) {
                try await store.savePosition(episodeID: 9_999, position: 1)
            }
            await #expect(throws: LibraryError.episodeNotFound(9_999)) {
                try await store.setPlayed(episodeID: 9_999, played: true)
            }
        }
    }

    @Test("settings are stored, overwritten, removed with nil and survive re-opening")
    func settings() async throws {
        try await withDirectory { dir in
            let path = dir.file("library.sqlite").path
            do {
                let store = try LibraryStore(path: path)
                #expect(try await store.setting("skip.back") == nil)
                try await store.setSetting("skip.back", "10")
                try await store.setSetting("skip.back", "15")
                try await store.setSetting("théme", "sombre ☾")
                try await store.setSetting("empty", "")
                try await store.setSetting("gone", "x")
                try await store.setSetting("gone", nil)
                try await store.setSetting("never-set", nil)
            }
            let store = try LibraryStore(path: path)
            #expect(try await store.setting("skip.back") == "15")
            #expect(try await store.setting("théme") == "sombre ☾")
            #expect(try await store.setting("empty") == "")
            #expect(try await store.setting("gone") == nil)
            #expect(try await store.setting("never-set") == nil)
        }
    }

    @Test("the store creates missing folders, uses WAL and keeps data across re-opening")
    func fileAndJournal() async throws {
        try await withDirectory { dir in
            let path = dir.file("nested/deeper/library.sqlite").path
            do {
                let store = try LibraryStore(path: path)
                #expect(store.path == path)
                #expect(try await store.withDatabase { db in try db.fetchOne("PRAGMA journal_mode") { $0.string(at: 0) } } == "wal")
                try await store.subscribe(feedURL: "https://example.org/f", content: feed("Show", items: 5))
                // A write in WAL mode lands in the -wal file beside the database.
                #expect(FileManager.default.fileExists(atPath: path + "-wal"))
            }
            let store = try LibraryStore(path: path)
            let podcasts = try await store.podcasts()
            #expect(podcasts.map(\.title) == ["Show"] && podcasts.map(\.episodeCount) == [5])
        }
    }

    @Test("deleting a podcast deletes its episodes (foreign keys are enforced)")
    func cascade() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/f", content: feed("Show", items: 4))
            try await store.subscribe(feedURL: "https://example.org/g", content: feed("Other", items: 2, prefix: "x"))
            let left = try await store.withDatabase { db in
                try db.run("DELETE FROM podcasts WHERE id = ?", [podcast.id])
                return try db.fetchOne("SELECT count(*) FROM episodes") { $0.int64(at: 0) }
            }
            #expect(left == 2)
            #expect(try await store.episodes(podcastID: podcast.id) == [])
        }
    }

    @Test("episode lists read straight from an index, with no sort step")
    func queryPlans() async throws {
        try await withStore { store, _ in
            try await store.subscribe(feedURL: "https://example.org/f", content: feed("Show", items: 50))
            let plans = try await store.withDatabase { db in
                let queries: [(String, [any StatementBindable])] = [
                    (LibrarySQL.episodesOfPodcast, [1, 10]), (LibrarySQL.recentEpisodes, [10]),
                ]
                return try queries.map { sql, arguments in
                    try db.fetchAll("EXPLAIN QUERY PLAN " + sql, arguments) { $0.string(at: 3) }.joined(separator: " | ")
                }
            }
            #expect(plans[0].contains("episodes_by_podcast_published"), "\(plans[0])")
            #expect(plans[1].contains("episodes_by_published"), "\(plans[1])")
            #expect(!plans.joined().contains("TEMP B-TREE"), "\(plans)")
        }
    }
}

extension Episode {
    /// A copy with the podcast-derived fields replaced.
    func with(podcastTitle: String, artworkURL: String?) -> Episode {
        var copy = self
        copy.podcastTitle = podcastTitle
        copy.artworkURL = artworkURL
        return copy
    }
}
