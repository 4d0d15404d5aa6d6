import FoundationEssentials

/// One episode of a podcast with the listener's progress on it.
public struct Episode: Codable, Sendable, Equatable, Identifiable {
    public var id: Int64
    public var podcastID: Int64
    public var podcastTitle: String
    public var guid: String
    public var title: String
    /// Show notes as plain text (feed HTML never reaches a page as markup).
    public var summary: String
    public var mediaURL: String
    public var mediaType: String
    public var mediaLength: Int64
    /// Seconds; 0 when the feed does not say.
    public var duration: Double
    public var published: Date?
    /// The episode's own image, else the podcast's.
    public var artworkURL: String?
    /// Seconds into the episode where the listener left off.
    public var position: Double
    public var played: Bool
    /// In the Inbox: arrived and not yet queued, played or dismissed.
    public var inInbox: Bool
    /// Everything else the feed says about it; only filled when a single episode is read.
    public var details: EpisodeDetails?

    public init(id: Int64, podcastID: Int64, podcastTitle: String = "", guid: String, title: String,
                summary: String = "", mediaURL: String, mediaType: String = "", mediaLength: Int64 = 0,
                duration: Double = 0, published: Date? = nil, artworkURL: String? = nil,
                position: Double = 0, played: Bool = false, inInbox: Bool = false, details: EpisodeDetails? = nil) {
        self.id = id; self.podcastID = podcastID; self.podcastTitle = podcastTitle; self.guid = guid
        self.title = title; self.summary = summary; self.mediaURL = mediaURL; self.mediaType = mediaType
        self.mediaLength = mediaLength; self.duration = duration; self.published = published
        self.artworkURL = artworkURL; self.position = position; self.played = played; self.inInbox = inInbox
        self.details = details
    }

    enum CodingKeys: String, CodingKey {
        case id, podcastID = "podcastId", podcastTitle = "podcast", guid, title, summary
        case mediaURL = "url", mediaType = "mimeType", mediaLength = "length", duration
        case published, artworkURL = "artwork", position, played, inInbox = "inbox", details
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(podcastID, forKey: .podcastID)
        try c.encode(podcastTitle, forKey: .podcastTitle); try c.encode(guid, forKey: .guid)
        try c.encode(title, forKey: .title); try c.encode(summary, forKey: .summary)
        try c.encode(mediaURL, forKey: .mediaURL); try c.encode(mediaType, forKey: .mediaType)
        try c.encode(mediaLength, forKey: .mediaLength); try c.encode(duration, forKey: .duration)
        // Unix seconds: the browser multiplies by 1000 and has a Date.
        try c.encode(published.map { $0.timeIntervalSince1970 }, forKey: .published)
        try c.encode(artworkURL, forKey: .artworkURL); try c.encode(position, forKey: .position)
        try c.encode(played, forKey: .played); try c.encode(inInbox, forKey: .inInbox)
        try c.encodeIfPresent(details, forKey: .details)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int64.self, forKey: .id); podcastID = try c.decode(Int64.self, forKey: .podcastID)
        podcastTitle = try c.decodeIfPresent(String.self, forKey: .podcastTitle) ?? ""
        guid = try c.decode(String.self, forKey: .guid); title = try c.decode(String.self, forKey: .title)
        summary = try c.decodeIfPresent(String.self, forKey: .summary) ?? ""
        mediaURL = try c.decode(String.self, forKey: .mediaURL)
        mediaType = try c.decodeIfPresent(String.self, forKey: .mediaType) ?? ""
        mediaLength = try c.decodeIfPresent(Int64.self, forKey: .mediaLength) ?? 0
        duration = try c.decodeIfPresent(Double.self, forKey: .duration) ?? 0
        published = try c.decodeIfPresent(Double.self, forKey: .published).map { Date(timeIntervalSince1970: $0) }
        artworkURL = try c.decodeIfPresent(String.self, forKey: .artworkURL)
        position = try c.decodeIfPresent(Double.self, forKey: .position) ?? 0
        played = try c.decodeIfPresent(Bool.self, forKey: .played) ?? false
        inInbox = try c.decodeIfPresent(Bool.self, forKey: .inInbox) ?? false
        details = try c.decodeIfPresent(EpisodeDetails.self, forKey: .details)
    }
}
