import FoundationEssentials

/// The `downloads` message (docs/protocol.md): every download, the batch's summary and the
/// settings. The same JSON answers `GET /api/downloads`.
public struct DownloadsMessage: Sendable, Equatable {
    public var items: [DownloadItem]
    public var summary: DownloadSummary
    public var settings: DownloadSettings

    public init(items: [DownloadItem], summary: DownloadSummary, settings: DownloadSettings) {
        self.items = items; self.summary = summary; self.settings = settings
    }

    /// The frame's shape (`ServerMessage.downloads` encodes it); items in the order they were queued.
    var wire: Wire {
        let ordered = items.sorted { ($0.queuedAt, $0.episodeID) < ($1.queuedAt, $1.episodeID) }
        return Wire(items: ordered.map(ItemWire.init), summary: summary, settings: settings)
    }

    struct Wire: Encodable {
        var type = "downloads"
        var items: [ItemWire]
        var summary: DownloadSummary
        var settings: DownloadSettings
    }

    struct ItemWire: Encodable {
        var episode: Int64
        var podcastId: Int64
        var title: String
        var podcast: String
        var state: String
        var bytes: Int64
        var total: Int64?
        var fraction: Double?
        var error: String?
        var retryAt: Double?
        var automatic: Bool
        var queuedAt: Double
        var finishedAt: Double?

        init(_ item: DownloadItem) {
            episode = item.episodeID; podcastId = item.info.podcastID; title = item.info.title
            podcast = item.info.podcastTitle; state = item.state.rawValue; bytes = item.bytes
            total = item.expectedBytes; fraction = item.fraction; error = item.error
            retryAt = item.retryAt?.timeIntervalSince1970; automatic = item.automatic
            queuedAt = item.queuedAt.timeIntervalSince1970; finishedAt = item.finishedAt?.timeIntervalSince1970
        }

        func encode(to encoder: Encoder) throws {
            enum K: String, CodingKey {
                case episode, podcastId, title, podcast, state, bytes, total, fraction, error, retryAt, automatic, queuedAt, finishedAt
            }
            var c = encoder.container(keyedBy: K.self)
            try c.encode(episode, forKey: .episode); try c.encode(podcastId, forKey: .podcastId)
            try c.encode(title, forKey: .title); try c.encode(podcast, forKey: .podcast)
            try c.encode(state, forKey: .state); try c.encode(bytes, forKey: .bytes)
            // Explicit nulls: a client tells "unknown" from "absent" without guessing.
            try c.encode(total, forKey: .total); try c.encode(fraction, forKey: .fraction)
            try c.encode(error, forKey: .error); try c.encode(retryAt, forKey: .retryAt)
            try c.encode(automatic, forKey: .automatic); try c.encode(queuedAt, forKey: .queuedAt)
            try c.encode(finishedAt, forKey: .finishedAt)
        }
    }
}
