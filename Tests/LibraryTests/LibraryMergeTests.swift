import EarshotCore
import Foundation
@testable import Library
import Testing
import TestSupport

/// How a refreshed feed's items land on stored episodes: by guid, else by enclosure URL, never twice.
@Suite("Merging a feed into the library")
struct LibraryMergeTests {
    static let url = "https://example.org/feed"

    /// Episodes by guid, with ids.
    func episodes(_ store: LibraryStore, _ podcastID: Int64) async throws -> [String: Episode] {
        Dictionary(uniqueKeysWithValues: try await store.episodes(podcastID: podcastID).map { ($0.guid, $0) })
    }

    @Test("an item whose guid changed but whose enclosure URL is known updates that episode, position kept")
    func guidChangedEnclosureSame() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: Self.url, content: feed("Show", items: 3))
            let before = try await episodes(store, podcast.id)
            try await store.savePosition(episodeID: before["ep1"]!.id, position: 77)
            try await store.setPlayed(episodeID: before["ep2"]!.id, played: true)

            var next = feed("Show", items: 3)
            // The publisher re-keyed ep1 and ep2: same audio, new guids.
            next.items[1].guid = "new-guid-1"
            next.items[2].guid = "new-guid-2"
            next.items[2].title = "Retitled"
            #expect(try await store.storeRefresh(podcastID: podcast.id, content: next, etag: nil, lastModified: nil))

            let after = try await episodes(store, podcast.id)
            #expect(Set(after.keys) == ["ep0", "new-guid-1", "new-guid-2"], "no duplicates, no orphans")
            #expect(after["new-guid-1"]!.id == before["ep1"]!.id && after["new-guid-1"]!.position == 77)
            #expect(after["new-guid-2"]!.id == before["ep2"]!.id && after["new-guid-2"]!.played)
            #expect(after["new-guid-2"]!.title == "Retitled")
        }
    }

    @Test("a changed enclosure URL updates the episode with that guid")
    func enclosureChanged() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: Self.url, content: feed("Show", items: 2))
            let before = try await episodes(store, podcast.id)
            try await store.savePosition(episodeID: before["ep0"]!.id, position: 12.5)
            var next = feed("Show", items: 2)
            next.items[0].enclosureURL = "https://cdn2.example.org/ep0-v2.mp3"
            next.items[0].enclosureLength = 42
            try await store.storeRefresh(podcastID: podcast.id, content: next, etag: nil, lastModified: nil)
            let after = try await episodes(store, podcast.id)
            #expect(after.count == 2)
            #expect(after["ep0"]!.id == before["ep0"]!.id)
            #expect(after["ep0"]!.mediaURL == "https://cdn2.example.org/ep0-v2.mp3" && after["ep0"]!.mediaLength == 42)
            #expect(after["ep0"]!.position == 12.5)
        }
    }

    @Test("distinct items sharing one enclosure URL stay distinct; a guid listed twice is one episode")
    func sharedEnclosures() async throws {
        try await withStore { store, _ in
            var content = feed("Show", items: 0)
            var a = item("a"), b = item("b"), again = item("a", title: "Second copy of a")
            b.enclosureURL = a.enclosureURL // a placeholder file some feeds reuse
            again.enclosureURL = "https://example.org/other.mp3"
            content.items = [a, b, again]
            let podcast = try await store.subscribe(feedURL: Self.url, content: content)
            var stored = try await episodes(store, podcast.id)
            #expect(Set(stored.keys) == ["a", "b"])
            #expect(stored["a"]!.title == "Second copy of a", "the later copy of a guid wins, as before")

            // Refreshing the same feed changes nothing; a new item on the shared URL is new too.
            var c = item("c")
            c.enclosureURL = a.enclosureURL
            content.items.append(c)
            try await store.storeRefresh(podcastID: podcast.id, content: content, etag: nil, lastModified: nil)
            stored = try await episodes(store, podcast.id)
            #expect(Set(stored.keys) == ["a", "b", "c"])
        }
    }

    @Test("an enclosure URL is matched only within its own podcast")
    func fallbackStaysInPodcast() async throws {
        try await withStore { store, _ in
            let first = try await store.subscribe(feedURL: Self.url, content: feed("One", items: 1))
            var other = feed("Two", items: 0)
            var copy = item("different-guid")
            copy.enclosureURL = item("ep0").enclosureURL
            other.items = [copy]
            let second = try await store.subscribe(feedURL: "https://example.org/two", content: other)
            #expect(try await store.episodes(podcastID: first.id).map(\.guid) == ["ep0"])
            #expect(try await store.episodes(podcastID: second.id).map(\.guid) == ["different-guid"])
        }
    }

    @Test("storing the same feed again rewrites only the podcast row; details JSON is stable")
    func unchangedRowsNotRewritten() async throws {
        try await withStore { store, _ in
            var content = feed("Show", items: 50)
            for index in content.items.indices {
                // Attributes in a dictionary: their JSON order must not change between encodings.
                content.items[index].details.notes = SanitizedHTML(nodes: [.element("p", attributes: [:], children: [
                    .element("a", attributes: ["href": "https://example.org/\(index)", "title": "t", "rel": "x"],
                             children: [.text("link \(index)")]),
                ])])
                content.items[index].details.persons = [FeedPerson(name: "Host", role: "host")]
            }
            content.details.categories = [["Technology"], ["Arts", "Books"]]
            let podcast = try await store.subscribe(feedURL: Self.url, content: content)
            let changes = try await store.withDatabase { db -> Int64 in
                let before = try db.fetchOne("SELECT total_changes()") { $0.int64(at: 0) } ?? 0
                return before
            }
            try await store.storeRefresh(podcastID: podcast.id, content: content, etag: "\"e\"", lastModified: nil)
            let after = try await store.withDatabase { db in try db.fetchOne("SELECT total_changes()") { $0.int64(at: 0) } ?? 0 }
            #expect(after - changes == 1, "only the podcast row (validators, refresh time) was written")

            content.items[7].details.notes = SanitizedHTML(nodes: [.text("changed")])
            try await store.storeRefresh(podcastID: podcast.id, content: content, etag: "\"e\"", lastModified: nil)
            let later = try await store.withDatabase { db in try db.fetchOne("SELECT total_changes()") { $0.int64(at: 0) } ?? 0 }
            #expect(later - after == 2, "the podcast row and the one changed episode")
            let changed = try await store.episodes(podcastID: podcast.id).first { $0.guid == "ep7" }!
            #expect(try await store.episode(id: changed.id)?.details?.notes.nodes == [.text("changed")])
        }
    }
}
