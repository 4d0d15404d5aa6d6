import FoundationEssentials

/// A subscribed show, as the library stores it and the API sends it.
public struct Podcast: Codable, Sendable, Equatable, Identifiable {
    /// How the last refresh of the feed went.
    public enum Status: String, Codable, Sendable {
        /// Fetched and read (or unchanged since).
        case ok
        /// The last refresh failed (network, server error, unreadable feed); `error` says why.
        case error
        /// The server says the feed is no longer there (404 or 410).
        case gone
    }

    public var id: Int64
    public var feedURL: String
    public var title: String
    public var author: String
    public var summary: String
    public var artworkURL: String?
    public var link: String?
    /// How many episodes the library holds for it (filled by list queries).
    public var episodeCount: Int
    public var status: Status
    /// Why the last refresh failed, in words a listener can act on; nil when it did not.
    public var error: String?
    /// When the feed was last fetched successfully (or found unchanged); nil if never.
    public var refreshedAt: Date?
    /// What the last parse of the feed recovered from.
    public var warnings: [String]
    /// Everything else the feed says; only filled when a single podcast is read.
    public var details: PodcastDetails?

    public init(id: Int64, feedURL: String, title: String, author: String = "", summary: String = "",
                artworkURL: String? = nil, link: String? = nil, episodeCount: Int = 0,
                status: Status = .ok, error: String? = nil, refreshedAt: Date? = nil,
                warnings: [String] = [], details: PodcastDetails? = nil) {
        self.id = id; self.feedURL = feedURL; self.title = title; self.author = author
        self.summary = summary; self.artworkURL = artworkURL; self.link = link
        self.episodeCount = episodeCount; self.status = status; self.error = error
        self.refreshedAt = refreshedAt; self.warnings = warnings; self.details = details
    }

    enum CodingKeys: String, CodingKey {
        case id, feedURL = "feedUrl", title, author, summary, artworkURL = "artwork", link, episodeCount
        case status, error, refreshedAt, warnings, details
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(feedURL, forKey: .feedURL)
        try c.encode(title, forKey: .title); try c.encode(author, forKey: .author)
        try c.encode(summary, forKey: .summary)
        // Explicit nulls: clients may rely on every key being there.
        try c.encode(artworkURL, forKey: .artworkURL); try c.encode(link, forKey: .link)
        try c.encode(episodeCount, forKey: .episodeCount); try c.encode(status, forKey: .status)
        try c.encode(error, forKey: .error)
        // Unix seconds, like every date on the wire.
        try c.encode(refreshedAt.map { $0.timeIntervalSince1970 }, forKey: .refreshedAt)
        try c.encode(warnings, forKey: .warnings)
        try c.encodeIfPresent(details, forKey: .details)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int64.self, forKey: .id); feedURL = try c.decode(String.self, forKey: .feedURL)
        title = try c.decode(String.self, forKey: .title)
        author = try c.decodeIfPresent(String.self, forKey: .author) ?? ""
        summary = try c.decodeIfPresent(String.self, forKey: .summary) ?? ""
        artworkURL = try c.decodeIfPresent(String.self, forKey: .artworkURL)
        link = try c.decodeIfPresent(String.self, forKey: .link)
        episodeCount = try c.decodeIfPresent(Int.self, forKey: .episodeCount) ?? 0
        status = try c.decodeIfPresent(Status.self, forKey: .status) ?? .ok
        error = try c.decodeIfPresent(String.self, forKey: .error)
        refreshedAt = try c.decodeIfPresent(Double.self, forKey: .refreshedAt).map { Date(timeIntervalSince1970: $0) }
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
        details = try c.decodeIfPresent(PodcastDetails.self, forKey: .details)
    }
}
