extension LibrarySchema {
    /// Issue 13: full-text search with SQLite's FTS5. External-content indexes over the podcasts'
    /// titles and authors and the episodes' titles and notes (the plain-text `summary`): the text
    /// is not stored twice, and triggers keep the index in step with every insert, update and
    /// delete. Unsubscribed
    /// podcasts stay indexed and are filtered out when searching (they keep their rows for the
    /// day they return); new episodes are indexed by the store (see below). `remove_diacritics 2` folds "café" and "cafe", "Ærø" and "aero" alike,
    /// in the text and in what is typed. The update triggers fire only when an indexed column
    /// really changed: a refresh rewrites little, and the index as little.
    static let search = """
        CREATE VIRTUAL TABLE podcasts_fts USING fts5(title, author, content='podcasts', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE episodes_fts USING fts5(title, summary, content='episodes', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2', prefix='2 3');
        INSERT INTO podcasts_fts(podcasts_fts) VALUES('rebuild');
        INSERT INTO episodes_fts(episodes_fts) VALUES('rebuild');

        CREATE TRIGGER podcasts_fts_insert AFTER INSERT ON podcasts BEGIN
            INSERT INTO podcasts_fts(rowid, title, author) VALUES(new.id, new.title, new.author);
        END;
        CREATE TRIGGER podcasts_fts_delete AFTER DELETE ON podcasts BEGIN
            INSERT INTO podcasts_fts(podcasts_fts, rowid, title, author) VALUES('delete', old.id, old.title, old.author);
        END;
        CREATE TRIGGER podcasts_fts_update AFTER UPDATE OF title, author ON podcasts
        WHEN old.title IS NOT new.title OR old.author IS NOT new.author BEGIN
            INSERT INTO podcasts_fts(podcasts_fts, rowid, title, author) VALUES('delete', old.id, old.title, old.author);
            INSERT INTO podcasts_fts(rowid, title, author) VALUES(new.id, new.title, new.author);
        END;

        -- No insert trigger for episodes: LibraryStore.mergeEpisodes indexes what it inserted in
        -- one INSERT … SELECT, several times faster than a trigger per row (a 60,000-episode feed).
        -- A larger pending-terms hash (64 MB at most, not 1; only a big feed's subscription fills
        -- it) writes fewer, larger segments while a big feed is indexed: less merging. make bench:
        -- a 60,000-episode feed's index took 1.55× its store with 16 MB, 0.97× with 64 MB and
        -- prefix indexes of 2 and 3 letters (4 as well: 1.78×; longer prefixes scan the terms).
        INSERT INTO episodes_fts(episodes_fts, rank) VALUES('hashsize', 67108864);
        CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN
            INSERT INTO episodes_fts(episodes_fts, rowid, title, summary) VALUES('delete', old.id, old.title, old.summary);
        END;
        CREATE TRIGGER episodes_fts_update AFTER UPDATE OF title, summary ON episodes
        WHEN old.title IS NOT new.title OR old.summary IS NOT new.summary BEGIN
            INSERT INTO episodes_fts(episodes_fts, rowid, title, summary) VALUES('delete', old.id, old.title, old.summary);
            INSERT INTO episodes_fts(rowid, title, summary) VALUES(new.id, new.title, new.summary);
        END;
        """

    /// Issue 13: the Inbox and the list sorts. `inbox_at` is when an episode arrived in the Inbox
    /// (NULL: not in it); the partial index holds only the few that are. Duration indexes let the
    /// shortest/longest sorts page through thousands of episodes without sorting them all.
    static let inbox = """
        ALTER TABLE episodes ADD COLUMN inbox_at REAL;
        CREATE INDEX episodes_in_inbox ON episodes(inbox_at) WHERE inbox_at IS NOT NULL;
        CREATE INDEX episodes_by_duration ON episodes(duration);
        CREATE INDEX episodes_by_podcast_duration ON episodes(podcast_id, duration);
        """

    /// Issue 13: transcripts, fetched when an episode is opened and kept, one row per episode
    /// (the address it came from: a refresh that names another one makes the next open fetch
    /// again) and its cues, whose words are indexed like the notes. Cues go with their
    /// transcript, and a transcript with its episode.
    static let transcripts = """
        CREATE TABLE transcripts(
            episode_id INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            format TEXT NOT NULL,
            fetched_at REAL NOT NULL
        );
        CREATE TABLE transcript_cues(
            id INTEGER PRIMARY KEY,
            episode_id INTEGER NOT NULL REFERENCES transcripts(episode_id) ON DELETE CASCADE,
            start REAL,
            "end" REAL,
            speaker TEXT,
            text TEXT NOT NULL
        );
        CREATE INDEX transcript_cues_by_episode ON transcript_cues(episode_id, id);
        CREATE VIRTUAL TABLE transcript_fts USING fts5(text, content='transcript_cues', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2');
        CREATE TRIGGER transcript_fts_insert AFTER INSERT ON transcript_cues BEGIN
            INSERT INTO transcript_fts(rowid, text) VALUES(new.id, new.text);
        END;
        CREATE TRIGGER transcript_fts_delete AFTER DELETE ON transcript_cues BEGIN
            INSERT INTO transcript_fts(transcript_fts, rowid, text) VALUES('delete', old.id, old.text);
        END;
        """
}
