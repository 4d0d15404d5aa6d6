extension LibrarySchema {
    /// Issue 6: one row per episode that has (or had) a download. `state` is `DownloadState`, plus
    /// `removed`: a download deleted by hand, kept as a row only so the auto-download policy never
    /// fetches that episode again by itself (lists never show it). `file` is relative to the
    /// downloads folder; `bytes` is what was on disk when the row was last written (the partial
    /// file's real size wins after a crash). `etag`/`last_modified` are the partial file's
    /// validators, exactly as the server sent them. Deleting the episode takes the row along.
    static let downloads = """
        CREATE TABLE downloads(
            episode_id INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
            state TEXT NOT NULL CHECK(state IN ('queued', 'downloading', 'paused', 'done', 'failed', 'removed')),
            url TEXT NOT NULL,
            file TEXT NOT NULL,
            bytes INTEGER NOT NULL DEFAULT 0,
            total INTEGER,
            enclosure_length INTEGER NOT NULL DEFAULT 0,
            etag TEXT,
            last_modified TEXT,
            error TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            retry_at REAL,
            automatic INTEGER NOT NULL DEFAULT 0,
            queued_at REAL NOT NULL,
            finished_at REAL,
            updated_at REAL NOT NULL
        );
        """

    /// Issue 18: a finished download's EBU R128 measurement (integrated LUFS, true peak dBTP),
    /// taken once after it landed; NULL until then (and for a file of digital silence's peak).
    static let loudness = """
        ALTER TABLE downloads ADD COLUMN loudness REAL;
        ALTER TABLE downloads ADD COLUMN true_peak REAL;
        """
}
