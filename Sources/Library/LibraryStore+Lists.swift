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
    /// With `after`, the page follows that episode in the list's order; an episode the library no longer
    /// holds gives an empty page (the web server answers 400 before asking).
    public func episodes(_ query: EpisodeQuery) throws -> EpisodePage {
        // One row beyond the page says whether there is more, without counting them all.
        let rows: [Episode]
        var query = query
        if query.after == nil, query.offset > 0 {
            // A page at an offset is the page after the episode before it, found by an index walk.
            guard let before = try database.fetchOne(EpisodeListSQL.idBefore(query), [query.podcast ?? 0, 1, query.offset - 1],
                                                     row: { $0.int64(at: 0) }) else {
                return EpisodePage(episodes: [], more: false)
            }
            query.after = before
        }
        if let after = query.after {
            // The store's one connection and this actor: nothing writes between the anchor and the runs.
            rows = try keysetRows(after: after, query.sort, limit: query.limit + 1) { run, limit, anchor in
                try database.fetchAll(EpisodeListSQL.list(query, run: run.condition), [query.podcast ?? 0, limit, 0] + anchor) { Episode(row: $0) }
            }
        } else {
            rows = try database.fetchAll(EpisodeListSQL.list(query), [query.podcast ?? 0, query.limit + 1, query.offset]) { Episode(row: $0) }
        }
        return EpisodePage(episodes: Array(rows.prefix(query.limit)), more: rows.count > query.limit)
    }

    /// Up to `limit` rows after episode `after` in `sort`'s order, read run by run (EpisodeListSQL.runs):
    /// `fetch(run, rows still wanted, the run's anchor arguments ?4 and ?5 — none for a whole run)`.
    private func keysetRows(after: Int64, _ sort: EpisodeQuery.Sort, limit: Int,
                            fetch: (EpisodeListSQL.Run, Int, [any StatementBindable]) throws -> [Episode]) throws -> [Episode] {
        guard let anchor = try database.fetchOne(EpisodeListSQL.anchor, [after], row: {
            EpisodeListSQL.Anchor(published: $0.isNull(at: 0) ? nil : $0.double(at: 0), duration: $0.double(at: 1), id: after)
        }) else { return [] }
        let (runs, key) = EpisodeListSQL.runs(after: anchor, sort)
        var rows: [Episode] = []
        for run in runs where rows.count < limit {
            rows += try fetch(run, limit - rows.count, run.anchored ? [key, after] : [])
        }
        return rows
    }

    /// The Inbox: episodes that arrived and were not yet queued, played or dismissed; newest first.
    /// With `after`, the page follows that episode (as in `episodes(_:)`); `offset` is then ignored.
    public func inbox(after: Int64? = nil, offset: Int = 0, limit: Int = EpisodeQuery.defaultLimit) throws -> EpisodePage {
        try database.transaction {
            var after = after
            if after == nil, offset > 0 {
                after = try database.fetchOne(EpisodeListSQL.inboxIDBefore, [1, offset - 1]) { $0.int64(at: 0) }
                if after == nil {
                    let total = try database.fetchOne(EpisodeListSQL.inboxCount) { Int($0.int64(at: 0)) } ?? 0
                    return EpisodePage(episodes: [], more: false, total: total)
                }
            }
            let rows = try after.map { after in
                try keysetRows(after: after, .newest, limit: limit + 1) { run, limit, anchor in
                    try database.fetchAll(EpisodeListSQL.inbox(run: run.condition), [limit, 0] + (anchor.isEmpty ? [] : [0] + anchor)) { Episode(row: $0) }
                }
            } ?? database.fetchAll(EpisodeListSQL.inbox(), [limit + 1, offset]) { Episode(row: $0) }
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
