import EarshotCore

/// The statements of library search (LibraryStore+Search.swift). Each search is two steps: the
/// best rows by rank, then the snippets of those rows only, one row at a time (FTS5 seeks a
/// `rowid =`; with `rowid IN (…)` it would walk every match). Asking for snippets in the ranking
/// query would make SQLite build one for every match before sorting (thousands for a common word).
enum SearchSQL {
    /// `snippet()` / `highlight()` markers: SearchSnippet.open / .close.
    static let marks = "char(2), char(3)"

    // Title hits weigh ten times a hit in the notes: a word in the title is what the listener
    // most likely means ("title hits first").
    static let podcastRanks = """
        SELECT podcasts_fts.rowid FROM podcasts_fts CROSS JOIN podcasts p ON p.id = podcasts_fts.rowid
        WHERE podcasts_fts MATCH ?1 AND p.subscribed = 1 ORDER BY bm25(podcasts_fts, 10.0, 3.0) LIMIT ?2
        """
    static let podcastSnippets = """
        SELECT \(LibrarySQL.podcastFields), highlight(podcasts_fts, 0, \(marks)), highlight(podcasts_fts, 1, \(marks))
        FROM podcasts_fts CROSS JOIN podcasts p ON p.id = podcasts_fts.rowid
        WHERE podcasts_fts MATCH ?1 AND podcasts_fts.rowid = ?2
        """

    /// bm25 is computed for every row a query ranks, and a common word matches most of a big
    /// library (180,000 of 200,000 episodes): these say whether there are more than `rankWindow`
    /// matches (a row at that offset), walking no further. Past it, lists are in FTS5's own
    /// order (rowid, newest first), which stops at the page.
    static let episodeWindow = "SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH ?1 ORDER BY rowid DESC LIMIT 1 OFFSET ?2"
    static let cueWindow = "SELECT rowid FROM transcript_fts WHERE transcript_fts MATCH ?1 ORDER BY rowid DESC LIMIT 1 OFFSET ?2"

    /// `filter`: only episodes in that state (EpisodeListSQL.condition).
    static func episodeRanks(_ filter: EpisodeQuery.Filter?) -> String {
        """
        SELECT episodes_fts.rowid FROM episodes_fts CROSS JOIN episodes e ON e.id = episodes_fts.rowid
        CROSS JOIN podcasts p ON p.id = e.podcast_id
        WHERE episodes_fts MATCH ?1 AND p.subscribed = 1\(EpisodeListSQL.and(filter))
        ORDER BY bm25(episodes_fts, 10.0, 1.0) LIMIT ?2
        """
    }
    static func episodesNewest(_ filter: EpisodeQuery.Filter?) -> String {
        """
        SELECT episodes_fts.rowid FROM episodes_fts CROSS JOIN episodes e ON e.id = episodes_fts.rowid
        CROSS JOIN podcasts p ON p.id = e.podcast_id
        WHERE episodes_fts MATCH ?1 AND p.subscribed = 1\(EpisodeListSQL.and(filter))
        ORDER BY episodes_fts.rowid DESC LIMIT ?2
        """
    }
    /// Columns 15 and 16: the title highlighted (whole: titles are short), the notes' snippet.
    static let episodeSnippets = """
        SELECT \(LibrarySQL.episodeFields), highlight(episodes_fts, 0, \(marks)),
            snippet(episodes_fts, 1, \(marks), '…', 20)
        FROM episodes_fts CROSS JOIN episodes e ON e.id = episodes_fts.rowid CROSS JOIN podcasts p ON p.id = e.podcast_id
        WHERE episodes_fts MATCH ?1 AND episodes_fts.rowid = ?2
        """

    /// The best cues: several per episode may come; the store keeps each episode's best.
    static func cueRanks(_ filter: EpisodeQuery.Filter?) -> String {
        """
        SELECT transcript_fts.rowid, c.episode_id FROM transcript_fts CROSS JOIN transcript_cues c ON c.id = transcript_fts.rowid
        CROSS JOIN episodes e ON e.id = c.episode_id CROSS JOIN podcasts p ON p.id = e.podcast_id
        WHERE transcript_fts MATCH ?1 AND p.subscribed = 1\(EpisodeListSQL.and(filter))
        ORDER BY rank LIMIT ?2
        """
    }
    static func cuesNewest(_ filter: EpisodeQuery.Filter?) -> String {
        """
        SELECT transcript_fts.rowid, c.episode_id FROM transcript_fts CROSS JOIN transcript_cues c ON c.id = transcript_fts.rowid
        CROSS JOIN episodes e ON e.id = c.episode_id CROSS JOIN podcasts p ON p.id = e.podcast_id
        WHERE transcript_fts MATCH ?1 AND p.subscribed = 1\(EpisodeListSQL.and(filter))
        ORDER BY transcript_fts.rowid DESC LIMIT ?2
        """
    }
    static let cueSnippets = """
        SELECT transcript_fts.rowid, c.start, snippet(transcript_fts, 0, \(marks), '…', 20)
        FROM transcript_fts CROSS JOIN transcript_cues c ON c.id = transcript_fts.rowid
        WHERE transcript_fts MATCH ?1 AND transcript_fts.rowid = ?2
        """
    static let episodesByID = """
        SELECT \(LibrarySQL.episodeFields) FROM episodes e JOIN podcasts p ON p.id = e.podcast_id
        WHERE e.id IN (SELECT value FROM json_each(?1))
        """
}
