import EarshotCore
import Foundation
import Library
import Testing
import TestSupport

/// A large feed stored while it is parsed (`subscribe(feedURL:parsing:settle:)`): what it stores must be
/// what storing the whole parsed feed stores, and a failure anywhere stores nothing.
@Suite("Subscribing to a feed as it is read")
struct StreamedSubscriptionTests {
    static let url = "https://example.org/big.xml"

    /// A parse that hands `content`'s items over in batches of `batch`, then returns it without them;
    /// `failAfter` batches, it throws instead.
    static func parsing(_ content: FeedContent, batch: Int = 100, failAfter: Int? = nil)
        -> @Sendable (any FeedItemSink) throws -> FeedContent {
        { sink in
            var rest = content
            rest.items = []
            for (n, start) in stride(from: 0, to: content.items.count, by: batch).enumerated() {
                if let failAfter, n == failAfter { throw Broken() }
                try sink.take(Array(content.items[start..<min(start + batch, content.items.count)]))
            }
            return rest
        }
    }

    struct Broken: Error {}

    static func stay(_ url: String) -> @Sendable (inout FeedContent) -> LibraryStore.FeedAddress {
        { _ in .init(feedURL: url, etag: "\"e\"", lastModified: nil) }
    }

    /// What a library holds of a podcast, ids aside: its episodes' fields, its Inbox, a search.
    static func snapshot(_ store: LibraryStore, _ podcast: Podcast) async throws -> [String] {
        let episodes = try await store.episodes(podcastID: podcast.id, limit: 10_000).map {
            "\($0.guid)|\($0.title)|\($0.summary)|\($0.mediaURL)|\($0.published.map { "\($0.timeIntervalSince1970)" } ?? "-")"
        }
        let inbox = try await store.inbox(limit: 10_000).episodes.map(\.guid)
        let found = try await store.search("ep1234").episodes.map(\.episode.guid)
        return episodes + ["inbox:"] + inbox + ["search:"] + found + ["title:\(podcast.title)", "count:\(podcast.episodeCount)"]
    }

    @Test("batch by batch stores what the whole feed stores: episodes, Inbox, search index; a guid listed twice is one episode")
    func sameAsWhole() async throws {
        var content = feed("Big", items: 2_500)
        content.items.append(item("ep7", title: "Listed again"))
        let whole = try await withStore { store, _ in
            try await Self.snapshot(store, try await store.subscribe(feedURL: Self.url, content: content, etag: "\"e\""))
        }
        let streamed = try await withStore { store, _ in
            let podcast = try #require(try await store.subscribe(feedURL: Self.url, parsing: Self.parsing(content),
                                                                 settle: Self.stay(Self.url)))
            #expect(podcast.feedURL == Self.url && podcast.episodeCount == 2_500)
            return try await Self.snapshot(store, podcast)
        }
        #expect(streamed == whole)
        #expect(whole.contains { $0.hasPrefix("ep7|Listed again|") })
    }

    @Test("a parse that fails after some batches were stored leaves no podcast, no episode and no index entry")
    func failureStoresNothing() async throws {
        try await withStore { store, _ in
            await #expect(throws: Broken.self) {
                _ = try await store.subscribe(feedURL: Self.url, parsing: Self.parsing(feed("Big", items: 1_000), failAfter: 3),
                                              settle: Self.stay(Self.url))
            }
            #expect(try await store.podcasts().isEmpty)
            #expect(try await store.search("ep12").episodes.isEmpty)
            // And the library takes the feed afterwards.
            let podcast = try await store.subscribe(feedURL: Self.url, parsing: Self.parsing(feed("Big", items: 1_000)),
                                                    settle: Self.stay(Self.url))
            #expect(podcast?.episodeCount == 1_000)
        }
    }

    @Test("a parse that starts again (repaired bytes) stores each item once")
    func restartForgetsTaken() async throws {
        try await withStore { store, _ in
            let content = feed("Big", items: 300)
            let podcast = try await store.subscribe(feedURL: Self.url, parsing: { sink in
                try sink.take(Array(content.items.prefix(200)))
                try sink.restart()
                return try Self.parsing(content)(sink)
            }, settle: Self.stay(Self.url))
            #expect(podcast?.episodeCount == 300)
            #expect(try await store.search("ep150").episodes.count == 1)
        }
    }

    @Test("a feed naming a new address is stored there; one naming an address the library has stores nothing")
    func settlesTheAddress() async throws {
        try await withStore { store, _ in
            let moved = "https://example.org/moved.xml"
            let podcast = try #require(try await store.subscribe(feedURL: Self.url, parsing: Self.parsing(feed("Big", items: 300)),
                                                                 settle: { content in
                content.title = "Named late"
                return .init(feedURL: moved, etag: nil, lastModified: nil)
            }))
            #expect(podcast.feedURL == moved && podcast.title == "Named late" && podcast.episodeCount == 300)
            #expect(try await store.podcast(feedURL: Self.url) == nil)

            let other = "https://example.org/other.xml"
            let none = try await store.subscribe(feedURL: other, parsing: Self.parsing(feed("Other", items: 300, prefix: "o")),
                                                 settle: Self.stay(moved))
            #expect(none == nil)
            #expect(try await store.podcasts().map(\.feedURL) == [moved], "nothing of the second feed stayed")
            #expect(try await store.search("o12").episodes.isEmpty)
        }
    }

    @Test("a podcast unsubscribed earlier comes back with its episodes' positions")
    func revivesKnownPodcast() async throws {
        try await withStore { store, _ in
            let first = try await store.subscribe(feedURL: Self.url, content: feed("Big", items: 50))
            let episode = try #require(try await store.episodes(podcastID: first.id).first { $0.guid == "ep3" })
            try await store.savePosition(episodeID: episode.id, position: 42)
            #expect(try await store.unsubscribe(podcastID: first.id))

            let again = try #require(try await store.subscribe(feedURL: Self.url, parsing: Self.parsing(feed("Big", items: 60), batch: 7),
                                                               settle: Self.stay(Self.url)))
            #expect(again.id == first.id && again.episodeCount == 60)
            let kept = try #require(try await store.episodes(podcastID: again.id).first { $0.guid == "ep3" })
            #expect(kept.id == episode.id && kept.position == 42)
        }
    }
}
