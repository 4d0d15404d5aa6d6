import FoundationEssentials

/// A few item values exactly as the feed wrote them, where `FeedItem` applies fallbacks or
/// conversions. Kept only on request, like `FeedAsWritten`.
public struct FeedItemAsWritten: Sendable, Equatable {
    /// `<guid>` (Atom `<id>`), trimmed; nil when the item has none (`FeedItem.guid` then falls back).
    public var guid: String?
    /// The guid resolved against the feed URL when the feed says it is a link (`isPermaLink` absent
    /// or true, RSS's default).
    public var permalink: String?
    /// `<title>`; nil when the item has none (`FeedItem.title` is then its file's name).
    public var title: String?
    /// The plain-text description the item gives (`itunes:summary`, else `media:description`, else a
    /// `description` or Atom text `content` without markup), unconverted; nil when it gives only HTML.
    public var description: String?

    public init(guid: String? = nil, permalink: String? = nil, title: String? = nil, description: String? = nil) {
        self.guid = guid; self.permalink = permalink; self.title = title; self.description = description
    }
}
