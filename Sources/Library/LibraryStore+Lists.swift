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
        // A page at an offset is the page after the episode before it: where the page before ended,
        // or else found by an index walk.
        let version = query.after == nil ? try libraryVersion() : nil
        let anchor = try query.after.map(anchor(of:)) ?? (query.offset > 0
            ? (version.flatMap { pageEnds.anchor(query, offset: query.offset, at: $0) } ?? walkToAnchor(query))
                .flatMap(anchor(of:))
            : nil)
        if query.after != nil || query.offset > 0 {
            guard let anchor else { return EpisodePage(episodes: [], more: false) }
            // The store's one connection and this actor: nothing writes between the anchor and the runs.
            rows = try keysetRows(after: anchor, query.sort, limit: query.limit + 1) { run, limit, arguments in
                try database.fetchAll(EpisodeListSQL.list(query, run: run.condition), [query.podcast ?? 0, limit, 0] + arguments) { Episode(row: $0) }
            }
        } else if let runs = EpisodeListSQL.startRuns(query.sort) {
            // The first page of a list read run by run (each along its index, none sorted).
            var read: [Episode] = []
            for run in runs where read.count < query.limit + 1 {
                read += try database.fetchAll(EpisodeListSQL.list(query, run: run), [query.podcast ?? 0, query.limit + 1 - read.count, 0]) { Episode(row: $0) }
            }
            rows = read
        } else {
            rows = try database.fetchAll(EpisodeListSQL.list(query), [query.podcast ?? 0, query.limit + 1, query.offset]) { Episode(row: $0) }
        }
        if let version, query.limit > 0, rows.count > query.limit {  // a next page follows: it starts after this one's last
            pageEnds.record(query, offset: query.offset + query.limit, id: rows[query.limit - 1].id, at: version)
        }
        return EpisodePage(episodes: Array(rows.prefix(query.limit)), more: rows.count > query.limit)
    }

    /// The id of the episode just before `query.offset` in its list, found by an index walk from the
    /// nearer end when the list's length is known (`AnchorWalk`); nil when the list is shorter.
    private func walkToAnchor(_ query: EpisodeQuery) throws -> Int64? {
        let total = try EpisodeListSQL.total(query).map { sql in
            try database.fetchOne(sql, query.podcast.map { [$0] } ?? []) { Int($0.int64(at: 0)) } ?? 0
        }
        guard let walk = AnchorWalk.to(offset: query.offset, total: total) else { return nil }
        guard let runs = EpisodeListSQL.startRuns(query.sort) else {
            return try database.fetchOne(EpisodeListSQL.anchorBefore(query, fromEnd: walk.fromEnd),
                                         [query.podcast ?? 0, 1, walk.skipped]) { $0.int64(at: 0) }
        }
        // Run by run in the direction walked: a run the walk goes past is counted (an index range), not stepped over.
        var skipped = walk.skipped
        for run in walk.fromEnd ? runs.reversed() : runs {
            if let id = try database.fetchOne(EpisodeListSQL.anchorBefore(query, fromEnd: walk.fromEnd, run: run),
                                              [query.podcast ?? 0, 1, skipped], row: { $0.int64(at: 0) }) {
                return id
            }
            skipped -= Int(try database.fetchOne(EpisodeListSQL.count(query, run: run), query.podcast.map { [$0] } ?? []) { $0.int64(at: 0) } ?? 0)
        }
        return nil
    }

    /// The library's state for `pageEnds`: this connection's changes and other connections' commits.
    private func libraryVersion() throws -> OffsetPageEnds.Version {
        OffsetPageEnds.Version(changes: database.totalChanges,
                               data: try database.fetchOne("PRAGMA data_version") { $0.int64(at: 0) } ?? 0)
    }

    /// Up to `limit` rows after episode `after` in `sort`'s order, read run by run (EpisodeListSQL.runs):
    /// `fetch(run, rows still wanted, the run's anchor arguments ?4 and ?5 — none for a whole run)`.
    private func keysetRows(after anchor: EpisodeListSQL.Anchor, _ sort: EpisodeQuery.Sort, limit: Int,
                            fetch: (EpisodeListSQL.Run, Int, [any StatementBindable]) throws -> [Episode]) throws -> [Episode] {
        let (runs, key) = EpisodeListSQL.runs(after: anchor, sort)
        var rows: [Episode] = []
        for run in runs where rows.count < limit {
            rows += try fetch(run, limit - rows.count, run.anchored ? [key, anchor.id] : [])
        }
        return rows
    }

    /// Where episode `id` stands in the lists, or nil when the library does not hold it.
    private func anchor(of id: Int64) throws -> EpisodeListSQL.Anchor? {
        try database.fetchOne(EpisodeListSQL.anchor, [id], row: EpisodeListSQL.Anchor.init(row:))
    }

    /// The Inbox: episodes that arrived and were not yet queued, played or dismissed; newest first.
    /// With `after`, the page follows that episode (as in `episodes(_:)`); `offset` is then ignored.
    public func inbox(after: Int64? = nil, offset: Int = 0, limit: Int = EpisodeQuery.defaultLimit) throws -> EpisodePage {
        try database.transaction {
            let total = try database.fetchOne(EpisodeListSQL.inboxCount) { Int($0.int64(at: 0)) } ?? 0
            let anchor = try after.map(anchor(of:)) ?? (offset > 0
                ? database.fetchOne(EpisodeListSQL.inboxAnchorBefore, [1, offset - 1], row: EpisodeListSQL.Anchor.init(row:))
                : nil)
            let rows: [Episode]
            if after != nil || offset > 0 {
                guard let anchor else { return EpisodePage(episodes: [], more: false, total: total) }
                rows = try keysetRows(after: anchor, .newest, limit: limit + 1) { run, limit, arguments in
                    // ?3 is the lists' offset, unused here; a whole run names no anchor and binds only ?1 and ?2.
                    try database.fetchAll(EpisodeListSQL.inbox(run: run.condition), [limit, 0] + (arguments.isEmpty ? [] : [0] + arguments)) { Episode(row: $0) }
                }
            } else {
                rows = try database.fetchAll(EpisodeListSQL.inbox(), [limit + 1, offset]) { Episode(row: $0) }
            }
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
