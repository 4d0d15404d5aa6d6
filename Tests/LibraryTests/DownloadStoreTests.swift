@testable import EarshotCore // fixtures: stored rows built field by field
import Foundation
@testable import Library
import TestSupport
import Testing

/// The `downloads` table: what a restart reads back, the `removed` rows lists never show, and what
/// the two policies are told.
@Suite("Downloads in the library")
struct DownloadStoreTests {
    @Test("a download round-trips with its validators, its episode's title and podcast")
    func roundTrip() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/feed", content: FeedContent(
                title: "Show", items: [item("a", published: date(2_000)), item("b", published: date(1_000))]))
            let episodes = try await store.episodes(podcastID: podcast.id)
            var saved = DownloadItem.queued(episodeID: episodes[0].id, url: episodes[0].mediaURL, enclosureLength: 50_000,
                                            file: "\(podcast.id)/\(episodes[0].id).mp3", automatic: true, now: date(5_000))
            saved.state = .downloading
            saved.bytes = 1_234
            saved.total = 50_000
            saved.etag = "\"e\""
            saved.lastModified = "Tue, 03 Mar 2026 10:00:00 GMT"
            saved.retryAt = date(6_000)
            try await store.saveDownload(saved)
            let read = try #require(try await store.download(episodeID: episodes[0].id))
            saved.info = DownloadItem.Info(title: "Title a", podcastID: podcast.id, podcastTitle: "Show", mediaURL: episodes[0].mediaURL)
            #expect(read == saved)
            #expect(try await store.downloads() == [saved])

            try await store.saveDownloadProgress(episodeID: episodes[0].id, bytes: 9_999)
            #expect(try await store.download(episodeID: episodes[0].id)?.bytes == 9_999)
            await #expect(throws: LibraryError.episodeNotFound(424_242)) {
                try await store.saveDownload(DownloadItem.queued(episodeID: 424_242, url: "https://x/1.mp3", enclosureLength: 0,
                                                                 file: "1/1.mp3", now: date(0)))
            }
        }
    }

    @Test("a removed download leaves the lists but still counts as known for auto-download")
    func removed() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/feed", content: FeedContent(
                title: "Show", items: [item("a", published: date(3_000)), item("b", published: date(2_000)),
                                       item("c", published: date(1_000))]))
            let episodes = try await store.episodes(podcastID: podcast.id)
            let newest = episodes[0]
            try await store.saveDownload(.queued(episodeID: newest.id, url: newest.mediaURL, enclosureLength: 0,
                                                 file: "1/\(newest.id).mp3", now: date(0)))
            try await store.removeDownload(episodeID: newest.id)
            #expect(try await store.downloads().isEmpty)
            #expect(try await store.download(episodeID: newest.id) == nil)
            try await store.setPlayed(episodeID: episodes[1].id, played: true)
            let candidates = try await store.autoDownloadCandidates(podcastID: podcast.id, limit: 2)
            #expect(candidates == [DownloadPolicy.Candidate(episodeID: newest.id, played: false, known: true),
                                   DownloadPolicy.Candidate(episodeID: episodes[1].id, played: true, known: false)])
        }
    }

    @Test("played downloads are reported with when they were played; only finished ones")
    func played() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/feed", content: FeedContent(
                title: "Show", items: [item("a", published: date(2_000)), item("b", published: date(1_000))]))
            let episodes = try await store.episodes(podcastID: podcast.id)
            for (index, state) in [(0, DownloadState.done), (1, .paused)] {
                var download = DownloadItem.queued(episodeID: episodes[index].id, url: episodes[index].mediaURL,
                                                   enclosureLength: 0, file: "1/\(index).mp3", now: date(0))
                download.state = state
                try await store.saveDownload(download)
                try await store.setPlayed(episodeID: episodes[index].id, played: true)
            }
            let played = try await store.playedDownloads()
            #expect(played.map(\.episodeID) == [episodes[0].id])
            let when = try #require(played.first?.playedAt)
            #expect(abs(when.timeIntervalSinceNow) < 60)
        }
    }
}
