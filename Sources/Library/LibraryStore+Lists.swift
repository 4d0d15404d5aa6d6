import EarshotCore
import Foundation

/// One page of a list, and whether more follow.
public struct EpisodePage: Sendable, Equatable {
    public var episodes: [Episode]
    public var more: Bool
    /// How many the whole list holds (the Inbox counts; other lists leave it nil).
    public var total: Int?
    public init(episodes: [Episode], more: Bool, total: Int? = nil) { self.episodes = episodes; self.more = more; self.total = total }
}

extension LibraryStore {
    /// A page of episodes as `query` asks: filtered, sorted, one podcast or all (subscribed only).
    public func episodes(_ query: EpisodeQuery) throws -> EpisodePage {
        // One row beyond the page says whether there is more, without counting them all.
        let rows = try database.fetchAll(EpisodeListSQL.list(query), [query.podcast ?? 0, query.limit + 1, query.offset]) { Episode(row: $0) }
        return EpisodePage(episodes: Array(rows.prefix(query.limit)), more: rows.count > query.limit)
    }

    /// The Inbox: episodes that arrived and were not yet queued, played or dismissed; newest first.
    public func inbox(offset: Int = 0, limit: Int = EpisodeQuery.defaultLimit) throws -> EpisodePage {
        try database.transaction {
            let rows = try database.fetchAll(EpisodeListSQL.inbox, [limit + 1, offset]) { Episode(row: $0) }
            let total = try database.fetchOne(EpisodeListSQL.inboxCount) { Int($0.int64(at: 0)) } ?? 0
            return EpisodePage(episodes: Array(rows.prefix(limit)), more: rows.count > limit, total: total)
        }
    }

    /// Whether the episode is in the Inbox (false for an unknown one): one indexed column, no details read.
    public func isInInbox(episodeID: Int64) throws -> Bool {
        try database.fetchOne("SELECT inbox_at IS NOT NULL FROM episodes WHERE id = ?", [episodeID]) { $0.bool(at: 0) } ?? false
    }

    /// Takes an episode out of the Inbox (dismissed, or queued). Returns whether it was in it.
    @discardableResult
    public func leaveInbox(episodeID: Int64) throws -> Bool {
        try database.run(EpisodeListSQL.leaveInbox, [episodeID])
        return database.changes > 0
    }

    /// Empties the Inbox. Returns how many episodes left it.
    @discardableResult
    public func clearInbox() throws -> Int {
        try database.run(EpisodeListSQL.clearInbox)
        return database.changes
    }
}
