/// The statements `LibraryStore` runs, kept together so tests can check their query plans.
enum LibrarySQL {
    // MARK: Podcasts

    /// Columns read by `Podcast(row:)`, in order.
    static let podcastColumns = """
        SELECT p.id, p.feed_url, p.title, p.author, p.summary, p.artwork_url, p.link,
               (SELECT count(*) FROM episodes e WHERE e.podcast_id = p.id)
        FROM podcasts p
        """
    static let allPodcasts = podcastColumns
    static let podcastByID = podcastColumns + " WHERE p.id = ?"
    static let podcastByFeedURL = podcastColumns + " WHERE p.feed_url = ?"

    /// Inserts a podcast or refreshes its feed-provided fields; `added_at` keeps the first subscription.
    static let upsertPodcast = """
        INSERT INTO podcasts(feed_url, title, author, summary, artwork_url, link, added_at, updated_at)
        VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
        ON CONFLICT(feed_url) DO UPDATE SET
            title = excluded.title, author = excluded.author, summary = excluded.summary,
            artwork_url = excluded.artwork_url, link = excluded.link, updated_at = excluded.updated_at
        RETURNING id
        """

    // MARK: Episodes

    /// Columns read by `Episode(row:)`, in order. An episode without its own image shows the podcast's.
    static let episodeColumns = """
        SELECT e.id, e.podcast_id, p.title, e.guid, e.title, e.summary, e.media_url, e.media_type,
               e.media_length, e.duration, e.published, COALESCE(NULLIF(e.artwork_url, ''), p.artwork_url),
               e.position, e.played
        FROM episodes e JOIN podcasts p ON p.id = e.podcast_id
        """
    static let episodesOfPodcast = episodeColumns
        + " WHERE e.podcast_id = ? ORDER BY e.published DESC, e.id DESC LIMIT ?"
    static let recentEpisodes = episodeColumns + " ORDER BY e.published DESC, e.id DESC LIMIT ?"
    static let episodeByID = episodeColumns + " WHERE e.id = ?"

    /// Inserts an item or refreshes what the feed says about it, never the listener's position or
    /// played state. Unchanged rows are not rewritten, so refreshing a big feed writes little.
    static let upsertEpisode = """
        INSERT INTO episodes(podcast_id, guid, title, summary, media_url, media_type, media_length,
                             duration, published, artwork_url, link)
        VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(podcast_id, guid) DO UPDATE SET
            title = excluded.title, summary = excluded.summary, media_url = excluded.media_url,
            media_type = excluded.media_type, media_length = excluded.media_length,
            duration = excluded.duration, published = excluded.published,
            artwork_url = excluded.artwork_url, link = excluded.link
        WHERE title IS NOT excluded.title OR summary IS NOT excluded.summary
            OR media_url IS NOT excluded.media_url OR media_type IS NOT excluded.media_type
            OR media_length IS NOT excluded.media_length OR duration IS NOT excluded.duration
            OR published IS NOT excluded.published OR artwork_url IS NOT excluded.artwork_url
            OR link IS NOT excluded.link
        """

    static let savePosition = "UPDATE episodes SET position = ?, position_updated_at = ? WHERE id = ?"
    /// Marking played starts the episode over next time; marking unplayed keeps the position.
    static let setPlayed = """
        UPDATE episodes SET played = ?1, position = CASE WHEN ?1 THEN 0 ELSE position END,
            position_updated_at = ?2
        WHERE id = ?3
        """

    // MARK: Settings

    static let setting = "SELECT value FROM settings WHERE key = ?"
    static let setSetting = """
        INSERT INTO settings(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value
        """
    static let deleteSetting = "DELETE FROM settings WHERE key = ?"
}
