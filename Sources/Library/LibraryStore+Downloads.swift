import EarshotCore
import Foundation

/// Downloads (table `downloads`, LibrarySchema+Downloads.swift): the download manager's state, kept
/// so that a restart (or a crash) finds every download where it was.
extension LibraryStore {
    private static let downloadFields = """
        d.episode_id, d.state, d.url, d.file, d.bytes, d.total, d.enclosure_length, d.etag, d.last_modified,
        d.error, d.attempts, d.retry_at, d.automatic, d.queued_at, d.finished_at,
        e.title, e.podcast_id, p.title, e.media_url
        """

    /// Every download but the ones deleted by hand, with its episode's title and podcast.
    public func downloads() throws -> [DownloadItem] {
        try database.fetchAll("""
            SELECT \(Self.downloadFields) FROM downloads d JOIN episodes e ON e.id = d.episode_id
            JOIN podcasts p ON p.id = e.podcast_id WHERE d.state != 'removed' ORDER BY d.queued_at, d.episode_id
            """) { DownloadItem(row: $0) }
    }

    /// The download of one episode (nil: none, or deleted by hand).
    public func download(episodeID: Int64) throws -> DownloadItem? {
        try database.fetchOne("""
            SELECT \(Self.downloadFields) FROM downloads d JOIN episodes e ON e.id = d.episode_id
            JOIN podcasts p ON p.id = e.podcast_id WHERE d.episode_id = ? AND d.state != 'removed'
            """, [episodeID]) { DownloadItem(row: $0) }
    }

    /// Writes a download's state (inserting or replacing its row). Throws
    /// `LibraryError.episodeNotFound` when the episode is not in the library.
    public func saveDownload(_ item: DownloadItem) throws {
        let known = try database.fetchOne("SELECT 1 FROM episodes WHERE id = ?", [item.episodeID]) { _ in true }
        guard known != nil else { throw LibraryError.episodeNotFound(item.episodeID) }
        try database.run("""
            INSERT INTO downloads(episode_id, state, url, file, bytes, total, enclosure_length, etag, last_modified,
                                  error, attempts, retry_at, automatic, queued_at, finished_at, updated_at)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
            ON CONFLICT(episode_id) DO UPDATE SET state = excluded.state, url = excluded.url, file = excluded.file,
                bytes = excluded.bytes, total = excluded.total, enclosure_length = excluded.enclosure_length,
                etag = excluded.etag, last_modified = excluded.last_modified, error = excluded.error,
                attempts = excluded.attempts, retry_at = excluded.retry_at, automatic = excluded.automatic,
                queued_at = excluded.queued_at, finished_at = excluded.finished_at, updated_at = excluded.updated_at
            """, [item.episodeID, item.state.rawValue, item.url, item.file, item.bytes, item.total,
                  item.enclosureLength, item.etag, item.lastModified, item.error, item.attempts, item.retryAt,
                  item.automatic, item.queuedAt, item.finishedAt, Date()])
    }

    /// Only the byte count of a running download (the frequent write while bytes arrive).
    public func saveDownloadProgress(episodeID: Int64, bytes: Int64) throws {
        try database.run("UPDATE downloads SET bytes = ?, updated_at = ? WHERE episode_id = ? AND state = 'downloading'",
                         [bytes, Date(), episodeID])
    }

    /// Forgets a download deleted by hand, keeping a `removed` row so auto-download leaves the episode alone.
    public func removeDownload(episodeID: Int64) throws {
        try database.run("""
            UPDATE downloads SET state = 'removed', bytes = 0, error = NULL, retry_at = NULL, etag = NULL,
                last_modified = NULL, loudness = NULL, true_peak = NULL, updated_at = ? WHERE episode_id = ?
            """, [Date(), episodeID])
    }

    /// Stores a finished download's loudness (`Loudness`, measured after it landed).
    public func setDownloadLoudness(episodeID: Int64, _ loudness: Loudness) throws {
        try database.run("UPDATE downloads SET loudness = ?, true_peak = ?, updated_at = ? WHERE episode_id = ?",
                         [loudness.integrated, loudness.truePeak.isFinite ? loudness.truePeak : nil, Date(), episodeID])
    }

    /// The loudness of every finished download measured so far, by episode.
    public func downloadLoudness() throws -> [Int64: Loudness] {
        let rows = try database.fetchAll("""
            SELECT episode_id, loudness, true_peak FROM downloads WHERE state = 'done' AND loudness IS NOT NULL
            """) { row in
            (row.int64(at: 0), Loudness(integrated: row.double(at: 1), truePeak: row.optionalDouble(at: 2) ?? -.infinity))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// A subscribed podcast's newest `limit` episodes, newest first, as the auto-download policy sees them.
    public func autoDownloadCandidates(podcastID: Int64, limit: Int) throws -> [DownloadPolicy.Candidate] {
        try database.fetchAll("""
            SELECT e.id, e.played, EXISTS(SELECT 1 FROM downloads d WHERE d.episode_id = e.id)
            FROM episodes e JOIN podcasts p ON p.id = e.podcast_id
            WHERE e.podcast_id = ? AND p.subscribed = 1 ORDER BY e.published DESC, e.id DESC LIMIT ?
            """, [podcastID, limit]) { row in
            DownloadPolicy.Candidate(episodeID: row.int64(at: 0), played: row.bool(at: 1), known: row.bool(at: 2))
        }
    }

    /// Finished downloads of played episodes, with when they were marked played, for the cleanup policy.
    public func playedDownloads() throws -> [DownloadPolicy.PlayedDownload] {
        try database.fetchAll("""
            SELECT d.episode_id, e.position_updated_at FROM downloads d JOIN episodes e ON e.id = d.episode_id
            WHERE d.state = 'done' AND e.played = 1
            """) { DownloadPolicy.PlayedDownload(episodeID: $0.int64(at: 0), playedAt: $0.date(at: 1)) }
    }
}

extension DownloadItem {
    /// Reads a row of `downloadFields`.
    init(row: Statement) {
        self.init(episodeID: row.int64(at: 0), state: DownloadState(rawValue: row.string(at: 1)) ?? .failed,
                  url: row.string(at: 2), bytes: row.int64(at: 4), total: row.optionalInt64(at: 5),
                  enclosureLength: row.int64(at: 6), file: row.string(at: 3), etag: row.optionalString(at: 7),
                  lastModified: row.optionalString(at: 8), error: row.optionalString(at: 9),
                  attempts: Int(row.int64(at: 10)), retryAt: row.date(at: 11), automatic: row.bool(at: 12),
                  queuedAt: row.date(at: 13) ?? Date(), finishedAt: row.date(at: 14),
                  info: Info(title: row.string(at: 15), podcastID: row.int64(at: 16), podcastTitle: row.string(at: 17),
                             mediaURL: row.string(at: 18)))
    }
}
