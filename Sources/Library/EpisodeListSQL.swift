import EarshotCore

/// The statements of filtered, sorted, paged episode lists and of the Inbox. Built from fixed
/// fragments chosen by `EpisodeQuery`'s enums: nothing the client sends reaches the SQL text.
enum EpisodeListSQL {
    /// Parameters: ?1 the podcast, ?2 the limit, ?3 the offset; with `run` (keyset paging, `KeysetRun`)
    /// ?4 the anchor's sort key and ?5 its id.
    static func list(_ query: EpisodeQuery, run: String? = nil) -> String {
        var conditions = ["p.subscribed = 1"]
        if query.podcast != nil { conditions.append("e.podcast_id = ?1") }
        if let filter = query.filter { conditions.append(condition(filter)) }
        if let run { conditions.append(run) }
        // All podcasts: CROSS JOIN keeps the episodes outer, walked along a sort index (see
        // LibrarySQL.recentEpisodes); one podcast: the planner starts from its index.
        let join = query.podcast == nil ? "CROSS JOIN" : "JOIN"
        return """
            SELECT \(LibrarySQL.episodeFields) FROM episodes e \(join) podcasts p ON p.id = e.podcast_id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(run == nil ? order(query.sort) : runOrder(query.sort)) LIMIT ?2 OFFSET ?3
            """
    }

    /// The condition on `e` (an episode row) a filter adds; search uses them too.
    static func condition(_ filter: EpisodeQuery.Filter) -> String {
        switch filter {
        case .unplayed: "e.played = 0"
        case .inprogress: "e.played = 0 AND e.position > 0"
        case .played: "e.played = 1"
        case .downloaded: "EXISTS (SELECT 1 FROM downloads d WHERE d.episode_id = e.id AND d.state = 'done')"
        }
    }

    /// `" AND <condition>"` for a filter, nothing without one (search's statements add it to theirs).
    static func and(_ filter: EpisodeQuery.Filter?) -> String {
        filter.map { " AND " + condition($0) } ?? ""
    }

    /// Undated episodes come last when oldest first too, and episodes of unknown length (0) last
    /// when shortest first: "shortest" means the shortest known.
    static func order(_ sort: EpisodeQuery.Sort) -> String {
        switch sort {
        case .newest: "e.published DESC, e.id DESC"
        case .oldest: "e.published ASC NULLS LAST, e.id ASC"
        case .shortest: "e.duration <= 0, e.duration ASC, e.id ASC"
        case .longest: "e.duration DESC, e.id DESC"
        }
    }

    /// The order within one run of a sort's list (`runs`, `startRuns`): the sort's order without the
    /// key that only tells runs apart (constant within one), so that its index gives the order. With
    /// it, "shortest" sorted every row after the anchor (SQLite cannot order `e.duration <= 0` by an
    /// index): 18 ms for its first page of a 60,000-episode podcast.
    static func runOrder(_ sort: EpisodeQuery.Sort, reversed: Bool = false) -> String {
        switch (sort, reversed) {
        case (.shortest, false): "e.duration ASC, e.id ASC"
        case (.shortest, true): "e.duration DESC, e.id DESC"
        case (_, false): order(sort)
        case (_, true): reversedOrder(sort)
        }
    }

    /// The runs a sort's whole list is read in, in list order, when its order is not one index's:
    /// "shortest", known lengths then unknown ones (nil: one run, the sort's index reads it whole).
    static func startRuns(_ sort: EpisodeQuery.Sort) -> [String]? {
        sort == .shortest ? ["e.duration > 0", "e.duration <= 0"] : nil
    }

    /// The reverse of `order(sort)`, row for row: every sort ends in the id, so the order is total and
    /// the row at position k from the end is the one at position k in this order (NULLs first where the
    /// forward order puts them last, and the other way round).
    static func reversedOrder(_ sort: EpisodeQuery.Sort) -> String {
        switch sort {
        case .newest: "e.published ASC, e.id ASC"
        case .oldest: "e.published DESC NULLS FIRST, e.id DESC"
        case .shortest: "e.duration <= 0 DESC, e.duration DESC, e.id DESC"
        case .longest: "e.duration ASC, e.id ASC"
        }
    }

    /// How many episodes the list `query` asks for holds, when that is known without walking it: a list
    /// without a filter counts its podcasts' `episode_counts` (subscribed ones only; ?1 the podcast).
    /// Nil for a filtered list: its length would take a walk.
    static func total(_ query: EpisodeQuery) -> String? {
        guard query.filter == nil else { return nil }
        return query.podcast == nil
            ? "SELECT coalesce(sum(c.total), 0) FROM episode_counts c JOIN podcasts p ON p.id = c.podcast_id WHERE p.subscribed = 1"
            : "SELECT coalesce((SELECT c.total FROM episode_counts c JOIN podcasts p ON p.id = c.podcast_id WHERE c.podcast_id = ?1 AND p.subscribed = 1), 0)"
    }

    /// The id of the episode just before an offset in the list `query` asks for, `?3` rows in from the
    /// start, or from the end with `fromEnd` (`AnchorWalk`): an index walk that reads no skipped row's
    /// fields, so a page at an offset is the keyset page after that episode (`OFFSET` on the full
    /// statement read every skipped row: 5.5 ms for 59,000). Only the id, which every index holds:
    /// asking for the anchor's other columns here read each skipped episode's row as well (3.3 ms for
    /// 59,000 rows, 1.9 ms for the id alone); `anchor` reads them for the one found.
    /// With `run` (one of `startRuns`), in that run only, in its own order (`runOrder`).
    static func anchorBefore(_ query: EpisodeQuery, fromEnd: Bool = false, run: String? = nil) -> String {
        var conditions = ["p.subscribed = 1"]
        if query.podcast != nil { conditions.append("e.podcast_id = ?1") }
        if let filter = query.filter { conditions.append(condition(filter)) }
        if let run { conditions.append(run) }
        let join = query.podcast == nil ? "CROSS JOIN" : "JOIN"
        return """
            SELECT e.id FROM episodes e \(join) podcasts p ON p.id = e.podcast_id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(run == nil ? (fromEnd ? reversedOrder(query.sort) : order(query.sort)) : runOrder(query.sort, reversed: fromEnd)) LIMIT 1 OFFSET ?3
            """
    }

    /// How many rows one run (of `startRuns`) of the list `query` asks for holds (?1 the podcast): an
    /// index range counted when a walk to an anchor goes past the run.
    static func count(_ query: EpisodeQuery, run: String) -> String {
        var conditions = ["p.subscribed = 1", run]
        if query.podcast != nil { conditions.append("e.podcast_id = ?1") }
        if let filter = query.filter { conditions.append(condition(filter)) }
        let join = query.podcast == nil ? "CROSS JOIN" : "JOIN"
        return "SELECT count(*) FROM episodes e \(join) podcasts p ON p.id = e.podcast_id WHERE \(conditions.joined(separator: " AND "))"
    }

    /// Where a keyset page's anchor stands in its list: its sort key and id (`after`).
    struct Anchor: Equatable {
        var published: Double?
        var duration: Double
        var id: Int64
    }

    /// What an `Anchor` is read from (`Anchor(row:)`).
    static let anchorColumns = "e.id, e.published, e.duration"
    static let anchor = "SELECT \(anchorColumns) FROM episodes e WHERE e.id = ?"

    /// One run of rows in a keyset page: its condition, and whether it names the anchor (?4 its sort key, ?5
    /// its id) — a later run is taken whole and names neither.
    struct Run: Equatable {
        var condition: String
        var anchored: Bool
    }

    /// The runs, in list order, that hold the rows after `anchor` in `sort`'s order, and the value bound as
    /// ?4 (the anchor's sort key). A sort orders rows in runs — dated then undated, known length then
    /// unknown — so the rows after the anchor are the rest of its own run (a row-value comparison, which
    /// SQLite answers with a range of the sort's index) and then each later run whole. A page is filled run
    /// by run with the list's own ORDER BY: no row is read only to be skipped.
    static func runs(after anchor: Anchor, _ sort: EpisodeQuery.Sort) -> (runs: [Run], key: Double?) {
        let rest = { Run(condition: $0, anchored: true) }
        let whole = { Run(condition: $0, anchored: false) }
        return switch sort {
        case .newest:
            anchor.published == nil ? ([rest("e.published IS NULL AND e.id < ?5")], nil)
                : ([rest("(e.published, e.id) < (?4, ?5)"), whole("e.published IS NULL")], anchor.published)
        case .oldest:
            anchor.published == nil ? ([rest("e.published IS NULL AND e.id > ?5")], nil)
                : ([rest("(e.published, e.id) > (?4, ?5)"), whole("e.published IS NULL")], anchor.published)
        case .shortest:
            // After a known length every row of the rest has one too (≥ the anchor's): no `e.duration > 0`
            // beside the row value, which made SQLite range over every known length from 0 and filter
            // (17 ms, not 5, for a page deep in a 60,000-episode podcast).
            anchor.duration > 0 ? ([rest("(e.duration, e.id) > (?4, ?5)"), whole("e.duration <= 0")], anchor.duration)
                : ([rest("e.duration <= 0 AND (e.duration, e.id) > (?4, ?5)")], anchor.duration)
        case .longest:
            ([rest("(e.duration, e.id) < (?4, ?5)")], anchor.duration)
        }
    }

    // The Inbox holds a few of a library's episodes: read them from their partial index and sort them,
    // rather than walk every episode by date (the planner's choice without statistics: 22 ms for an
    // Inbox of one beside a 60,000-episode podcast, make bench).
    /// Parameters: ?1 the limit, ?2 the offset; with `run` (newest's, keyset paging) ?4 and ?5 as in `list`.
    static func inbox(run: String? = nil) -> String {
        """
        SELECT \(LibrarySQL.episodeFields) FROM episodes e INDEXED BY episodes_in_inbox JOIN podcasts p ON p.id = e.podcast_id
        WHERE e.inbox_at IS NOT NULL AND p.subscribed = 1\(run.map { " AND " + $0 } ?? "") ORDER BY e.published DESC, e.id DESC LIMIT ?1 OFFSET ?2
        """
    }
    /// The Inbox's episode just before an offset (?2 binds offset − 1), as `anchorBefore` for lists.
    static let inboxAnchorBefore = """
        SELECT \(anchorColumns) FROM episodes e INDEXED BY episodes_in_inbox JOIN podcasts p ON p.id = e.podcast_id
        WHERE e.inbox_at IS NOT NULL AND p.subscribed = 1 ORDER BY e.published DESC, e.id DESC LIMIT 1 OFFSET ?2
        """
    static let inboxCount = """
        SELECT count(*) FROM episodes e JOIN podcasts p ON p.id = e.podcast_id WHERE e.inbox_at IS NOT NULL AND p.subscribed = 1
        """
    static let leaveInbox = "UPDATE episodes SET inbox_at = NULL WHERE id = ? AND inbox_at IS NOT NULL"
    static let clearInbox = "UPDATE episodes SET inbox_at = NULL WHERE inbox_at IS NOT NULL"
}

extension EpisodeListSQL.Anchor {
    /// Reads a row of `EpisodeListSQL.anchorColumns`.
    init(row: Statement) {
        self.init(published: row.isNull(at: 1) ? nil : row.double(at: 1), duration: row.double(at: 2), id: row.int64(at: 0))
    }
}
