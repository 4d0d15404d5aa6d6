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
