import EarshotCore
import Foundation

/// How refreshing one feed ended.
public enum FeedRefreshOutcome: Sendable, Equatable {
    /// Fetched, read and stored; `movedTo` is the new feed URL when a permanent redirect or
    /// `itunes:new-feed-url` moved the subscription.
    case updated(movedTo: String?)
    /// The server said `304 Not Modified`: nothing was rewritten (`movedTo` as above).
    case unchanged(movedTo: String?)
    /// The refresh failed; the podcast now has this status (`.error` or `.gone`) and message.
    case failed(Podcast.Status, String)
    /// The podcast is not (or no longer) subscribed: nothing was done.
    case skipped

    public var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}
