import FoundationEssentials

/// A few channel values exactly as the feed wrote them, where `FeedContent` applies fallbacks or
/// conversions. Kept only on request (`earshot parse --json` shows podcastparser's reading of a feed
/// from them); never stored, never sent to a page.
public struct FeedAsWritten: Sendable, Equatable {
    /// `itunes:author` (`FeedContent.author` falls back to other fields).
    public var author: String?
    /// The channel `description` (else `itunes:summary`, Atom `subtitle`), markup and all.
    public var description: String?

    public init(author: String? = nil, description: String? = nil) {
        self.author = author; self.description = description
    }
}
