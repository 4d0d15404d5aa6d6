import EarshotCore
import Foundation

/// Named playlists: create, rename, delete, add, remove, move, and reading them back.
///
/// A playlist shows the episodes of subscribed podcasts only. Unsubscribing keeps a podcast's
/// episodes in every playlist, hidden (not listed, not counted, not played), so subscribing again
/// brings them back where they were — the way positions and played state survive. Every edit
/// reads the playlist into a `PlaylistOrder`, lets it decide, and writes the order back in one
/// transaction.
extension LibraryStore {
    // MARK: Reading

    /// Every playlist, ordered by name ignoring case, each with the episodes it shows.
    public func playlists() throws -> [Playlist] {
        var shown: [Int64: (ids: [Int64], duration: Double)] = [:]
        _ = try database.fetchAll(PlaylistSQL.shownItems) { row in
            shown[row.int64(at: 0), default: ([], 0)].ids.append(row.int64(at: 1))
            shown[row.int64(at: 0), default: ([], 0)].duration += row.double(at: 2)
        }
        return try database.fetchAll(PlaylistSQL.allPlaylists) { Playlist(row: $0) }.map { playlist in
            var playlist = playlist
            playlist.episodeIDs = shown[playlist.id]?.ids ?? []
            playlist.duration = shown[playlist.id]?.duration ?? 0
            return playlist
        }
    }

    /// The playlist with this id and the episodes it shows, or nil.
    public func playlist(id: Int64) throws -> Playlist? {
        guard var playlist = try database.fetchOne(PlaylistSQL.playlistByID, [id], row: { Playlist(row: $0) })
        else { return nil }
        _ = try database.fetchAll(PlaylistSQL.shownItemsOfPlaylist, [id]) { row in
            playlist.episodeIDs.append(row.int64(at: 1))
            playlist.duration += row.double(at: 2)
        }
        return playlist
    }

    /// The playlist with this id and its shown episodes in order (as in every other list), or nil.
    public func playlistWithEpisodes(id: Int64) throws -> (playlist: Playlist, episodes: [Episode])? {
        try database.transaction { () throws -> (playlist: Playlist, episodes: [Episode])? in
            guard let playlist = try playlist(id: id) else { return nil }
            return (playlist, try database.fetchAll(PlaylistSQL.episodesOfPlaylist, [id]) { Episode(row: $0) })
        }
    }

    // MARK: Editing

    /// Creates a playlist named `name` (cleaned by `PlaylistName`; no other playlist may have it,
    /// ignoring case) holding `episodes` in that order. Returns it.
    @discardableResult
    public func createPlaylist(name: String, episodes: [Int64] = []) throws -> Playlist {
        let (name, key) = try cleanName(name, for: nil)
        let now = Date()
        let id = try database.transaction { () throws -> Int64 in
            try requireAddable(episodes)
            guard let id = try database.fetchOne(PlaylistSQL.insertPlaylist, [name, key, now], row: { $0.int64(at: 0) })
            else { throw DatabaseError(code: DatabaseError.genericError, message: "no id for the new playlist", sql: PlaylistSQL.insertPlaylist) }
            try write(PlaylistOrder(episodes), to: id, at: now)
            return id
        }
        guard let playlist = try playlist(id: id) else { throw PlaylistError.playlistNotFound(id) }
        return playlist
    }

    /// Renames a playlist (the same cleaning and uniqueness as `createPlaylist`; a change of case
    /// alone is allowed).
    public func renamePlaylist(id: Int64, to name: String) throws {
        let (name, key) = try cleanName(name, for: id)
        try database.run(PlaylistSQL.renamePlaylist, [id, name, key, Date()])
        if database.changes == 0 { throw PlaylistError.playlistNotFound(id) }
    }

    /// Deletes a playlist and its items (never the episodes).
    public func deletePlaylist(id: Int64) throws {
        try database.run(PlaylistSQL.deletePlaylist, [id])
        if database.changes == 0 { throw PlaylistError.playlistNotFound(id) }
    }

    /// Appends `episodes` to a playlist. One already there stays where it is (no duplicates), so
    /// adding twice is harmless. Every id must be an episode of a subscribed podcast, or nothing
    /// is added. Returns the ids actually added.
    @discardableResult
    public func addToPlaylist(id: Int64, episodes: [Int64]) throws -> [Int64] {
        try database.transaction {
            var (order, _) = try items(of: id)
            try requireAddable(episodes)
            let added = order.add(episodes)
            if !added.isEmpty { try write(order, to: id) }
            return added
        }
    }

    /// Takes an episode out of a playlist.
    public func removeFromPlaylist(id: Int64, episode: Int64) throws {
        try database.transaction {
            var (order, _) = try items(of: id)
            guard order.remove(episode) else { throw PlaylistError.notInPlaylist(episode: episode, playlist: id) }
            try write(order, to: id)
        }
    }

    /// Moves the episode shown at position `from` to position `to` (0-based, among the episodes the
    /// playlist shows); hidden episodes keep their places.
    public func movePlaylistItem(id: Int64, from: Int, to: Int) throws {
        try database.transaction {
            var (order, hidden) = try items(of: id)
            guard order.move(from: from, to: to, isShown: { !hidden.contains($0) }) else {
                throw PlaylistError.noPosition(max(from, to), count: order.count - hidden.count)
            }
            try write(order, to: id)
        }
    }

    // MARK: Helpers

    /// The name as stored and its uniqueness key, checked against every playlist but `id`.
    private func cleanName(_ raw: String, for id: Int64?) throws -> (name: String, key: String) {
        let name: String
        do { name = try PlaylistName.clean(raw) } catch { throw PlaylistError.invalidName(error.message) }
        let key = PlaylistName.key(name)
        if try database.fetchOne(PlaylistSQL.playlistWithKey, [key, id], row: { _ in true }) ?? false {
            throw PlaylistError.nameTaken(name)
        }
        return (name, key)
    }

    /// Every item of a playlist in order, and which of them are hidden. Throws when there is no
    /// such playlist.
    private func items(of id: Int64) throws -> (order: PlaylistOrder, hidden: Set<Int64>) {
        guard try database.fetchOne(PlaylistSQL.playlistByID, [id], row: { _ in true }) ?? false else {
            throw PlaylistError.playlistNotFound(id)
        }
        var hidden = Set<Int64>()
        let ids = try database.fetchAll(PlaylistSQL.allItems, [id]) { row -> Int64 in
            if !row.bool(at: 1) { hidden.insert(row.int64(at: 0)) }
            return row.int64(at: 0)
        }
        return (PlaylistOrder(ids), hidden)
    }

    /// Throws unless every id is an episode of a subscribed podcast (what a playlist can show).
    private func requireAddable(_ episodes: [Int64]) throws {
        for episode in Set(episodes) {
            switch try database.fetchOne(PlaylistSQL.episodeSubscribed, [episode], row: { $0.bool(at: 0) }) {
            case nil: throw PlaylistError.episodeNotFound(episode)
            case false?: throw PlaylistError.notSubscribed(episode)
            case true?: continue
            }
        }
    }

    /// Stores `order` as the playlist's items, positions 0…n-1, and marks it changed `at`.
    private func write(_ order: PlaylistOrder, to id: Int64, at now: Date = Date()) throws {
        try database.run(PlaylistSQL.clearItems, [id])
        for (position, episode) in order.items.enumerated() {
            try database.run(PlaylistSQL.insertItem, [id, position, episode])
        }
        try database.run(PlaylistSQL.touchPlaylist, [id, now])
    }
}

/// A playlist request that cannot be carried out; `description` is what a client is told.
public enum PlaylistError: Error, Sendable, Equatable, CustomStringConvertible {
    case playlistNotFound(Int64)
    case invalidName(String)
    case nameTaken(String)
    case episodeNotFound(Int64)
    /// The episode's podcast is unsubscribed: a playlist would not show it.
    case notSubscribed(Int64)
    case notInPlaylist(episode: Int64, playlist: Int64)
    /// A move to or from a position the playlist does not have (`count` shown episodes).
    case noPosition(Int, count: Int)

    public var description: String {
        switch self {
        case .playlistNotFound(let id): "no playlist with id \(id)"
        case .invalidName(let why): why
        case .nameTaken(let name): "a playlist named \"\(name)\" already exists"
        case .episodeNotFound(let id): "no episode with id \(id)"
        case .notSubscribed(let id): "episode \(id) belongs to a podcast you unsubscribed from"
        case .notInPlaylist(let episode, let playlist): "episode \(episode) is not in playlist \(playlist)"
        case .noPosition(let position, let count): "no position \(position) in a playlist of \(count) episodes"
        }
    }
}

extension Playlist {
    /// Reads a row of `PlaylistSQL.playlistFields` (episodes and duration filled in by the caller).
    init(row: Statement) {
        self.init(id: row.int64(at: 0), name: row.string(at: 1),
                  created: Date(timeIntervalSince1970: row.double(at: 2)),
                  updated: Date(timeIntervalSince1970: row.double(at: 3)))
    }
}
