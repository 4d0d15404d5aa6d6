/// The statements `LibraryStore` runs, kept together so tests can check their query plans.
enum LibrarySQL {
    // MARK: Podcasts

    /// Columns read by `Podcast(row:)`, in order. Lists read these only: no JSON but the warnings,
    /// which are NULL (not decoded) for the usual feed that had nothing to recover from.
    static let podcastFields = """
        p.id, p.feed_url, p.title, p.author, p.summary, p.artwork_url, p.link,
        coalesce((SELECT c.total FROM episode_counts c WHERE c.podcast_id = p.id), 0),
        p.status, p.last_error, p.refreshed_at, p.warnings_json
        """
    /// Unsubscribed podcasts stay in the table (their episodes keep the listener's progress) but
    /// leave every read here.
    static let allPodcasts = "SELECT \(podcastFields) FROM podcasts p WHERE p.subscribed = 1"
    /// One podcast with its details (column 12).
    static let podcastByID = "SELECT \(podcastFields), p.details_json FROM podcasts p WHERE p.id = ? AND p.subscribed = 1"
    static let podcastByFeedURL = "SELECT \(podcastFields) FROM podcasts p WHERE p.feed_url = ? AND p.subscribed = 1"

    /// Subscribes: inserts a podcast, or refreshes (and revives, when it was unsubscribed) the one at
    /// this feed URL. `added_at` keeps the first subscription. A subscription is a fresh fetch, so the
    /// status is ok and the validators are the ones that fetch brought (or none).
    static let upsertPodcast = """
        INSERT INTO podcasts(feed_url, title, author, summary, artwork_url, link, added_at, updated_at,
                             details_json, warnings_json, etag, last_modified, status, last_error, refreshed_at, subscribed)
        VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9, ?10, ?11, 'ok', NULL, ?7, 1)
        ON CONFLICT(feed_url) DO UPDATE SET
            title = excluded.title, author = excluded.author, summary = excluded.summary,
            artwork_url = excluded.artwork_url, link = excluded.link, updated_at = excluded.updated_at,
            details_json = excluded.details_json, warnings_json = excluded.warnings_json,
            etag = excluded.etag, last_modified = excluded.last_modified,
            status = 'ok', last_error = NULL, refreshed_at = excluded.refreshed_at, subscribed = 1
        RETURNING id
        """

    /// Stores a refreshed feed into a subscribed podcast (never revives an unsubscribed one).
    static let updateRefreshedPodcast = """
        UPDATE podcasts SET title = ?2, author = ?3, summary = ?4, artwork_url = ?5, link = ?6, updated_at = ?7,
            details_json = ?8, warnings_json = ?9, etag = ?10, last_modified = ?11,
            status = 'ok', last_error = NULL, refreshed_at = ?7
        WHERE id = ?1 AND subscribed = 1
        """
    /// A 304: only the bookkeeping changes. A validator the 304 repeats or renews replaces the stored one.
    static let markNotModified = """
        UPDATE podcasts SET status = 'ok', last_error = NULL, refreshed_at = ?2,
            etag = COALESCE(?3, etag), last_modified = COALESCE(?4, last_modified)
        WHERE id = ?1 AND subscribed = 1
        """
    /// A failed refresh: the feed's content and `refreshed_at` (the last success) stay.
    static let markFailed = "UPDATE podcasts SET status = ?2, last_error = ?3 WHERE id = ?1 AND subscribed = 1"
    /// Moves a subscription to a new feed URL unless some podcast already has that URL. `?3` true
    /// drops the validators: they belong to the old address.
    static let moveFeed = """
        UPDATE podcasts SET feed_url = ?2,
            etag = CASE WHEN ?3 THEN NULL ELSE etag END, last_modified = CASE WHEN ?3 THEN NULL ELSE last_modified END
        WHERE id = ?1 AND subscribed = 1 AND NOT EXISTS (SELECT 1 FROM podcasts WHERE feed_url = ?2)
        """
    static let unsubscribe = "UPDATE podcasts SET subscribed = 0 WHERE id = ? AND subscribed = 1"

    /// What a refresh needs to know about each subscribed feed.
    static let feedsToRefresh = "SELECT id, feed_url, title, etag, last_modified FROM podcasts WHERE subscribed = 1 ORDER BY id"
    static let feedToRefresh = "SELECT id, feed_url, title, etag, last_modified FROM podcasts WHERE id = ? AND subscribed = 1"

    // MARK: Episodes

    /// Columns read by `Episode(row:)`, in order. An episode without its own image shows the podcast's.
    static let episodeFields = """
        e.id, e.podcast_id, p.title, e.guid, e.title, e.summary, e.media_url, e.media_type,
        e.media_length, e.duration, e.published, COALESCE(NULLIF(e.artwork_url, ''), p.artwork_url),
        e.position, e.played, e.inbox_at IS NOT NULL
        """
    static let episodesOfPodcast = """
        SELECT \(episodeFields) FROM episodes e JOIN podcasts p ON p.id = e.podcast_id
        WHERE e.podcast_id = ? AND p.subscribed = 1 ORDER BY e.published DESC, e.id DESC LIMIT ?
        """
    /// CROSS JOIN keeps episodes the outer loop, walked backwards along `episodes_by_published`:
    /// without it the planner may start from podcasts and sort every episode.
    static let recentEpisodes = """
        SELECT \(episodeFields) FROM episodes e CROSS JOIN podcasts p ON p.id = e.podcast_id
        WHERE p.subscribed = 1 ORDER BY e.published DESC, e.id DESC LIMIT ?
        """
    /// One episode with its details (column 15), whether or not its podcast is still subscribed:
    /// the player may be holding it.
    static let episodeByID = """
        SELECT \(episodeFields), e.details_json FROM episodes e JOIN podcasts p ON p.id = e.podcast_id WHERE e.id = ?
        """

    /// What merging a feed into a podcast matches items against.
    static let episodeKeys = "SELECT id, guid, media_url FROM episodes WHERE podcast_id = ?"
    static let insertEpisode = """
        INSERT INTO episodes(podcast_id, guid, title, summary, media_url, media_type, media_length,
                             duration, published, artwork_url, link, details_json)
        VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    /// Refreshes what the feed says about an item (its guid too, when it was matched by enclosure),
    /// never the listener's position or played state. Unchanged rows are not rewritten, so
    /// refreshing a big feed writes little.
    static let updateEpisode = """
        UPDATE episodes SET guid = ?2, title = ?3, summary = ?4, media_url = ?5, media_type = ?6,
            media_length = ?7, duration = ?8, published = ?9, artwork_url = ?10, link = ?11, details_json = ?12
        WHERE id = ?1 AND (guid IS NOT ?2 OR title IS NOT ?3 OR summary IS NOT ?4 OR media_url IS NOT ?5
            OR media_type IS NOT ?6 OR media_length IS NOT ?7 OR duration IS NOT ?8 OR published IS NOT ?9
            OR artwork_url IS NOT ?10 OR link IS NOT ?11 OR details_json IS NOT ?12)
        """

    /// Listening (a position saved past the start) takes an episode out of the Inbox.
    static let savePosition = """
        UPDATE episodes SET position = ?1, position_updated_at = ?2, position_by = NULL, inbox_at = CASE WHEN ?1 > 0 THEN NULL ELSE inbox_at END
        WHERE id = ?3
        """
    /// Marking played starts the episode over next time; marking unplayed keeps the position.
    static let setPlayed = """
        UPDATE episodes SET played = ?1, position = CASE WHEN ?1 THEN 0 ELSE position END,
            position_updated_at = ?2, position_by = NULL, inbox_at = CASE WHEN ?1 THEN NULL ELSE inbox_at END
        WHERE id = ?3
        """

    // MARK: Settings

    static let setting = "SELECT value FROM settings WHERE key = ?"
    static let setSetting = """
        INSERT INTO settings(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value
        """
    static let deleteSetting = "DELETE FROM settings WHERE key = ?"
}
