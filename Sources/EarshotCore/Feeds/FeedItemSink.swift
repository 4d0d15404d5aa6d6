/// Takes a feed's items in batches while it is parsed (`FeedParser.parse(…, into:)`), so a 60,000-item
/// feed can be stored as it is read rather than held whole first (`LibraryStore.subscribe(feedURL:parsing:settle:)`).
public protocol FeedItemSink: AnyObject {
    /// The next finished items, in document order. A throw stops the parse, which rethrows it.
    func take(_ items: [FeedItem]) throws
    /// The document is read again from its start (its bytes needed repair): forget every item taken so far.
    func restart() throws
}

/// A `FeedItemSink` made of two closures.
public final class FeedItemHandler: FeedItemSink {
    private let onTake: ([FeedItem]) throws -> Void
    private let onRestart: () throws -> Void

    public init(take: @escaping ([FeedItem]) throws -> Void, restart: @escaping () throws -> Void) {
        onTake = take
        onRestart = restart
    }

    public func take(_ items: [FeedItem]) throws { try onTake(items) }
    public func restart() throws { try onRestart() }
}
