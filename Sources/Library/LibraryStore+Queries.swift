import EarshotCore
import Foundation

extension LibraryStore {
    /// Every subscribed podcast with its episode count, ordered by title ignoring case (then by id).
    public func podcasts() throws -> [Podcast] {
        let podcasts = try database.fetchAll(LibrarySQL.allPodcasts) { Podcast(row: $0) }
        // Sorted here rather than by SQLite's NOCASE, which folds only ASCII letters ("Élan" vs "élan").
        let keyed = podcasts.map { (key: $0.title.lowercased(), podcast: $0) }
        return keyed.sorted { a, b in
            a.key != b.key ? a.key < b.key : a.podcast.id < b.podcast.id
        }.map(\.podcast)
    }

    /// The subscribed podcast with this id, with its details, or nil.
    public func podcast(id: Int64) throws -> Podcast? {
        try database.fetchOne(LibrarySQL.podcastByID, [id]) { row in
            var podcast = Podcast(row: row)
            podcast.details = LibraryJSON.decode(PodcastDetails.self, from: row.optionalString(at: 12))
            return podcast
        }
    }

    /// Whether a subscribed podcast has this id: one row by its key (`podcast(id:)` also counts its
    /// episodes, 2 to 3 ms for 60,000 of them, which a page of its list has no use for).
    public func isSubscribed(podcastID: Int64) throws -> Bool {
        try database.fetchOne("SELECT 1 FROM podcasts WHERE id = ? AND subscribed = 1", [podcastID]) { _ in true } ?? false
    }

    /// The subscribed podcast at this feed URL (exactly as stored), or nil.
    public func podcast(feedURL: String) throws -> Podcast? {
        try database.fetchOne(LibrarySQL.podcastByFeedURL, [feedURL]) { Podcast(row: $0) }
    }

    /// A subscribed podcast's episodes, newest first; episodes without a date come last.
    public func episodes(podcastID: Int64, limit: Int = 500) throws -> [Episode] {
        try database.fetchAll(LibrarySQL.episodesOfPodcast, [podcastID, limit]) { Episode(row: $0) }
    }

    /// The newest episodes across all subscribed podcasts; episodes without a date come last.
    public func recentEpisodes(limit: Int = 100) throws -> [Episode] {
        try database.fetchAll(LibrarySQL.recentEpisodes, [limit]) { Episode(row: $0) }
    }

    /// The episode with this id, with its details, or nil. Found even when its podcast was
    /// unsubscribed: the player may hold it, and its position is kept.
    public func episode(id: Int64) throws -> Episode? {
        try database.fetchOne(LibrarySQL.episodeByID, [id]) { row in
            var episode = Episode(row: row)
            episode.details = LibraryJSON.decode(EpisodeDetails.self, from: row.optionalString(at: 15))
            return episode
        }
    }

    /// What "play" with nothing loaded and nothing queued should mean: the unfinished episode
    /// listened to last, else the newest unplayed one of a subscribed podcast.
    public func episodeToPlayOn() throws -> Int64? {
        if let last = try database.fetchOne("""
            SELECT e.id FROM episodes e JOIN podcasts p ON p.id = e.podcast_id
            WHERE p.subscribed = 1 AND e.played = 0 AND e.position > 0 AND e.position_updated_at IS NOT NULL
            ORDER BY e.position_updated_at DESC LIMIT 1
            """, [], row: { $0.int64(at: 0) }) { return last }
        return try database.fetchOne("""
            SELECT e.id FROM episodes e JOIN podcasts p ON p.id = e.podcast_id
            WHERE p.subscribed = 1 AND e.played = 0 ORDER BY e.published DESC, e.id DESC LIMIT 1
            """, [], row: { $0.int64(at: 0) })
    }

    /// The newest episode whose enclosure is `mediaURL` (what a desktop's "open this address" names).
    public func episodeID(mediaURL: String) throws -> Int64? {
        try database.fetchOne("SELECT id FROM episodes WHERE media_url = ? ORDER BY id DESC LIMIT 1", [mediaURL]) { $0.int64(at: 0) }
    }
}

extension Podcast {
    /// Reads a row of `LibrarySQL.podcastFields`.
    init(row: Statement) {
        self.init(id: row.int64(at: 0), feedURL: row.string(at: 1), title: row.string(at: 2),
                  author: row.string(at: 3), summary: row.string(at: 4), artworkURL: row.optionalString(at: 5),
                  link: row.optionalString(at: 6), episodeCount: Int(row.int64(at: 7)),
                  status: Podcast.Status(rawValue: row.string(at: 8)) ?? .ok, error: row.optionalString(at: 9),
                  refreshedAt: row.date(at: 10),
                  warnings: LibraryJSON.decode([String].self, from: row.optionalString(at: 11)) ?? [])
    }
}

extension Episode {
    /// Reads a row of `LibrarySQL.episodeFields`.
    init(row: Statement) {
        self.init(id: row.int64(at: 0), podcastID: row.int64(at: 1), podcastTitle: row.string(at: 2),
                  guid: row.string(at: 3), title: row.string(at: 4), summary: row.string(at: 5),
                  mediaURL: row.string(at: 6), mediaType: row.string(at: 7), mediaLength: row.int64(at: 8),
                  duration: row.double(at: 9), published: row.date(at: 10), artworkURL: row.optionalString(at: 11),
                  position: row.double(at: 12), played: row.bool(at: 13), inInbox: row.bool(at: 14))
    }
}
