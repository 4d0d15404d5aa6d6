import EarshotCore

/// The statements of filtered, sorted, paged episode lists and of the Inbox. Built from fixed
/// fragments chosen by `EpisodeQuery`'s enums: nothing the client sends reaches the SQL text.
enum EpisodeListSQL {
    static func list(_ query: EpisodeQuery) -> String {
        var conditions = ["p.subscribed = 1"]
        if query.podcast != nil { conditions.append("e.podcast_id = ?1") }
        if let filter = query.filter { conditions.append(condition(filter)) }
        // All podcasts: CROSS JOIN keeps the episodes outer, walked along a sort index (see
        // LibrarySQL.recentEpisodes); one podcast: the planner starts from its index.
        let join = query.podcast == nil ? "CROSS JOIN" : "JOIN"
        return """
            SELECT \(LibrarySQL.episodeFields) FROM episodes e \(join) podcasts p ON p.id = e.podcast_id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order(query.sort)) LIMIT ?2 OFFSET ?3
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

    // The Inbox holds a few of a library's episodes: read them from their partial index and sort them,
    // rather than walk every episode by date (the planner's choice without statistics: 22 ms for an
    // Inbox of one beside a 60,000-episode podcast, make bench).
    static let inbox = """
        SELECT \(LibrarySQL.episodeFields) FROM episodes e INDEXED BY episodes_in_inbox JOIN podcasts p ON p.id = e.podcast_id
        WHERE e.inbox_at IS NOT NULL AND p.subscribed = 1 ORDER BY e.published DESC, e.id DESC LIMIT ?1 OFFSET ?2
        """
    static let inboxCount = """
        SELECT count(*) FROM episodes e JOIN podcasts p ON p.id = e.podcast_id WHERE e.inbox_at IS NOT NULL AND p.subscribed = 1
        """
    static let leaveInbox = "UPDATE episodes SET inbox_at = NULL WHERE id = ? AND inbox_at IS NOT NULL"
    static let clearInbox = "UPDATE episodes SET inbox_at = NULL WHERE inbox_at IS NOT NULL"
}
