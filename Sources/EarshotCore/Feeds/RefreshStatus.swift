import FoundationEssentials

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
}
