extension LibrarySchema {
    /// Issue 16: Earshot as the sync server of phone podcast apps (gpodder.net's API, Nextcloud's
    /// gpoddersync).
    ///
    /// - `sync_devices`: the devices sync clients registered (their own ids, captions, types).
    /// - `sync_subscription_log`: every change to what the library is subscribed to, whoever made
    ///   it (the web app, OPML, a phone), as triggers on `podcasts` write it: clients ask for the
    ///   changes `since` a time. A feed that moved (a permanent redirect) is its old address removed
    ///   and its new one added, so phones follow the move.
    /// - `sync_episode_actions`: the actions phones uploaded, as they sent them (times capped at
    ///   their arrival), for the other devices; `episode_id` is the episode they were matched to
    ///   (NULL until it is in the library: a podcast a phone just subscribed is fetched after).
    /// - `media_url_aliases`, `podcast_url_aliases`: addresses an episode's media or a podcast's feed
    ///   had before the feed changed them or a redirect moved them, so a phone that still has the
    ///   old one is understood. Triggers keep them.
    /// - `episodes.position_by`: the sync device whose action set the position and played mark;
    ///   NULL when Earshot set them (those are what Earshot publishes as its own actions).
    static let sync = """
        CREATE TABLE sync_devices(
            id TEXT PRIMARY KEY NOT NULL,
            caption TEXT NOT NULL DEFAULT '',
            type TEXT NOT NULL DEFAULT 'other',
            created_at REAL NOT NULL,
            seen_at REAL NOT NULL
        );
        CREATE TABLE sync_subscription_log(
            id INTEGER PRIMARY KEY,
            at REAL NOT NULL,
            url TEXT NOT NULL,
            added INTEGER NOT NULL
        );
        CREATE INDEX sync_subscription_log_by_time ON sync_subscription_log(at);
        CREATE TABLE sync_episode_actions(
            id INTEGER PRIMARY KEY,
            received_at REAL NOT NULL,
            device TEXT NOT NULL,
            podcast TEXT NOT NULL,
            episode TEXT NOT NULL,
            guid TEXT,
            action TEXT NOT NULL CHECK(action IN ('new', 'download', 'play', 'delete', 'flattr')),
            at REAL NOT NULL,
            started INTEGER,
            position INTEGER,
            total INTEGER,
            episode_id INTEGER REFERENCES episodes(id) ON DELETE SET NULL
        );
        CREATE INDEX sync_episode_actions_by_time ON sync_episode_actions(received_at);
        CREATE INDEX sync_episode_actions_unmatched ON sync_episode_actions(podcast) WHERE episode_id IS NULL;
        CREATE INDEX sync_episode_actions_by_episode ON sync_episode_actions(episode_id) WHERE episode_id IS NOT NULL;
        CREATE TABLE media_url_aliases(
            url TEXT PRIMARY KEY NOT NULL,
            episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX media_url_aliases_by_episode ON media_url_aliases(episode_id);
        CREATE TABLE podcast_url_aliases(
            url TEXT PRIMARY KEY NOT NULL,
            podcast_id INTEGER NOT NULL REFERENCES podcasts(id) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX podcast_url_aliases_by_podcast ON podcast_url_aliases(podcast_id);
        ALTER TABLE episodes ADD COLUMN position_by TEXT;
        -- Earshot's own actions since a time: the episodes whose position or mark it changed.
        CREATE INDEX episodes_by_position_change ON episodes(position_updated_at) WHERE position_updated_at IS NOT NULL;

        CREATE TRIGGER podcasts_sync_added AFTER INSERT ON podcasts WHEN NEW.subscribed BEGIN
            INSERT INTO sync_subscription_log(at, url, added) VALUES((julianday('now') - 2440587.5) * 86400.0, NEW.feed_url, 1);
        END;
        CREATE TRIGGER podcasts_sync_subscribed AFTER UPDATE OF subscribed ON podcasts
        WHEN NEW.subscribed IS NOT OLD.subscribed BEGIN
            INSERT INTO sync_subscription_log(at, url, added)
            VALUES((julianday('now') - 2440587.5) * 86400.0, NEW.feed_url, NEW.subscribed != 0);
        END;
        CREATE TRIGGER podcasts_sync_moved AFTER UPDATE OF feed_url ON podcasts
        WHEN NEW.feed_url IS NOT OLD.feed_url BEGIN
            INSERT OR REPLACE INTO podcast_url_aliases(url, podcast_id) VALUES(OLD.feed_url, OLD.id);
            DELETE FROM podcast_url_aliases WHERE url = NEW.feed_url;
            INSERT INTO sync_subscription_log(at, url, added)
            SELECT (julianday('now') - 2440587.5) * 86400.0, OLD.feed_url, 0 WHERE NEW.subscribed;
            INSERT INTO sync_subscription_log(at, url, added)
            SELECT (julianday('now') - 2440587.5) * 86400.0, NEW.feed_url, 1 WHERE NEW.subscribed;
        END;
        CREATE TRIGGER podcasts_sync_deleted AFTER DELETE ON podcasts WHEN OLD.subscribed BEGIN
            INSERT INTO sync_subscription_log(at, url, added) VALUES((julianday('now') - 2440587.5) * 86400.0, OLD.feed_url, 0);
        END;
        -- What the library held before: phones syncing the first time get it as added.
        INSERT INTO sync_subscription_log(at, url, added)
        SELECT (julianday('now') - 2440587.5) * 86400.0, feed_url, 1 FROM podcasts WHERE subscribed;
        CREATE TRIGGER episodes_media_moved AFTER UPDATE OF media_url ON episodes
        WHEN OLD.media_url != '' AND NEW.media_url IS NOT OLD.media_url BEGIN
            INSERT OR REPLACE INTO media_url_aliases(url, episode_id) VALUES(OLD.media_url, OLD.id);
        END;
        """
}
