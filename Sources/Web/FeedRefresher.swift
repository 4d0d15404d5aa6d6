import EarshotCore
import FeedFetching
import Feeds
import Foundation
import Library

/// Keeps subscriptions fresh: refreshes one feed or all of them, a few at a time, and tells whoever
/// listens how it goes.
///
/// Requests join the refresh already running (a feed already waiting or in flight is not added
/// twice), so `RefreshStatus` always describes one run: `total` feeds, `done` of them finished,
/// `failed` of those failed, `current` the titles in flight. The progress listener hears the status
/// when each feed starts and finishes (the last time with `running` false); then the library
/// listener is told that lists changed. Each feed's fetch and store is `refreshFeed`.
public actor FeedRefresher {
    /// How many feeds are fetched at once.
    public nonisolated let concurrency: Int
    /// Fetches every feed: `Earshot/VERSION`, gzip, timeouts, the size cap, conditional GET.
    public nonisolated let fetcher: FeedFetcher
    /// The longest one fetch may take in all: the fetcher's timeout is per stall, and a server
    /// trickling a byte now and then would otherwise hold a slot for hours.
    public nonisolated let deadline: TimeInterval
    let store: LibraryStore

    private var waiting: [FeedToRefresh] = []
    /// In start order, for `current`.
    private var inFlight: [FeedToRefresh] = []
    private var status = RefreshStatus()
    private var runWaiters: [CheckedContinuation<RefreshStatus, Never>] = []
    private var feedWaiters: [Int64: [CheckedContinuation<FeedRefreshOutcome, Never>]] = [:]
    private var progress: @Sendable (RefreshStatus) -> Void = { _ in }
    private var libraryChanged: @Sendable () -> Void = {}
    private var periodic: Task<Void, Never>?

    public init(store: LibraryStore, fetcher: FeedFetcher = FeedFetcher(spoolingAbove: FeedFetcher.feedSpoolThreshold),
                concurrency: Int = 4, deadline: TimeInterval = 120) {
        self.store = store
        self.fetcher = fetcher
        self.deadline = deadline
        self.concurrency = max(1, concurrency)
    }

    /// Sets who hears about progress (each feed's start and finish, and the end) and who is told
    /// when a refresh has finished and lists may have changed.
    public func observe(progress: @escaping @Sendable (RefreshStatus) -> Void,
                        libraryChanged: @escaping @Sendable () -> Void) {
        self.progress = progress
        self.libraryChanged = libraryChanged
    }

    /// The current (or last) refresh.
    public var currentStatus: RefreshStatus { status }

    // MARK: Starting

    /// Starts refreshing every subscribed feed on the web (not the bundled demo, which lives in
    /// `Public/`) and returns at once with the status.
    @discardableResult
    public func refreshAll() async throws -> RefreshStatus {
        enqueue(try await store.feedsToRefresh().filter { !Self.isBundled($0.feedURL) })
        return status
    }

    /// Starts refreshing podcast `podcastID`'s feed and returns at once; nil when no subscribed
    /// podcast has that id.
    public func refresh(podcastID: Int64) async throws -> RefreshStatus? {
        guard let feed = try await store.feedToRefresh(podcastID: podcastID) else { return nil }
        enqueue([feed])
        return status
    }

    /// Refreshes every subscribed feed and returns when the run is over (the CLI's `earshot refresh`).
    public func refreshAllAndWait() async throws -> RefreshStatus {
        try await refreshAll()
        return await untilIdle()
    }

    /// Refreshes podcast `podcastID`'s feed and returns how it went (`.skipped` when there is no such
    /// subscribed podcast). Joins a refresh of the same feed already under way.
    public func refreshAndWait(podcastID: Int64) async throws -> FeedRefreshOutcome {
        guard let feed = try await store.feedToRefresh(podcastID: podcastID) else { return .skipped }
        return await withCheckedContinuation { continuation in
            feedWaiters[podcastID, default: []].append(continuation)
            enqueue([feed])
        }
    }

    /// Returns when no refresh is running, with the status of the last one.
    public func untilIdle() async -> RefreshStatus {
        guard status.running else { return status }
        return await withCheckedContinuation { runWaiters.append($0) }
    }

    // MARK: Running

    private func enqueue(_ feeds: [FeedToRefresh]) {
        let known = Set((waiting + inFlight).map(\.podcastID))
        let added = feeds.filter { !known.contains($0.podcastID) }
        guard !added.isEmpty else { return }
        if !status.running { status = RefreshStatus(running: true) }
        status.total += added.count
        waiting += added
        startWaiting()
    }

    private func startWaiting() {
        while inFlight.count < concurrency, !waiting.isEmpty {
            let feed = waiting.removeFirst()
            inFlight.append(feed)
            status.current = inFlight.map(\.title)
            progress(status)
            Task {
                let outcome = await self.refreshFeed(feed)
                self.finished(feed, outcome)
            }
        }
    }

    private func finished(_ feed: FeedToRefresh, _ outcome: FeedRefreshOutcome) {
        inFlight.removeAll { $0.podcastID == feed.podcastID }
        status.done += 1
        if outcome.isFailure { status.failed += 1 }
        status.current = inFlight.map(\.title)
        for waiter in feedWaiters.removeValue(forKey: feed.podcastID) ?? [] { waiter.resume(returning: outcome) }
        if waiting.isEmpty && inFlight.isEmpty {
            status.running = false
            MemoryTrim.giveBack() // what the fetched feeds and their models took

            progress(status)
            libraryChanged()
            let waiters = runWaiters
            runWaiters = []
            for waiter in waiters { waiter.resume(returning: status) }
        } else {
            progress(status)
            startWaiting()
        }
    }

    // MARK: Periodic

    /// Refreshes every feed on `schedule`, the first time one delay after now; replaces any earlier schedule.
    public func startPeriodic(_ schedule: RefreshSchedule) {
        periodic?.cancel()
        periodic = Task { [weak self] in
            var generator = SystemRandomNumberGenerator()
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(schedule.nextDelay(using: &generator))) } catch { return }
                guard let self else { return }
                // A library that cannot be read now may be readable next time: keep the schedule.
                _ = try? await self.refreshAllAndWait()
            }
        }
    }

    /// Stops the periodic refresh (a refresh under way finishes).
    public func stopPeriodic() {
        periodic?.cancel()
        periodic = nil
    }
}
