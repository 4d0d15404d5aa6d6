import FoundationEssentials

/// One `<item>` (or Atom `<entry>`) of a feed.
public struct FeedItem: Sendable, Equatable {
    /// The item's guid, else its enclosure URL, else its link: what identifies it across refreshes.
    public var guid: String
    public var title: String
    /// Show notes as plain text.
    public var summary: String
    public var enclosureURL: String
    public var enclosureType: String
    public var enclosureLength: Int64
    /// Seconds; 0 when absent or unreadable.
    public var duration: Double
    public var published: Date?
    public var artworkURL: String?
    public var link: String?
    /// The rest of what the item says (sanitized show notes included).
    public var details = EpisodeDetails()
    /// The item's description exactly as the feed had it when it was HTML (podcastparser's
    /// `description_html`), for `earshot parse --json`; only when the parser was asked to keep raw
    /// values, never stored, never sent to a page.
    public var rawHTML: String?
    /// Raw item values, only when the parser was asked to keep them (`earshot parse --json`).
    public var asWritten: FeedItemAsWritten?

    public init(guid: String, title: String = "", summary: String = "", enclosureURL: String,
                enclosureType: String = "", enclosureLength: Int64 = 0, duration: Double = 0,
                published: Date? = nil, artworkURL: String? = nil, link: String? = nil) {
        self.guid = guid; self.title = title; self.summary = summary; self.enclosureURL = enclosureURL
        self.enclosureType = enclosureType; self.enclosureLength = enclosureLength; self.duration = duration
        self.published = published; self.artworkURL = artworkURL; self.link = link
    }
}
