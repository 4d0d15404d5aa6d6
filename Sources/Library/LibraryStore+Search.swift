import EarshotCore
import Foundation

/// Library search over FTS5 (LibrarySchema+Search.swift, SearchSQL).
extension LibraryStore {
    /// Podcasts and episodes matching `text` as typed (SearchQuery quotes it: typing cannot make
    /// an FTS syntax error), best first (bm25; past `rankWindow` matches, title hits then newest first), at most `limit` of each. Episodes: title hits, then hits
    /// in the notes and in transcripts taken in turn (their ranks come from different indexes and
    /// are not comparable), each episode once per field, a transcript hit with the cue's time.
    /// `filter`: only episodes in that state (podcasts are listed as ever).
    public func search(_ text: String, limit: Int = 20, filter: EpisodeQuery.Filter? = nil) throws -> SearchResults {
        guard let query = SearchQuery(text).fts else { return SearchResults() }
        let limit = max(1, limit)
        return try database.transaction {
            SearchResults(podcasts: try podcastHits(query, limit), episodes: try episodeHits(query, limit, filter))
        }
    }

    private func podcastHits(_ query: String, _ limit: Int) throws -> [SearchResults.PodcastHit] {
        let ids = try database.fetchAll(SearchSQL.podcastRanks, [query, limit]) { $0.int64(at: 0) }
        guard !ids.isEmpty else { return [] }
        return try ids.compactMap { id in
            try database.fetchOne(SearchSQL.podcastSnippets, [query, id]) { row in
                let title = SearchSnippet(marked: row.string(at: 12)), author = SearchSnippet(marked: row.string(at: 13))
                return SearchResults.PodcastHit(podcast: Podcast(row: row), snippet: title.marks.isEmpty && !author.marks.isEmpty ? author : title)
            }
        }
    }

    private func episodeHits(_ query: String, _ limit: Int, _ filter: EpisodeQuery.Filter?) throws -> [SearchResults.EpisodeHit] {
        let ids: [Int64]
        if try database.fetchOne(SearchSQL.episodeWindow, [query, Self.rankWindow - 1], row: { _ in true }) == nil {
            ids = try database.fetchAll(SearchSQL.episodeRanks(filter), [query, limit]) { $0.int64(at: 0) }
        } else {
            // More matches than are worth ranking: words this common say nothing about relevance,
            // so titles first, each newest first — FTS5's own order, which stops at the page.
            let titled = try database.fetchAll(SearchSQL.episodesNewest(filter), ["title : (\(query))", limit]) { $0.int64(at: 0) }
            let rest = titled.count < limit
                ? try database.fetchAll(SearchSQL.episodesNewest(filter), [query, limit + titled.count]) { $0.int64(at: 0) } : []
            let seen = Set(titled)
            ids = Array((titled + rest.filter { !seen.contains($0) }).prefix(limit))
        }
        let metadata = try ids.compactMap { id in
            try database.fetchOne(SearchSQL.episodeSnippets, [query, id]) { row in
                let title = SearchSnippet(marked: row.string(at: 15))
                return title.marks.isEmpty
                    ? SearchResults.EpisodeHit(episode: Episode(row: row), field: .notes, snippet: SearchSnippet(marked: row.string(at: 16)))
                    : SearchResults.EpisodeHit(episode: Episode(row: row), field: .title, snippet: title)
            }
        }
        let titles = metadata.filter { $0.field == .title }, notes = metadata.filter { $0.field == .notes }
        let spoken = try transcriptHits(query, limit, filter)
        var merged = titles
        var notesLeft = notes[...], spokenLeft = spoken[...]
        while merged.count < limit, !(notesLeft.isEmpty && spokenLeft.isEmpty) {
            if let next = notesLeft.popFirst() { merged.append(next) }
            if merged.count < limit, let next = spokenLeft.popFirst() { merged.append(next) }
        }
        return Array(merged.prefix(limit))
    }

    /// Each episode's best cue, best episodes first.
    private func transcriptHits(_ query: String, _ limit: Int, _ filter: EpisodeQuery.Filter?) throws -> [SearchResults.EpisodeHit] {
        let many = try database.fetchOne(SearchSQL.cueWindow, [query, Self.rankWindow - 1], row: { _ in true }) != nil
        let cues = try database.fetchAll(many ? SearchSQL.cuesNewest(filter) : SearchSQL.cueRanks(filter), [query, limit * 4]) {
            ($0.int64(at: 0), $0.int64(at: 1))
        }
        var seen = Set<Int64>()
        let best = cues.filter { seen.insert($0.1).inserted }.prefix(limit)
        guard !best.isEmpty else { return [] }
        var cueByID: [Int64: (Double?, SearchSnippet)] = [:]
        for (cue, _) in best {
            cueByID[cue] = try database.fetchOne(SearchSQL.cueSnippets, [query, cue]) { row in
                (row.optionalDouble(at: 1), SearchSnippet(marked: row.string(at: 2)))
            }
        }
        let episodes = try database.fetchAll(SearchSQL.episodesByID, [Self.jsonList(best.map(\.1))]) { Episode(row: $0) }
        let episodeByID = Dictionary(episodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return best.compactMap { cue, episodeID in
            guard let episode = episodeByID[episodeID], let (at, snippet) = cueByID[cue] else { return nil }
            return SearchResults.EpisodeHit(episode: episode, field: .transcript, snippet: snippet, at: at)
        }
    }

    /// Up to this many matches are ranked by bm25 (SearchSQL.episodeWindow says why); a search
    /// with more lists title hits, then the rest, newest first.
    static let rankWindow = 4_000

    private static func jsonList(_ ids: [Int64]) -> String { "[" + ids.map(String.init).joined(separator: ",") + "]" }

}

extension LibraryStore {
    /// Removes the search index's triggers and tables: `make bench` times storing a feed with
    /// and without them (Sources/earshot-bench). Never called by Earshot itself.
    public func dropSearchIndexForBenchmark() throws {
        try database.execute("""
            DROP TRIGGER podcasts_fts_insert; DROP TRIGGER podcasts_fts_delete; DROP TRIGGER podcasts_fts_update;
            DROP TRIGGER episodes_fts_delete; DROP TRIGGER episodes_fts_update;
            DROP TABLE podcasts_fts; DROP TABLE episodes_fts;
            """)
        indexesEpisodes = false
    }
}
