import EarshotCore
import Foundation

extension LibraryStore {
    /// Stores what a freshly fetched feed says: inserts the podcast or updates the one at `feedURL`
    /// (reviving it when it had been unsubscribed), merges its items (see `mergeEpisodes`), and records
    /// the validators the fetch brought (`etag`, `lastModified`, exactly as received), all in one transaction.
    ///
    /// The listener's positions and played state survive; episodes the feed no longer lists are kept,
    /// since feeds often show only their latest items. Returns the podcast with its episode count.
    @discardableResult
    public func subscribe(feedURL: String, content: FeedContent, etag: String? = nil,
                          lastModified: String? = nil) throws -> Podcast {
        let now = Date()
        let id = try database.transaction { () throws -> Int64 in
            let known = try database.fetchOne("SELECT 1 FROM podcasts WHERE feed_url = ?", [feedURL]) { _ in true } != nil
            guard let id = try database.fetchOne(LibrarySQL.upsertPodcast, [
                feedURL, content.title, content.author, content.summary, content.artworkURL, content.link, now,
                try LibraryJSON.encode(content.details), try LibraryJSON.warnings(content.warnings), etag, lastModified,
            ], row: { $0.int64(at: 0) }) else {
                throw DatabaseError(code: DatabaseError.genericError, message: "the podcast upsert returned no id",
                                    sql: LibrarySQL.upsertPodcast)
            }
            try welcome(try mergeEpisodes(podcastID: id, items: content.items), firstSubscription: !known, at: now)
            return id
        }
        guard let podcast = try podcast(id: id) else {
            throw DatabaseError(code: DatabaseError.genericError, message: "podcast \(id) vanished after saving",
                                sql: LibrarySQL.podcastByID)
        }
        return podcast
    }

    /// Unsubscribes: the podcast and its episodes leave every list, but the rows stay, so the
    /// listener's positions and played state are there if the feed is subscribed again.
    /// Returns false when no subscribed podcast has this id.
    @discardableResult
    public func unsubscribe(podcastID: Int64) throws -> Bool {
        try database.run(LibrarySQL.unsubscribe, [podcastID])
        return database.changes > 0
    }
}
