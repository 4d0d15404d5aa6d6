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
            try storeWhole(content, at: FeedAddress(feedURL: feedURL, etag: etag, lastModified: lastModified), now)
        }
        return try savedPodcast(id)
    }

    /// Where a feed read by `subscribe(feedURL:parsing:settle:)` is stored, and the validators to keep.
    public struct FeedAddress: Sendable, Equatable {
        public var feedURL: String
        public var etag: String?
        public var lastModified: String?

        public init(feedURL: String, etag: String?, lastModified: String?) {
            self.feedURL = feedURL
            self.etag = etag
            self.lastModified = lastModified
        }
    }

    /// The podcast a streamed feed names as its new address is one the library has already: nothing
    /// was stored (`subscribe(feedURL:parsing:settle:)` returns nil).
    private struct AlreadyThere: Error {}

    /// Subscribes to a feed while it is parsed, for a large one: `parse` reads the document, handing its
    /// items to the sink it is given, and they are stored (and indexed) batch by batch, so a
    /// 60,000-item feed is never held whole. Once it is read, `settle` sees the feed (without its items;
    /// it may fill in a missing title) and says where it goes: `feedURL`, or where it says it moved,
    /// with the validators to keep. One transaction: a parse or store that fails leaves nothing.
    ///
    /// Returns nil, storing nothing, when the address `settle` names differs from `feedURL` and the
    /// library has a podcast there (the caller refreshes or subscribes that one). A podcast the library
    /// knows at `feedURL` (unsubscribed, its episodes kept) is revived as `subscribe(feedURL:content:)`
    /// does, its items collected first: matching a changed guid needs all the feed's.
    public func subscribe(feedURL: String, parsing parse: @Sendable (any FeedItemSink) throws -> FeedContent,
                          settle: @Sendable (inout FeedContent) -> FeedAddress) throws -> Podcast? {
        let now = Date()
        let id: Int64
        do {
            id = try database.transaction { () throws -> Int64 in
                if try isKnown(feedURL) {
                    var collected: [FeedItem] = []
                    var content = try parse(FeedItemHandler(take: { collected += $0 }, restart: { collected = [] }))
                    content.items = collected
                    let address = settle(&content)
                    if address.feedURL != feedURL, try isKnown(address.feedURL) { throw AlreadyThere() }
                    return try storeWhole(content, at: address, now)
                }
                // A row to hang the episodes on, completed once the feed is read.
                let id = try upsertPodcast(feedURL: feedURL, content: FeedContent(title: feedURL, author: "", summary: ""),
                                           etag: nil, lastModified: nil, at: now)
                var state = EpisodeMerge(streamingInto: id)
                // Not a savepoint to roll back to: with one open, every statement that writes the search
                // index makes FTS5 flush its pending terms (many small segments, merged again: make
                // bench measured the subscription 40 % slower). The podcast had no episodes before.
                var content = try parse(FeedItemHandler(take: { try self.merge($0, into: &state) }, restart: {
                    try self.database.run("DELETE FROM episodes WHERE podcast_id = ?", [id])
                    state = EpisodeMerge(streamingInto: id)
                }))
                let address = settle(&content)
                if address.feedURL != feedURL {
                    if try isKnown(address.feedURL) { throw AlreadyThere() }
                    try database.run("UPDATE podcasts SET feed_url = ? WHERE id = ?", [address.feedURL, id])
                }
                _ = try upsertPodcast(feedURL: address.feedURL, content: content, etag: address.etag,
                                      lastModified: address.lastModified, at: now)
                try welcome(state.inserted, firstSubscription: true, at: now)
                return id
            }
        } catch is AlreadyThere {
            return nil
        }
        return try savedPodcast(id)
    }

    /// Stores a whole parsed feed at `address`, on the caller's transaction: the podcast inserted or
    /// updated (revived), its items merged, the new ones welcomed into the Inbox. Its id.
    private func storeWhole(_ content: FeedContent, at address: FeedAddress, _ now: Date) throws -> Int64 {
        let known = try isKnown(address.feedURL)
        let id = try upsertPodcast(feedURL: address.feedURL, content: content, etag: address.etag,
                                   lastModified: address.lastModified, at: now)
        try welcome(try mergeEpisodes(podcastID: id, items: content.items), firstSubscription: !known, at: now)
        return id
    }

    /// Whether the library has a podcast at `feedURL`, subscribed or not.
    private func isKnown(_ feedURL: String) throws -> Bool {
        try database.fetchOne("SELECT 1 FROM podcasts WHERE feed_url = ?", [feedURL]) { _ in true } != nil
    }

    /// Inserts the podcast at `feedURL`, or updates (and revives) the one there: its id.
    private func upsertPodcast(feedURL: String, content: FeedContent, etag: String?, lastModified: String?,
                               at now: Date) throws -> Int64 {
        guard let id = try database.fetchOne(LibrarySQL.upsertPodcast, [
            feedURL, content.title, content.author, content.summary, content.artworkURL, content.link, now,
            try LibraryJSON.encode(content.details), try LibraryJSON.warnings(content.warnings), etag, lastModified,
        ], row: { $0.int64(at: 0) }) else {
            throw DatabaseError(code: DatabaseError.genericError, message: "the podcast upsert returned no id",
                                sql: LibrarySQL.upsertPodcast)
        }
        return id
    }

    private func savedPodcast(_ id: Int64) throws -> Podcast {
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
