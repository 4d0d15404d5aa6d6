import FoundationEssentials

/// The downloads that belong together in the header's "3 of 5 downloaded, 62 %": those queued or
/// running since the queue was last idle. When everything has finished the batch stays as it was
/// (the header hides it); the next download to start begins a new batch.
public struct DownloadBatch: Sendable, Equatable {
    public private(set) var members: Set<Int64> = []

    public init(members: Set<Int64> = []) { self.members = members }

    /// Follows the downloads as they now are: deleted ones leave; running ones join, or begin a
    /// new batch when none of the batch was running any more.
    public mutating func absorb(_ items: some Collection<DownloadItem>) {
        let present = Set(items.map(\.episodeID))
        let running = Set(items.filter { $0.state.isRunning }.map(\.episodeID))
        members.formIntersection(present)
        if members.isDisjoint(with: running) {
            if !running.isEmpty { members = running }
        } else {
            members.formUnion(running)
        }
    }
}
