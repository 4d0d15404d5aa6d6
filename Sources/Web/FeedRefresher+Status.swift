import EarshotCore
import Foundation

/// The current (or last) refresh of one or all feeds, as `GET /api/refresh` and the `refresh`
/// message tell it (docs/protocol.md).
public struct RefreshStatus: Codable, Sendable, Equatable {
    /// Whether feeds are being fetched now.
    public var running = false
    /// Feeds in this refresh, finished or not (more may join while it runs).
    public var total = 0
    /// Feeds finished, failed ones included.
    public var done = 0
    /// Feeds whose refresh failed (their podcasts carry the reason).
    public var failed = 0
    /// Titles of the podcasts being fetched right now.
    public var current: [String] = []

    public init(running: Bool = false, total: Int = 0, done: Int = 0, failed: Int = 0, current: [String] = []) {
        self.running = running; self.total = total; self.done = done; self.failed = failed; self.current = current
    }

    /// The `refresh` WebSocket message: this status with `"type": "refresh"`.
    public func message() -> String {
        struct Wire: Encodable {
            var type = "refresh"
            var running: Bool, total: Int, done: Int, failed: Int, current: [String]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let wire = Wire(running: running, total: total, done: done, failed: failed, current: current)
        return String(decoding: (try? encoder.encode(wire)) ?? Data(), as: UTF8.self)
    }
}

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
