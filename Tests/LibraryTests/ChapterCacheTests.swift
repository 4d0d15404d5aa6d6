import EarshotCore
import Foundation
import Library
import TestSupport
import Testing

@Suite("The Podcasting 2.0 chapters cache")
struct ChapterCacheTests {
    let chapters = [Chapter(title: "Intro ❤️", start: 0, img: "https://example.org/a.jpg"),
                    Chapter(title: "Later", start: 61.25, url: "https://example.org/later")]

    @Test("stored per episode and address; another address is a miss; a new fetch replaces the row")
    func roundTrip() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/feed", content: feed("Show", items: 2))
            let episodes = try await store.episodes(podcastID: podcast.id)
            let (a, b) = (episodes[0].id, episodes[1].id)
            #expect(try await store.cachedChapters(episodeID: a, url: "https://example.org/a.json") == nil)
            try await store.storeChapters(episodeID: a, url: "https://example.org/a.json", chapters: chapters)
            #expect(try await store.cachedChapters(episodeID: a, url: "https://example.org/a.json") == chapters)
            #expect(try await store.cachedChapters(episodeID: a, url: "https://example.org/moved.json") == nil)
            #expect(try await store.cachedChapters(episodeID: b, url: "https://example.org/a.json") == nil)
            try await store.storeChapters(episodeID: a, url: "https://example.org/moved.json", chapters: [])
            #expect(try await store.cachedChapters(episodeID: a, url: "https://example.org/moved.json") == [])
            #expect(try await store.cachedChapters(episodeID: a, url: "https://example.org/a.json") == nil, "one row per episode")
            await #expect(throws: LibraryError.self) {
                try await store.storeChapters(episodeID: 9999, url: "https://example.org/x.json", chapters: chapters)
            }
        }
    }

    @Test("kept across reopening the library")
    func persists() async throws {
        try await withDirectory { dir in
            let path = dir.file("library.sqlite").path
            let id: Int64
            do {
                let store = try LibraryStore(path: path)
                let podcast = try await store.subscribe(feedURL: "https://example.org/feed", content: feed("Show", items: 1))
                id = try #require(try await store.episodes(podcastID: podcast.id).first).id
                try await store.storeChapters(episodeID: id, url: "https://example.org/c.json", chapters: chapters)
            }
            let reopened = try LibraryStore(path: path)
            #expect(try await reopened.cachedChapters(episodeID: id, url: "https://example.org/c.json") == chapters)
        }
    }
}
