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
