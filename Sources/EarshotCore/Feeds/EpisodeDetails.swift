import FoundationEssentials

/// Everything a feed says about one episode beyond what lists need.
public struct EpisodeDetails: Codable, Sendable, Equatable {
    public var subtitle: String = ""
    /// `itunes:author` of the item.
    public var author: String = ""
    public var explicit: Bool?
    public var season: Int?
    /// `itunes:episode` / `podcast:episode`.
    public var number: Int?
    /// `itunes:episodeType`: "full", "trailer" or "bonus".
    public var type: String?
    public var block: Bool = false
    /// Every enclosure the item offers (RSS enclosure, media:content, Atom rel=enclosure), in order.
    public var enclosures: [FeedEnclosure] = []
    /// `podcast:chapters` (a JSON chapters file) and its type.
    public var chaptersURL: String?
    public var chaptersType: String?
    /// Podlove Simple Chapters written in the feed itself.
    public var chapters: [FeedChapter] = []
    public var transcripts: [FeedTranscript] = []
    public var persons: [FeedPerson] = []
    public var soundbites: [FeedSoundbite] = []
    public var alternateEnclosures: [FeedAlternateEnclosure] = []
    public var paymentURL: String?
    /// The show notes, sanitized (content:encoded preferred, else the description).
    public var notes = SanitizedHTML.empty

    public init() {}
}
