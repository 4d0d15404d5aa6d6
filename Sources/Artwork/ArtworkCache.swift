import EarshotCore
import FeedFetching
import Foundation

/// Feed artwork fetched once and kept on disk in the sizes clients use
/// (`<folder>/<key>/{96,256,512}.jpg`, `ArtworkAddress`). Made on the first request for a key,
/// concurrent requests waiting on that one fetch; a failure is remembered for an hour, during
/// which the original address is the answer (clients load it themselves, as before).
public actor ArtworkCache {
    /// What the server can answer for `/artwork/{key}/{size}.jpg`.
    public enum Answer: Sendable, Equatable {
        /// A JPEG on disk.
        case image(URL)
        /// It could not be fetched or read: the feed's own address.
        case original(String)
        /// No artwork in the library has this key.
        case unknown
    }

    /// The folder of folders, one per key.
    public nonisolated let directory: URL
    let fetcher: FeedFetcher
    /// The artwork address with a key, from the library.
    let lookup: @Sendable (String) async -> String?
    private var making: [String: Task<String?, Never>] = [:]
    private var failures: [String: (url: String, at: Date)] = [:]
    private var unknown: [String: Date] = [:]
    /// How long a failed fetch (or a key the library does not have) is believed before trying again.
    public static let retryAfter: TimeInterval = 3600
    /// Artwork files larger than this are refused (covers are 0.1–3 MB).
    public static let maximumBytes = 10 * 1_048_576
    private static let resizing = DispatchQueue(label: "earshot.artwork")

    public init(directory: URL, fetcher: FeedFetcher = FeedFetcher(timeout: 15, maximumBytes: ArtworkCache.maximumBytes),
                lookup: @escaping @Sendable (String) async -> String?) {
        self.directory = directory
        self.fetcher = fetcher
        self.lookup = lookup
    }

    /// The file for `key` at `size` (one of `ArtworkAddress.sizes`), fetching and resizing the
    /// artwork first when this is the first request for it.
    public func image(key: String, size: Int) async -> Answer {
        guard ArtworkAddress.isKey(key), ArtworkAddress.sizes.contains(size) else { return .unknown }
        let file = self.file(key, size)
        if FileManager.default.fileExists(atPath: file.path) { return .image(file) }
        let now = Date()
        if let failure = failures[key], now.timeIntervalSince(failure.at) < Self.retryAfter { return .original(failure.url) }
        if let seen = unknown[key], now.timeIntervalSince(seen) < Self.retryAfter { return .unknown }
        let task: Task<String?, Never>
        if let running = making[key] {
            task = running
        } else {
            guard let url = await lookup(key), ArtworkAddress.key(for: url) == key else {
                if unknown.count > 1000 { unknown.removeAll() } // a bound, not a policy
                unknown[key] = now
                return .unknown
            }
            if let running = making[key] { // another request got here during the lookup
                task = running
            } else {
                task = Task { await self.make(key, from: url) }
                making[key] = task
            }
        }
        let failure = await task.value
        making[key] = nil
        if FileManager.default.fileExists(atPath: file.path) { return .image(file) }
        guard let url = failures[key]?.url else { return .unknown }
        if let failure { Log.warning("artwork", "\(url): \(failure)") }
        return .original(url)
    }

    /// Forgets that these keys were unknown: something (a directory result) names them now.
    public func known(_ keys: [String]) {
        for key in keys { unknown[key] = nil }
    }

    /// The kept file of `key` at `size`.
    public nonisolated func file(_ key: String, _ size: Int) -> URL {
        directory.appendingPathComponent(key, isDirectory: true).appendingPathComponent("\(size).jpg")
    }

    /// Fetches `url` and writes every size; returns why it failed (nil when it did not).
    private func make(_ key: String, from url: String) async -> String? {
        let folder = directory.appendingPathComponent(key, isDirectory: true)
        let source = folder.appendingPathComponent("source.part")
        do {
            guard let address = URL(string: url) else { throw ImageResizer.Failure(description: "not a URL") }
            let response = try await fetcher.fetch(address)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try response.data.write(to: source)
            let outputs = ArtworkAddress.sizes.map { (size: $0, path: file(key, $0).path) }
            let sourcePath = source.path
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                // Decoding is CPU-bound and blocking: one at a time on a queue of its own, never
                // on the cooperative pool (2 cores: a busy pool thread would stall the server).
                Self.resizing.async {
                    continuation.resume(with: Result { try ImageResizer.resize(source: sourcePath, outputs: outputs) })
                }
            }
            try? FileManager.default.removeItem(at: source)
            return nil
        } catch {
            try? FileManager.default.removeItem(at: source)
            failures[key] = (url, Date())
            return "\(error)"
        }
    }
}
