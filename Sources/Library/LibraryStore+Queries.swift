import EarshotCore
import Foundation

extension LibraryStore {
    /// Every podcast with its episode count, ordered by title ignoring case (then by id).
    public func podcasts() throws -> [Podcast] {
        let podcasts = try database.fetchAll(LibrarySQL.allPodcasts) { Podcast(row: $0) }
        // Sorted here rather than by SQLite's NOCASE, which folds only ASCII letters ("Élan" vs "élan").
        let keyed = podcasts.map { (key: $0.title.lowercased(), podcast: $0) }
        return keyed.sorted { a, b in
            a.key != b.key ? a.key < b.key : a.podcast.id < b.podcast.id
        }.map(\.podcast)
    }

    /// The podcast with this id, or nil.
    public func podcast(id: Int64) throws -> Podcast? {
        try database.fetchOne(LibrarySQL.podcastByID, [id]) { Podcast(row: $0) }
    }

    /// The podcast subscribed at this feed URL (exactly as given at subscription), or nil.
    public func podcast(feedURL: String) throws -> Podcast? {
        try database.fetchOne(LibrarySQL.podcastByFeedURL, [feedURL]) { Podcast(row: $0) }
    }

    /// A podcast's episodes, newest first; episodes without a date come last.
    public func episodes(podcastID: Int64, limit: Int = 500) throws -> [Episode] {
        try database.fetchAll(LibrarySQL.episodesOfPodcast, [podcastID, limit]) { Episode(row: $0) }
    }

    /// The newest episodes across all podcasts; episodes without a date come last.
    public func recentEpisodes(limit: Int = 100) throws -> [Episode] {
        try database.fetchAll(LibrarySQL.recentEpisodes, [limit]) { Episode(row: $0) }
    }

    /// The episode with this id, or nil.
    public func episode(id: Int64) throws -> Episode? {
        try database.fetchOne(LibrarySQL.episodeByID, [id]) { Episode(row: $0) }
    }
}

extension Podcast {
    /// Reads a row of `LibrarySQL.podcastColumns`.
    init(row: Statement) {
        self.init(id: row.int64(at: 0), feedURL: row.string(at: 1), title: row.string(at: 2),
                  author: row.string(at: 3), summary: row.string(at: 4), artworkURL: row.optionalString(at: 5),
                  link: row.optionalString(at: 6), episodeCount: Int(row.int64(at: 7)))
    }
}

extension Episode {
    /// Reads a row of `LibrarySQL.episodeColumns`.
    init(row: Statement) {
        self.init(id: row.int64(at: 0), podcastID: row.int64(at: 1), podcastTitle: row.string(at: 2),
                  guid: row.string(at: 3), title: row.string(at: 4), summary: row.string(at: 5),
                  mediaURL: row.string(at: 6), mediaType: row.string(at: 7), mediaLength: row.int64(at: 8),
                  duration: row.double(at: 9), published: row.date(at: 10), artworkURL: row.optionalString(at: 11),
                  position: row.double(at: 12), played: row.bool(at: 13))
    }
}
