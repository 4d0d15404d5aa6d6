import FoundationEssentials

/// What a feed says, parsed and resolved, before the library gives it ids.
/// Feeds produces it; Library stores it. URLs are absolute (resolved against the feed URL).
public struct FeedContent: Sendable, Equatable {
    public var title: String
    public var author: String
    /// Channel description as plain text.
    public var summary: String
    public var artworkURL: String?
    public var link: String?
    /// `itunes:new-feed-url` (or `<redirect><newLocation>`), when the publisher moved the feed.
    public var newFeedURL: String?
    public var items: [FeedItem]
    /// The rest of what the channel says.
    public var details = PodcastDetails()
    /// What was wrong with the document but recovered from (shown with the podcast).
    public var warnings: [String] = []
    /// Raw channel values, only when the parser was asked to keep them (`earshot parse --json`).
    public var asWritten: FeedAsWritten?

    public init(title: String = "", author: String = "", summary: String = "", artworkURL: String? = nil,
                link: String? = nil, newFeedURL: String? = nil, items: [FeedItem] = []) {
        self.title = title; self.author = author; self.summary = summary; self.artworkURL = artworkURL
        self.link = link; self.newFeedURL = newFeedURL; self.items = items
    }
}
