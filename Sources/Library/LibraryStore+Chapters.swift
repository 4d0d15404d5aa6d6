import EarshotCore
import Foundation

extension LibraryStore {
    /// The Podcasting 2.0 chapters stored for an episode, when they were fetched from `url`;
    /// nil when none are stored, they came from another address, or the row no longer decodes.
    public func cachedChapters(episodeID: Int64, url: String) throws -> [Chapter]? {
        let text = try database.fetchOne("SELECT chapters_json FROM episode_chapters WHERE episode_id = ? AND url = ?",
                                         [episodeID, url]) { $0.string(at: 0) }
        return LibraryJSON.decode([Chapter].self, from: text)
    }

    /// Keeps the chapters fetched from `url` for an episode, replacing what was there.
    /// Throws `LibraryError.episodeNotFound` when the episode is not in the library.
    public func storeChapters(episodeID: Int64, url: String, chapters: [Chapter]) throws {
        let known = try database.fetchOne("SELECT 1 FROM episodes WHERE id = ?", [episodeID]) { _ in true }
        guard known != nil else { throw LibraryError.episodeNotFound(episodeID) }
        try database.run("""
            INSERT INTO episode_chapters(episode_id, url, fetched_at, chapters_json) VALUES(?, ?, ?, ?)
            ON CONFLICT(episode_id) DO UPDATE SET url = excluded.url, fetched_at = excluded.fetched_at,
                chapters_json = excluded.chapters_json
            """, [episodeID, url, Date(), try LibraryJSON.encode(chapters)])
    }
}
