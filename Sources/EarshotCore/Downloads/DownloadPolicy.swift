import FoundationEssentials

/// The two download policies, as decisions over what the library says.
public enum DownloadPolicy {
    /// An episode as the auto-download policy sees it.
    public struct Candidate: Sendable, Equatable {
        public var episodeID: Int64
        public var played: Bool
        /// It has (or had: deleted by hand) a download; the policy never queues it again by itself.
        public var known: Bool

        public init(episodeID: Int64, played: Bool, known: Bool) {
            self.episodeID = episodeID; self.played = played; self.known = known
        }
    }

    /// Auto-download: of a podcast's `newest` episodes (newest first), the first `count` that are
    /// neither played nor known. Only the newest `count` are looked at: an older episode never moves
    /// up because a newer one was played or deleted.
    public static func autoDownload(newest: [Candidate], count: Int) -> [Int64] {
        newest.prefix(max(0, count)).filter { !$0.played && !$0.known }.map(\.episodeID)
    }

    /// A finished download of a played episode, as the cleanup policy sees it.
    public struct PlayedDownload: Sendable, Equatable {
        public var episodeID: Int64
        /// When the episode was marked played (nil: not known; such a file is kept).
        public var playedAt: Date?

        public init(episodeID: Int64, playedAt: Date?) { self.episodeID = episodeID; self.playedAt = playedAt }
    }

    /// Cleanup: the downloads played at least `days` days before `now` (none when `days` is nil).
    public static func expired(_ downloads: [PlayedDownload], days: Int?, now: Date) -> [Int64] {
        guard let days else { return [] }
        let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
        return downloads.filter { ($0.playedAt.map { $0 <= cutoff }) ?? false }.map(\.episodeID)
    }
}
