/// The library's tables, as ordered migrations. Append new ones at the end; never edit a shipped one.
enum LibrarySchema {
    static let migrator: Migrator = {
        var migrator = Migrator()
        migrator.register("v1-podcasts-episodes-settings") { db in
            try db.execute(v1)
        }
        migrator.register("v2-refresh-state-details-unsubscribe") { db in
            try db.execute(v2)
        }
        migrator.register("v3-playlists") { db in
            try db.execute(v3)
        }
        migrator.register("v4-episode-chapters") { db in
            try db.execute(episodeChapters) // LibrarySchema+Chapters.swift
        }
        migrator.register("v5-downloads") { db in
            try db.execute(downloads) // LibrarySchema+Downloads.swift
        }
        migrator.register("v6-devices") { db in
            try db.execute(devices) // LibrarySchema+Devices.swift
        }
        migrator.register("v7-search") { db in
            try db.execute(search) // LibrarySchema+Search.swift
        }
        migrator.register("v8-transcripts") { db in
            try db.execute(transcripts) // LibrarySchema+Search.swift
        }
        migrator.register("v9-inbox-and-sorts") { db in
            try db.execute(inbox) // LibrarySchema+Search.swift
        }
        migrator.register("v10-sync") { db in
            try db.execute(sync) // LibrarySchema+Sync.swift
        }
        migrator.register("v11-loudness") { db in
            try db.execute(loudness) // LibrarySchema+Downloads.swift
        }
        migrator.register("v12-listening-log") { db in
            try db.execute(listening) // LibrarySchema+Listening.swift
        }
        migrator.register("v13-episode-counts") { db in
            try db.execute(episodeCounts) // LibrarySchema+Counts.swift
        }
        return migrator
    }()

    /// Dates are REAL Unix seconds. Text columns the feed may omit are NOT NULL DEFAULT '' so readers
    /// need no nil checks; URLs that may be absent stay NULL.
    private static let v1 = """
        CREATE TABLE podcasts(
            id INTEGER PRIMARY KEY,
            feed_url TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL DEFAULT '',
            author TEXT NOT NULL DEFAULT '',
            summary TEXT NOT NULL DEFAULT '',
            artwork_url TEXT,
            link TEXT,
            added_at REAL NOT NULL,
            updated_at REAL NOT NULL
        );
        CREATE TABLE episodes(
            id INTEGER PRIMARY KEY,
            podcast_id INTEGER NOT NULL REFERENCES podcasts(id) ON DELETE CASCADE,
            guid TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            summary TEXT NOT NULL DEFAULT '',
            media_url TEXT NOT NULL DEFAULT '',
            media_type TEXT NOT NULL DEFAULT '',
            media_length INTEGER NOT NULL DEFAULT 0,
            duration REAL NOT NULL DEFAULT 0,
            published REAL,
            artwork_url TEXT,
            link TEXT,
            position REAL NOT NULL DEFAULT 0,
            played INTEGER NOT NULL DEFAULT 0,
            position_updated_at REAL,
            UNIQUE(podcast_id, guid)
        );
        -- Ascending indexes scanned backwards give "published DESC, id DESC" with NULL dates last
        -- (SQLite sorts NULL lowest) and no sort step: the rowid is the index's hidden last column.
        CREATE INDEX episodes_by_podcast_published ON episodes(podcast_id, published);
        CREATE INDEX episodes_by_published ON episodes(published);
        CREATE TABLE settings(
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT
        );
        """

    /// Issue 3: what a refresh needs to remember (validators exactly as the server sent them, how the
    /// last one went), the feed's full details as JSON (read only for a single podcast or episode, so
    /// lists never decode JSON), and unsubscribing as a flag: an unsubscribed podcast leaves every list
    /// but keeps its episodes' positions and played state for the day it is subscribed again.
    private static let v2 = """
        -- Small columns first, the details last: a list reading the others never walks the JSON's
        -- overflow pages.
        ALTER TABLE podcasts ADD COLUMN subscribed INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE podcasts ADD COLUMN status TEXT NOT NULL DEFAULT 'ok' CHECK(status IN ('ok', 'error', 'gone'));
        ALTER TABLE podcasts ADD COLUMN last_error TEXT;
        ALTER TABLE podcasts ADD COLUMN refreshed_at REAL;
        ALTER TABLE podcasts ADD COLUMN etag TEXT;
        ALTER TABLE podcasts ADD COLUMN last_modified TEXT;
        ALTER TABLE podcasts ADD COLUMN warnings_json TEXT;
        ALTER TABLE podcasts ADD COLUMN details_json TEXT;
        -- Libraries from before were fetched when subscribed: that was their last refresh.
        UPDATE podcasts SET refreshed_at = updated_at;
        ALTER TABLE episodes ADD COLUMN details_json TEXT;
        -- Matching an item whose guid changed by its enclosure URL, within one podcast.
        CREATE INDEX episodes_by_podcast_media ON episodes(podcast_id, media_url);
        """

    /// Issue 4: named playlists. `name_key` (the name in NFC, lowercased: `PlaylistName.key`) keeps
    /// two playlists from sharing a name. An item's `position` orders the playlist; the store
    /// rewrites a playlist's positions as 0…n-1 on every reorder, so gaps (after a remove) are
    /// harmless. An episode is in a playlist at most once (the primary key); deleting the
    /// playlist or the episode takes its items along.
    private static let v3 = """
        CREATE TABLE playlists(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        );
        CREATE TABLE playlist_items(
            playlist_id INTEGER NOT NULL REFERENCES playlists(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
            PRIMARY KEY(playlist_id, episode_id)
        ) WITHOUT ROWID;
        CREATE INDEX playlist_items_by_position ON playlist_items(playlist_id, position);
        -- Without it, deleting an episode would scan every playlist item for the cascade.
        CREATE INDEX playlist_items_by_episode ON playlist_items(episode_id);
        """
}
