import EarshotCore
import Foundation
import Library

/// Keeps episodes on disk: queues downloads, runs at most `settings.concurrency` at once, retries
/// with backoff, resumes partial files, and tells listeners (the web server) what changed, at most
/// a few times a second.
///
/// An actor: the one owner of every download's state and of the numbers clients see. Transfers run
/// on threads of their own (`Transfer`) and report in one ordered stream; the manager applies each
/// report to its `DownloadItem` (pure transitions, EarshotCore) and writes the result to the library.
public actor DownloadManager {
    /// A listener gets each `downloads` message as JSON text.
    public typealias Listener = @Sendable (DownloadsMessage) -> Void

    public struct Configuration: Sendable {
        /// The downloads folder: `<podcast id>/<episode id>.<ext>` inside it.
        public var folder: URL
        public var retry = DownloadRetry.standard
        /// Left free on the disk, always: a download that would eat into it does not start.
        public var reserveBytes: Int64 = 100_000_000
        /// The least time between two `downloads` messages.
        public var publishInterval: Double = 0.25
        /// How often the cleanup policy looks for played downloads to delete.
        public var cleanupInterval: Double = 3_600
        public var connectTimeout = 30
        /// Seconds without a byte before a transfer counts as stalled (and is retried).
        public var stallTimeout = 60
        public var userAgent = Earshot.userAgent
        /// Measures a finished file's loudness (EBU R128) for leveling; nil: files are not measured.
        public var measure: (@Sendable (String) async -> Loudness?)?

        public init(folder: URL) { self.folder = folder }
    }

    let store: LibraryStore
    public nonisolated let configuration: Configuration
    /// Finished files by media address, for the player's media resolver.
    public nonisolated let localFiles: LocalFiles

    var settings = DownloadSettings()
    /// Every download (not the ones deleted), by episode id.
    var items: [Int64: DownloadItem] = [:]
    var batch = DownloadBatch()
    /// Transfers running, by episode.
    var active: [Int64: Running] = [:]
    /// Transfers cancelled that have not ended yet: their episode waits before it may start again,
    /// so two transfers never write the same partial file.
    var stopping: [Int64: Running] = [:]
    var lastProgressSave: [Int64: Date] = [:]
    /// Finished downloads waiting to be measured, and the task measuring them one at a time
    /// (DownloadManager+Loudness).
    var toMeasure: [Int64] = []
    var measuring: Task<Void, Never>?
    var listeners = Listeners<DownloadsMessage>()
    var throttle: PublishThrottle
    var publishTask: Task<Void, Never>?
    private var eventTask: Task<Void, Never>?
    private var cleanupTask: Task<Void, Never>?
    var retryTask: Task<Void, Never>?
    private var nextToken: UInt64 = 0
    let events: AsyncStream<(episode: Int64, token: UInt64, event: Transfer.Event)>
    let eventSink: AsyncStream<(episode: Int64, token: UInt64, event: Transfer.Event)>.Continuation
    private let writes: AsyncStream<Write>
    let writeSink: AsyncStream<Write>.Continuation
    private var writerTask: Task<Void, Never>?
    private(set) var started = false

    /// A running transfer and its identity (reports from an older one of the same episode are ignored).
    struct Running {
        let token: UInt64
        let transfer: Transfer
    }

    /// The settings row the download settings live in.
    static let settingsKey = "downloads.settings"

    public init(store: LibraryStore, configuration: Configuration) {
        self.store = store
        self.configuration = configuration
        localFiles = LocalFiles(folder: configuration.folder)
        throttle = PublishThrottle(interval: configuration.publishInterval)
        (events, eventSink) = AsyncStream.makeStream(of: (episode: Int64, token: UInt64, event: Transfer.Event).self)
        (writes, writeSink) = AsyncStream.makeStream(of: Write.self)
    }

    /// Reads the settings and the downloads, recovers from the last run (partial files resumed or
    /// cleaned, see +Recovery), starts what is queued and the policies. Call once.
    public func start() async {
        guard !started else { return }
        started = true
        writerTask = Task { [store, writes] in
            for await write in writes {
                do {
                    switch write {
                    case .save(let item): try await store.saveDownload(item)
                    case .progress(let id, let bytes): try await store.saveDownloadProgress(episodeID: id, bytes: bytes)
                    case .remove(let id): try await store.removeDownload(episodeID: id)
                    case .setting(let key, let value): try await store.setSetting(key, value)
                    case .loudness(let id, let value): try await store.setDownloadLoudness(episodeID: id, value)
                    case .afterward(let then): then()
                    }
                } catch {
                    // The state in memory goes on; the next write of this download tries again.
                    Log.error("downloads", "could not store a download's state: \(String(reflecting: error))")
                }
            }
        }
        if let text = try? await store.setting(Self.settingsKey),
           let stored = try? JSONDecoder().decode(DownloadSettings.self, from: Data(text.utf8)) {
            settings = stored
        }
        try? FileManager.default.createDirectory(at: configuration.folder, withIntermediateDirectories: true)
        await recover()
        let events = self.events
        eventTask = Task { [weak self] in
            for await report in events { await self?.receive(report.event, episode: report.episode, token: report.token) }
        }
        await applyPolicies()
        pump()
        let interval = configuration.cleanupInterval
        cleanupTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                await self?.cleanUp()
            }
        }
        changed()
    }

    /// Stops every transfer, keeping partial files and states as they are: the next start resumes
    /// them. Waits (at most a few seconds) for the transfers to let go of their files.
    public func shutdown() async {
        cleanupTask?.cancel()
        retryTask?.cancel()
        publishTask?.cancel()
        for running in active.values { running.transfer.cancel() }
        let deadline = Date().addingTimeInterval(5)
        while !(active.isEmpty && stopping.isEmpty), Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        eventSink.finish()
        eventTask?.cancel()
        writeSink.finish()
        await writerTask?.value
    }

    // MARK: Paths

    nonisolated func finalPath(_ item: DownloadItem) -> String {
        configuration.folder.appendingPathComponent(item.file).path
    }

    nonisolated func partPath(_ item: DownloadItem) -> String { finalPath(item) + ".part" }

    /// A new token for a transfer.
    func token() -> UInt64 {
        nextToken += 1
        return nextToken
    }

    /// A write to the library. They go through one ordered stream (`persist`), so the library
    /// never gets an older state of a download after a newer one.
    enum Write: Sendable {
        case save(DownloadItem)
        case progress(episode: Int64, bytes: Int64)
        case remove(episode: Int64)
        case setting(key: String, value: String)
        case loudness(episode: Int64, Loudness)
        /// Called once everything before it is written (or failed to be): `flush`, and a transfer
        /// waiting to write its first byte (`StoredSignal`).
        case afterward(@Sendable () -> Void)
    }

    func persist(_ write: Write) { writeSink.yield(write) }

    /// Waits until every write handed to `persist` so far is in the library.
    public func flush() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            writeSink.yield(.afterward { done.resume() })
        }
    }
}
