/// The statements of `LibraryStore+Playlists`, kept together like `LibrarySQL`.
enum PlaylistSQL {
    /// Columns read by `Playlist(row:)` (before its episodes are filled in).
    static let playlistFields = "l.id, l.name, l.created_at, l.updated_at"
    static let allPlaylists = "SELECT \(playlistFields) FROM playlists l ORDER BY l.name_key, l.id"
    static let playlistByID = "SELECT \(playlistFields) FROM playlists l WHERE l.id = ?"
    /// The playlist (other than `?2`) that already uses a name key, if any.
    static let playlistWithKey = "SELECT id FROM playlists WHERE name_key = ?1 AND id IS NOT ?2"

    static let insertPlaylist = """
        INSERT INTO playlists(name, name_key, created_at, updated_at) VALUES(?1, ?2, ?3, ?3) RETURNING id
        """
    static let renamePlaylist = "UPDATE playlists SET name = ?2, name_key = ?3, updated_at = ?4 WHERE id = ?1"
    static let touchPlaylist = "UPDATE playlists SET updated_at = ?2 WHERE id = ?1"
    static let deletePlaylist = "DELETE FROM playlists WHERE id = ?"

    /// The shown items of every playlist with their durations, grouped by playlist, in order:
    /// one walk of `playlist_items_by_position` for the whole list view.
    static let shownItems = """
        SELECT i.playlist_id, i.episode_id, e.duration
        FROM playlist_items i JOIN episodes e ON e.id = i.episode_id JOIN podcasts p ON p.id = e.podcast_id
        WHERE p.subscribed = 1 ORDER BY i.playlist_id, i.position
        """
    static let shownItemsOfPlaylist = """
        SELECT i.playlist_id, i.episode_id, e.duration
        FROM playlist_items i JOIN episodes e ON e.id = i.episode_id JOIN podcasts p ON p.id = e.podcast_id
        WHERE i.playlist_id = ? AND p.subscribed = 1 ORDER BY i.position
        """
    /// Every item, hidden or not, and whether it is shown: what an edit starts from.
    static let allItems = """
        SELECT i.episode_id, p.subscribed
        FROM playlist_items i JOIN episodes e ON e.id = i.episode_id JOIN podcasts p ON p.id = e.podcast_id
        WHERE i.playlist_id = ? ORDER BY i.position
        """
    /// One playlist's shown episodes, as full `Episode` rows, in order.
    static let episodesOfPlaylist = """
        SELECT \(LibrarySQL.episodeFields)
        FROM playlist_items i JOIN episodes e ON e.id = i.episode_id JOIN podcasts p ON p.id = e.podcast_id
        WHERE i.playlist_id = ? AND p.subscribed = 1 ORDER BY i.position
        """
    /// Whether an episode exists (a row) and its podcast is subscribed (column 0).
    static let episodeSubscribed = """
        SELECT p.subscribed FROM episodes e JOIN podcasts p ON p.id = e.podcast_id WHERE e.id = ?
        """

    static let clearItems = "DELETE FROM playlist_items WHERE playlist_id = ?"
    static let insertItem = "INSERT INTO playlist_items(playlist_id, position, episode_id) VALUES(?, ?, ?)"
}
