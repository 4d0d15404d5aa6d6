import EarshotCore
import Foundation

extension LibraryStore {
    /// The transcript stored for an episode when it was fetched from `url` (its cues in order);
    /// nil when none is stored or it came from another address.
    public func cachedTranscript(episodeID: Int64, url: String) throws -> [TranscriptCue]? {
        let stored = try database.fetchOne("SELECT 1 FROM transcripts WHERE episode_id = ? AND url = ?", [episodeID, url]) { _ in true }
        guard stored != nil else { return nil }
        return try database.fetchAll("""
            SELECT start, "end", speaker, text FROM transcript_cues WHERE episode_id = ? ORDER BY id
            """, [episodeID]) { row in
            TranscriptCue(start: row.optionalDouble(at: 0), end: row.optionalDouble(at: 1),
                          speaker: row.optionalString(at: 2), text: row.string(at: 3))
        }
    }

    /// Keeps the transcript fetched from `url` for an episode, replacing what was there; its
    /// words join library search (the cues' index follows by trigger). One transaction: a
    /// search never sees half a transcript. Throws `LibraryError.episodeNotFound` when the
    /// episode is not in the library.
    public func storeTranscript(episodeID: Int64, url: String, format: String, cues: [TranscriptCue]) throws {
        try database.transaction {
            let known = try database.fetchOne("SELECT 1 FROM episodes WHERE id = ?", [episodeID]) { _ in true }
            guard known != nil else { throw LibraryError.episodeNotFound(episodeID) }
            try database.run("DELETE FROM transcripts WHERE episode_id = ?", [episodeID]) // its cues go along
            try database.run("INSERT INTO transcripts(episode_id, url, format, fetched_at) VALUES(?, ?, ?, ?)",
                             [episodeID, url, format, Date()])
            for cue in cues {
                try database.run("""
                    INSERT INTO transcript_cues(episode_id, start, "end", speaker, text) VALUES(?, ?, ?, ?, ?)
                    """, [episodeID, cue.start, cue.end, cue.speaker, cue.text])
            }
        }
    }
}
