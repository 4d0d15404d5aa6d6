import FoundationEssentials

/// One episode's download: what the library keeps (table `downloads`) and what clients are sent.
/// Its fields are read-only outside EarshotCore: every change is an event through
/// `apply(_:now:retry:)` (DownloadItem+Transitions.swift), which refuses the ones its state does not allow.
/// Its state changes only through `apply(_:now:retry:)` (DownloadItem+Transitions.swift).
public struct DownloadItem: Sendable, Equatable {
    public internal(set) var episodeID: Int64
    public internal(set) var state: DownloadState
    /// The address it is fetched from: the episode's enclosure URL when it was queued.
    public internal(set) var url: String
    /// Bytes on disk: of the partial file until done, then of the file.
    public internal(set) var bytes: Int64
    /// The size expected, once a server said it (else the feed's enclosure length, when given).
    public internal(set) var total: Int64?
    /// The feed's enclosure length (0: the feed gave none). Checked only when the server sends no length.
    public internal(set) var enclosureLength: Int64
    /// The file, relative to the downloads folder ("12/345.mp3"); the partial file is this + ".part".
    public internal(set) var file: String
    /// The validators of the partial file, as the server sent them (resume only with a strong one).
    public internal(set) var etag: String?
    public internal(set) var lastModified: String?
    /// Why it failed (failed), or why the last attempt failed while a retry waits (queued).
    public internal(set) var error: String?
    /// Failed attempts in a row; the retry schedule counts them.
    public internal(set) var attempts: Int
    /// A queued retry does not start before this.
    public internal(set) var retryAt: Date?
    /// Queued by the auto-download policy rather than by hand.
    public internal(set) var automatic: Bool
    public internal(set) var queuedAt: Date
    public internal(set) var finishedAt: Date?
    /// What lists show: the episode and podcast as the library has them (not stored with the download).
    public internal(set) var info: Info

    /// The episode a download belongs to, for display.
    public struct Info: Sendable, Equatable {
        public var title: String
        public var podcastID: Int64
        public var podcastTitle: String
        /// The episode's enclosure URL as the feed now says (it may have moved since `url` was queued):
        /// the player asks for a downloaded file by either address.
        public var mediaURL: String

        public init(title: String = "", podcastID: Int64 = 0, podcastTitle: String = "", mediaURL: String = "") {
            self.title = title; self.podcastID = podcastID; self.podcastTitle = podcastTitle; self.mediaURL = mediaURL
        }
    }

    public init(episodeID: Int64, state: DownloadState = .queued, url: String, bytes: Int64 = 0, total: Int64? = nil,
                enclosureLength: Int64 = 0, file: String, etag: String? = nil, lastModified: String? = nil,
                error: String? = nil, attempts: Int = 0, retryAt: Date? = nil, automatic: Bool = false,
                queuedAt: Date, finishedAt: Date? = nil, info: Info = Info()) {
        self.episodeID = episodeID; self.state = state; self.url = url; self.bytes = bytes; self.total = total
        self.enclosureLength = enclosureLength; self.file = file; self.etag = etag; self.lastModified = lastModified
        self.error = error; self.attempts = attempts; self.retryAt = retryAt; self.automatic = automatic
        self.queuedAt = queuedAt; self.finishedAt = finishedAt; self.info = info
    }

    /// The size to show and to count in the aggregate: the server's, else the feed's (when given).
    public var expectedBytes: Int64? {
        if let total, total > 0 { return total }
        return enclosureLength > 0 ? enclosureLength : nil
    }

    /// Done: 1; otherwise bytes over the expected size (nil while the size is unknown).
    public var fraction: Double? {
        if state == .done { return 1 }
        guard let expected = expectedBytes else { return nil }
        return min(1, max(0, Double(bytes) / Double(expected)))
    }
}
