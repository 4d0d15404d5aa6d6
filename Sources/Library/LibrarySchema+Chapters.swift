extension LibrarySchema {
    /// Issue 5: Podcasting 2.0 chapters, fetched once per episode and kept. One row per episode
    /// with the address it came from: when a refresh gives the episode another chapters address,
    /// the row no longer matches and the next play fetches again. `chapters_json` holds the
    /// validated list (`[Chapter]`), not the file, so reading it needs no second validation.
    /// Only successes are stored: a failed fetch is tried again the next time the episode loads.
    static let episodeChapters = """
        CREATE TABLE episode_chapters(
            episode_id INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            fetched_at REAL NOT NULL,
            chapters_json TEXT NOT NULL
        );
        """
}
