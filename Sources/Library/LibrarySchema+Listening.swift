extension LibrarySchema {
    /// Issue 18: the listening log the statistics are made from, one row per played span (see
    /// `ListeningSpan`): wall seconds heard, where in the file, what was saved and how, and whether
    /// the episode ended in it. The episode and podcast ids stay when they leave the library (the
    /// statistics keep what was heard), with the podcast's title as it was then.
    static let listening = """
        CREATE TABLE listening_log(
            id INTEGER PRIMARY KEY,
            episode_id INTEGER NOT NULL,
            podcast_id INTEGER NOT NULL,
            podcast_title TEXT NOT NULL DEFAULT '',
            started_at REAL NOT NULL,
            listened REAL NOT NULL DEFAULT 0,
            from_position REAL NOT NULL DEFAULT 0,
            to_position REAL NOT NULL DEFAULT 0,
            saved_speed REAL NOT NULL DEFAULT 0,
            saved_silence REAL NOT NULL DEFAULT 0,
            saved_intro REAL NOT NULL DEFAULT 0,
            saved_outro REAL NOT NULL DEFAULT 0,
            saved_chapters REAL NOT NULL DEFAULT 0,
            finished INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX listening_log_by_time ON listening_log(started_at);
        """
}
