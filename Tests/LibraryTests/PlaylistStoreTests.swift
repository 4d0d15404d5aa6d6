import EarshotCore
import Foundation
@testable import Library
import Testing
import TestSupport

@Suite("LibraryStore: named playlists")
struct PlaylistStoreTests {
    /// A store with two podcasts of `count` episodes each; returns their episode ids, oldest first.
    private static func seeded(_ store: LibraryStore, count: Int = 4) async throws -> (a: Podcast, aIDs: [Int64], b: Podcast, bIDs: [Int64]) {
        let a = try await store.subscribe(feedURL: "https://example.org/a.xml", content: feed("A", items: count, prefix: "a"))
        let b = try await store.subscribe(feedURL: "https://example.org/b.xml", content: feed("B", items: count, prefix: "b"))
        let aIDs = try await store.episodes(podcastID: a.id).map(\.id).reversed()
        let bIDs = try await store.episodes(podcastID: b.id).map(\.id).reversed()
        return (a, Array(aIDs), b, Array(bIDs))
    }

    @Test("create, list, rename, delete — and it is all still there after reopening the file")
    func lifecycle() async throws {
        try await withDirectory { dir in
            let path = dir.file("library.sqlite").path
            var ids: [Int64] = []
            var kept: Int64 = 0
            do {
                let store = try LibraryStore(path: path)
                let s = try await Self.seeded(store)
                ids = [s.aIDs[2], s.bIDs[0], s.aIDs[0]]
                let walks = try await store.createPlaylist(name: "  Walks ", episodes: ids)
                #expect(walks.name == "Walks" && walks.episodeIDs == ids && walks.duration == 3 * 60.5)
                #expect(abs(walks.created.timeIntervalSinceNow) < 60 && walks.updated == walks.created)
                let empty = try await store.createPlaylist(name: "ümlaut first")
                #expect(empty.episodeIDs.isEmpty)
                let chores = try await store.createPlaylist(name: "chores")
                // Ordered by name ignoring case.
                #expect(try await store.playlists().map(\.name) == ["chores", "ümlaut first", "Walks"].sorted { $0.lowercased() < $1.lowercased() })
                try await store.renamePlaylist(id: chores.id, to: "Zebra\ncrossing")
                #expect(try await store.playlist(id: chores.id)?.name == "Zebra crossing")
                try await store.deletePlaylist(id: empty.id)
                #expect(try await store.playlist(id: empty.id) == nil)
                await #expect(throws: PlaylistError.playlistNotFound(empty.id)) { try await store.deletePlaylist(id: empty.id) }
                await #expect(throws: PlaylistError.playlistNotFound(empty.id)) { try await store.renamePlaylist(id: empty.id, to: "x") }
                kept = walks.id
            }
            let reopened = try LibraryStore(path: path)
            let lists = try await reopened.playlists()
            #expect(lists.map(\.name) == ["Walks", "Zebra crossing"])
            #expect(lists.first { $0.id == kept }?.episodeIDs == ids)
            let (playlist, episodes) = try #require(try await reopened.playlistWithEpisodes(id: kept))
            #expect(playlist.episodeIDs == ids && episodes.map(\.id) == ids)
            #expect(episodes.first?.title == "Title a2" && episodes.first?.podcastTitle == "A")
        }
    }

    @Test("names: unique ignoring case and Unicode form; a rename may change case; bad names refused")
    func names() async throws {
        try await withStore { store, _ in
            let cafe = try await store.createPlaylist(name: "Café")
            await #expect(throws: PlaylistError.nameTaken("CAFE\u{301}")) { try await store.createPlaylist(name: "CAFE\u{301}") }
            try await store.renamePlaylist(id: cafe.id, to: "CAFÉ")
            #expect(try await store.playlist(id: cafe.id)?.name == "CAFÉ")
            let other = try await store.createPlaylist(name: "Other")
            await #expect(throws: PlaylistError.nameTaken("café")) { try await store.renamePlaylist(id: other.id, to: "café") }
            await #expect(throws: PlaylistError.invalidName("a playlist needs a name")) { try await store.createPlaylist(name: "\t") }
            await #expect(throws: PlaylistError.self) { try await store.renamePlaylist(id: other.id, to: String(repeating: "x", count: 101)) }
            #expect(try await store.playlists().map(\.name) == ["CAFÉ", "Other"])
        }
    }

    @Test("add appends; an episode already there stays put; bad ids add nothing at all")
    func add() async throws {
        try await withStore { store, _ in
            let s = try await Self.seeded(store)
            let list = try await store.createPlaylist(name: "L", episodes: [s.aIDs[0]])
            #expect(try await store.addToPlaylist(id: list.id, episodes: [s.aIDs[1], s.bIDs[0]]) == [s.aIDs[1], s.bIDs[0]])
            #expect(try await store.addToPlaylist(id: list.id, episodes: [s.aIDs[0], s.bIDs[1], s.bIDs[1]]) == [s.bIDs[1]])
            let expected = [s.aIDs[0], s.aIDs[1], s.bIDs[0], s.bIDs[1]]
            #expect(try await store.playlist(id: list.id)?.episodeIDs == expected)
            await #expect(throws: PlaylistError.episodeNotFound(999_999)) {
                try await store.addToPlaylist(id: list.id, episodes: [s.aIDs[3], 999_999])
            }
            await #expect(throws: PlaylistError.playlistNotFound(999)) { try await store.addToPlaylist(id: 999, episodes: [s.aIDs[3]]) }
            await #expect(throws: PlaylistError.episodeNotFound(999_999)) { try await store.createPlaylist(name: "M", episodes: [999_999]) }
            #expect(try await store.playlist(id: list.id)?.episodeIDs == expected, "the failed add changed nothing")
            #expect(try await store.playlists().map(\.name) == ["L"], "the failed create left no playlist")
        }
    }

    @Test("remove and move; errors for what is not there")
    func removeAndMove() async throws {
        try await withStore { store, _ in
            let s = try await Self.seeded(store)
            let ids = s.aIDs
            let list = try await store.createPlaylist(name: "L", episodes: ids)
            try await store.movePlaylistItem(id: list.id, from: 0, to: 3)
            #expect(try await store.playlist(id: list.id)?.episodeIDs == [ids[1], ids[2], ids[3], ids[0]])
            try await store.movePlaylistItem(id: list.id, from: 2, to: 0)
            #expect(try await store.playlist(id: list.id)?.episodeIDs == [ids[3], ids[1], ids[2], ids[0]])
            await #expect(throws: PlaylistError.noPosition(4, count: 4)) { try await store.movePlaylistItem(id: list.id, from: 4, to: 0) }
            try await store.removeFromPlaylist(id: list.id, episode: ids[1])
            #expect(try await store.playlist(id: list.id)?.episodeIDs == [ids[3], ids[2], ids[0]])
            await #expect(throws: PlaylistError.notInPlaylist(episode: ids[1], playlist: list.id)) {
                try await store.removeFromPlaylist(id: list.id, episode: ids[1])
            }
            // Adding after a remove goes to the end, never between.
            try await store.addToPlaylist(id: list.id, episodes: [ids[1]])
            #expect(try await store.playlist(id: list.id)?.episodeIDs == [ids[3], ids[2], ids[0], ids[1]])
            let positions = try await store.withDatabase { db in
                try db.fetchAll("SELECT position FROM playlist_items WHERE playlist_id = ? ORDER BY position", [list.id]) { $0.int64(at: 0) }
            }
            #expect(positions == [0, 1, 2, 3])
        }
    }

    /// Unsubscribing hides a podcast's episodes in playlists without losing them: they are not
    /// listed or counted, moves step around them, and subscribing again shows them in place.
    @Test("an unsubscribed podcast's episodes are hidden, kept in place, and come back")
    func unsubscribe() async throws {
        try await withStore { store, _ in
            let s = try await Self.seeded(store)
            let all = [s.aIDs[0], s.bIDs[0], s.aIDs[1], s.bIDs[1], s.aIDs[2]]
            let list = try await store.createPlaylist(name: "Mixed", episodes: all)
            try await store.unsubscribe(podcastID: s.b.id)
            let hidden = try #require(try await store.playlist(id: list.id))
            #expect(hidden.episodeIDs == [s.aIDs[0], s.aIDs[1], s.aIDs[2]] && hidden.duration == 3 * 60.5)
            #expect(try await store.playlistWithEpisodes(id: list.id)?.episodes.map(\.id) == hidden.episodeIDs)
            #expect(try await store.playlists().first?.episodeIDs == hidden.episodeIDs)
            await #expect(throws: PlaylistError.notSubscribed(s.bIDs[2])) { try await store.addToPlaylist(id: list.id, episodes: [s.bIDs[2]]) }
            // Move the first shown to the end of what is shown: B's episodes keep their slots.
            try await store.movePlaylistItem(id: list.id, from: 0, to: 2)
            await #expect(throws: PlaylistError.noPosition(3, count: 3)) { try await store.movePlaylistItem(id: list.id, from: 3, to: 0) }
            try await store.subscribe(feedURL: "https://example.org/b.xml", content: feed("B", items: 4, prefix: "b"))
            #expect(try await store.playlist(id: list.id)?.episodeIDs == [s.aIDs[1], s.bIDs[0], s.aIDs[2], s.bIDs[1], s.aIDs[0]])
        }
    }

    @Test("deleting a playlist takes its items, never the episodes")
    func deleteCascades() async throws {
        try await withStore { store, _ in
            let s = try await Self.seeded(store)
            let list = try await store.createPlaylist(name: "L", episodes: s.aIDs)
            try await store.createPlaylist(name: "M", episodes: [s.aIDs[0]])
            try await store.deletePlaylist(id: list.id)
            let rows = try await store.withDatabase { db in
                try db.fetchOne("SELECT count(*) FROM playlist_items") { $0.int64(at: 0) }
            }
            #expect(rows == 1)
            #expect(try await store.episodes(podcastID: s.a.id).count == 4)
            #expect(try await store.playlists().map(\.episodeIDs) == [[s.aIDs[0]]])
        }
    }

    @Test("a library from before playlists gains them and keeps everything else")
    func migratesOldLibrary() async throws {
        try await withDirectory { dir in
            let path = dir.file("library.sqlite").path
            do {
                let db = try libraryWithout("v3-playlists", at: path)
                let tables = try db.fetchAll("SELECT name FROM sqlite_schema WHERE type = 'table'") { $0.string(at: 0) }
                #expect(!tables.contains("playlists"))
                try db.run("INSERT INTO podcasts(feed_url, title, added_at, updated_at) VALUES('https://example.org/old', 'Old', 0, 0)")
                try db.run("INSERT INTO episodes(podcast_id, guid, title, media_url) VALUES(1, 'g', 'Kept', 'https://example.org/1.mp3')")
            }
            let store = try LibraryStore(path: path)
            let episode = try #require(try await store.episodes(podcastID: 1).first)
            #expect(episode.title == "Kept")
            let list = try await store.createPlaylist(name: "New", episodes: [episode.id])
            #expect(list.episodeIDs == [episode.id])
        }
    }

    @Test("playlist reads walk the position index, with no sort step")
    func queryPlans() async throws {
        try await withStore { store, _ in
            let s = try await Self.seeded(store)
            try await store.createPlaylist(name: "L", episodes: s.aIDs + s.bIDs)
            let plans = try await store.withDatabase { db in
                let queries: [(String, [any StatementBindable])] = [
                    (PlaylistSQL.shownItems, []), (PlaylistSQL.shownItemsOfPlaylist, [1]),
                    (PlaylistSQL.episodesOfPlaylist, [1]), (PlaylistSQL.allItems, [1]),
                ]
                return try queries.map { sql, arguments in
                    try db.fetchAll("EXPLAIN QUERY PLAN " + sql, arguments) { $0.string(at: 3) }.joined(separator: " | ")
                }
            }
            for plan in plans {
                #expect(plan.contains("playlist_items_by_position"), "\(plan)")
                #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
            }
        }
    }
}
