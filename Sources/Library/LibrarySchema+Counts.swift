extension LibrarySchema {
    /// How many episodes each podcast holds, kept by triggers in the same transaction as the rows
    /// themselves: a podcast's count without walking its episodes (`count(*)` over a 60,000-episode
    /// podcast walked its index: 2–4 ms on every podcast list), and the length of a list, so that a
    /// page at an offset is walked to from the nearer end (`AnchorWalk`). A row of two integers per
    /// podcast, updated once per episode inserted or deleted.
    static let episodeCounts = """
        CREATE TABLE episode_counts(
            podcast_id INTEGER PRIMARY KEY REFERENCES podcasts(id) ON DELETE CASCADE,
            total INTEGER NOT NULL
        );
        INSERT INTO episode_counts(podcast_id, total) SELECT podcast_id, count(*) FROM episodes GROUP BY podcast_id;
        CREATE TRIGGER episode_counts_insert AFTER INSERT ON episodes BEGIN
            INSERT INTO episode_counts(podcast_id, total) VALUES(new.podcast_id, 1)
                ON CONFLICT(podcast_id) DO UPDATE SET total = total + 1;
        END;
        CREATE TRIGGER episode_counts_delete AFTER DELETE ON episodes BEGIN
            UPDATE episode_counts SET total = total - 1 WHERE podcast_id = old.podcast_id;
        END;
        CREATE TRIGGER episode_counts_move AFTER UPDATE OF podcast_id ON episodes
        WHEN old.podcast_id IS NOT new.podcast_id BEGIN
            UPDATE episode_counts SET total = total - 1 WHERE podcast_id = old.podcast_id;
            INSERT INTO episode_counts(podcast_id, total) VALUES(new.podcast_id, 1)
                ON CONFLICT(podcast_id) DO UPDATE SET total = total + 1;
        END;
        """
}
