import FoundationEssentials

/// Everything a feed says about a show beyond what lists need. Stored whole (as JSON) and sent
/// with a single podcast.
public struct PodcastDetails: Codable, Sendable, Equatable {
    public var subtitle: String = ""
    public var language: String = ""
    public var ownerName: String = ""
    public var ownerEmail: String = ""
    public var explicit: Bool?
    /// `itunes:type`: "episodic" or "serial".
    public var type: String?
    /// iTunes categories, each a path: [["Business", "Entrepreneurship"], ["Education"]].
    public var categories: [[String]] = []
    public var keywords: [String] = []
    /// `itunes:block` yes.
    public var block: Bool = false
    /// `podcast:locked` (the publisher forbids importing the feed elsewhere).
    public var locked: Bool?
    /// `podcast:guid`.
    public var podcastGUID: String?
    public var funding: [FeedLink] = []
    /// `<atom:link rel="payment">`.
    public var paymentURL: String?
    public var generator: String?
    public var persons: [FeedPerson] = []
    /// Atom paging links (`rel="first"`, `rel="next"`).
    public var pageFirstURL: String?
    public var pageNextURL: String?

    public init() {}
}

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

public struct FeedLink: Codable, Sendable, Equatable {
    public var url: String
    public var title: String
    public init(url: String, title: String = "") { self.url = url; self.title = title }
}

public struct FeedEnclosure: Codable, Sendable, Equatable {
    public var url: String
    public var type: String
    /// Bytes; -1 when the feed does not say.
    public var length: Int64
    public init(url: String, type: String = "", length: Int64 = -1) { self.url = url; self.type = type; self.length = length }
}

/// A Podlove Simple Chapter (`psc:chapter`).
public struct FeedChapter: Codable, Sendable, Equatable {
    public var start: Double
    public var title: String
    public var href: String?
    public var image: String?
    public init(start: Double, title: String, href: String? = nil, image: String? = nil) {
        self.start = start; self.title = title; self.href = href; self.image = image
    }
}

public struct FeedTranscript: Codable, Sendable, Equatable {
    public var url: String
    public var type: String
    public var language: String?
    public var rel: String?
    public init(url: String, type: String, language: String? = nil, rel: String? = nil) {
        self.url = url; self.type = type; self.language = language; self.rel = rel
    }
}

public struct FeedPerson: Codable, Sendable, Equatable {
    public var name: String
    public var role: String?
    public var group: String?
    public var href: String?
    public var img: String?
    public init(name: String, role: String? = nil, group: String? = nil, href: String? = nil, img: String? = nil) {
        self.name = name; self.role = role; self.group = group; self.href = href; self.img = img
    }
}

public struct FeedSoundbite: Codable, Sendable, Equatable {
    public var start: Double
    public var duration: Double
    public var title: String
    public init(start: Double, duration: Double, title: String = "") { self.start = start; self.duration = duration; self.title = title }
}

/// `podcast:alternateEnclosure` with its `podcast:source` URLs.
public struct FeedAlternateEnclosure: Codable, Sendable, Equatable {
    public var type: String
    public var length: Int64
    public var bitrate: Double?
    public var title: String?
    public var sources: [String]
    public init(type: String, length: Int64 = -1, bitrate: Double? = nil, title: String? = nil, sources: [String] = []) {
        self.type = type; self.length = length; self.bitrate = bitrate; self.title = title; self.sources = sources
    }
}
