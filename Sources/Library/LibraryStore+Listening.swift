import EarshotCore
import Foundation

/// The listening log (table `listening_log`, LibrarySchema+Listening.swift): played spans, for the
/// statistics.
extension LibraryStore {
    /// Stores `span`: a new row, or its own row again (a span under way is written as it grows,
    /// so a crash loses at most the last few seconds). Returns the row's id.
    @discardableResult
    public func saveListeningSpan(_ span: ListeningSpan) throws -> Int64 {
        let s = span.saved
        let values: [any StatementBindable] = [span.episode, span.podcast, span.podcastTitle, span.startedAt, span.listened,
                                               span.from, span.to, s.speed, s.silence, s.intro, s.outro, s.chapters, span.finished]
        if let id = span.id {
            try database.run("""
                UPDATE listening_log SET episode_id = ?1, podcast_id = ?2, podcast_title = ?3, started_at = ?4, listened = ?5,
                    from_position = ?6, to_position = ?7, saved_speed = ?8, saved_silence = ?9, saved_intro = ?10,
                    saved_outro = ?11, saved_chapters = ?12, finished = ?13 WHERE id = ?14
                """, values + [id])
            return id
        }
        try database.run("""
            INSERT INTO listening_log(episode_id, podcast_id, podcast_title, started_at, listened, from_position, to_position,
                                      saved_speed, saved_silence, saved_intro, saved_outro, saved_chapters, finished)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
            """, values)
        return database.lastInsertedRowID
    }

    /// Every span that started at or after `since` (nil: all), oldest first.
    public func listeningSpans(since: Date? = nil) throws -> [ListeningSpan] {
        try database.fetchAll("""
            SELECT id, episode_id, podcast_id, podcast_title, started_at, listened, from_position, to_position,
                   saved_speed, saved_silence, saved_intro, saved_outro, saved_chapters, finished
            FROM listening_log WHERE started_at >= ? ORDER BY started_at, id
            """, [since ?? Date(timeIntervalSince1970: 0)]) { row in
            ListeningSpan(id: row.int64(at: 0), episode: row.int64(at: 1), podcast: row.int64(at: 2),
                          podcastTitle: row.string(at: 3), startedAt: row.date(at: 4) ?? Date(timeIntervalSince1970: 0),
                          listened: row.double(at: 5), from: row.double(at: 6), to: row.double(at: 7),
                          saved: SavedSeconds(speed: row.double(at: 8), silence: row.double(at: 9), intro: row.double(at: 10),
                                              outro: row.double(at: 11), chapters: row.double(at: 12)),
                          finished: row.bool(at: 13))
        }
    }
}
