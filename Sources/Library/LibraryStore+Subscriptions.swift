import EarshotCore
import Foundation

extension LibraryStore {
    /// Stores what a feed says: inserts the podcast or updates it (matched by `feedURL`), and inserts or
    /// updates each item (matched by podcast and guid), all in one transaction.
    ///
    /// The listener's position and played state survive; episodes the feed no longer lists are kept,
    /// since feeds often show only their latest items. Returns the podcast with its episode count.
    @discardableResult
    public func subscribe(feedURL: String, content: FeedContent) throws -> Podcast {
        let now = Date()
        let id = try database.transaction { () throws -> Int64 in
            guard let id = try database.fetchOne(LibrarySQL.upsertPodcast, [
                feedURL, content.title, content.author, content.summary, content.artworkURL, content.link, now,
            ], row: { $0.int64(at: 0) }) else {
                throw DatabaseError(code: DatabaseError.genericError, message: "the podcast upsert returned no id",
                                    sql: LibrarySQL.upsertPodcast)
            }
            let upsert = try database.cachedStatement(LibrarySQL.upsertEpisode)
            defer { upsert.reset() }
            for item in content.items {
                upsert.reset()
                try upsert.bind([
                    id, item.guid, item.title, item.summary, item.enclosureURL, item.enclosureType,
                    item.enclosureLength, item.duration, item.published, item.artworkURL, item.link,
                ])
                try upsert.step()
            }
            return id
        }
        guard let podcast = try podcast(id: id) else {
            throw DatabaseError(code: DatabaseError.genericError, message: "podcast \(id) vanished after saving",
                                sql: LibrarySQL.podcastByID)
        }
        return podcast
    }
}
