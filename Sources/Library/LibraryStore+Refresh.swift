import EarshotCore
import Foundation

/// What refreshing one subscribed feed starts from: where it is and the validators of the last fetch.
public struct FeedToRefresh: Sendable, Equatable {
    public var podcastID: Int64
    public var feedURL: String
    public var title: String
    /// `ETag` and `Last-Modified` exactly as the server last sent them, for a conditional GET.
    public var etag: String?
    public var lastModified: String?

    public init(podcastID: Int64, feedURL: String, title: String, etag: String? = nil, lastModified: String? = nil) {
        self.podcastID = podcastID; self.feedURL = feedURL; self.title = title
        self.etag = etag; self.lastModified = lastModified
    }
}

extension LibraryStore {
    /// Every subscribed feed, oldest subscription first.
    public func feedsToRefresh() throws -> [FeedToRefresh] {
        try database.fetchAll(LibrarySQL.feedsToRefresh) { FeedToRefresh(row: $0) }
    }

    /// The subscribed feed of podcast `podcastID`, or nil.
    public func feedToRefresh(podcastID: Int64) throws -> FeedToRefresh? {
        try database.fetchOne(LibrarySQL.feedToRefresh, [podcastID]) { FeedToRefresh(row: $0) }
    }

    /// Stores a refreshed feed into podcast `podcastID` in one transaction: its fields, details,
    /// warnings and the new validators; items merged as `mergeEpisodes` says; status ok.
    /// Returns false (and stores nothing) when the podcast was unsubscribed meanwhile.
    @discardableResult
    public func storeRefresh(podcastID: Int64, content: FeedContent, etag: String?, lastModified: String?) throws -> Bool {
        try database.transaction {
            guard try updateRefreshedPodcast(podcastID, content, etag: etag, lastModified: lastModified) else { return false }
            try welcome(try mergeEpisodes(podcastID: podcastID, items: content.items), firstSubscription: false, at: Date())
            return true
        }
    }

    /// Rewrites a subscribed podcast's fields, details, warnings and validators from a refreshed feed, its
    /// status ok; false when it is not subscribed (nothing written).
    func updateRefreshedPodcast(_ podcastID: Int64, _ content: FeedContent, etag: String?, lastModified: String?) throws -> Bool {
        try database.run(LibrarySQL.updateRefreshedPodcast, [
            podcastID, content.title, content.author, content.summary, content.artworkURL, content.link, Date(),
            try LibraryJSON.encode(content.details), try LibraryJSON.warnings(content.warnings), etag, lastModified,
        ])
        return database.changes > 0
    }

    /// Records a `304 Not Modified`: nothing about the feed is rewritten; the status turns ok, the
    /// refresh time moves on, and a validator the 304 carried replaces the stored one.
    public func markNotModified(podcastID: Int64, etag: String?, lastModified: String?) throws {
        try database.run(LibrarySQL.markNotModified, [podcastID, Date(), etag, lastModified])
    }

    /// Records a failed refresh (`status` `.error` or `.gone`) with a message for the listener.
    /// The podcast's episodes and last good content stay.
    public func markFailed(podcastID: Int64, status: Podcast.Status, message: String) throws {
        try database.run(LibrarySQL.markFailed, [podcastID, status.rawValue, message])
    }

    /// Moves the subscription to `feedURL` (a permanent redirect, `itunes:new-feed-url`), unless a
    /// podcast already has that address. `keepingValidators` false forgets the stored ETag and
    /// Last-Modified, which describe the old address. Returns whether it moved.
    @discardableResult
    public func moveFeed(podcastID: Int64, to feedURL: String, keepingValidators: Bool) throws -> Bool {
        try database.run(LibrarySQL.moveFeed, [podcastID, feedURL, !keepingValidators])
        return database.changes > 0
    }
}

extension FeedToRefresh {
    /// Reads a row of `LibrarySQL.feedsToRefresh`.
    init(row: Statement) {
        self.init(podcastID: row.int64(at: 0), feedURL: row.string(at: 1), title: row.string(at: 2),
                  etag: row.optionalString(at: 3), lastModified: row.optionalString(at: 4))
    }
}
