import EarshotCore
import Foundation

/// The finished downloads by media address, for the player: asked (synchronously, from the
/// engine's media resolver) for an enclosure URL, it answers with the downloaded file's path when
/// there is one on disk. The manager keeps it up to date; the lock makes it safe from any thread.
public final class LocalFiles: @unchecked Sendable {
    /// The downloads folder (standardized): every answer lies inside it.
    public let folder: String
    private let lock = NSLock()
    private var byURL: [String: String] = [:]
    private var byEpisode: [Int64: [String]] = [:]
    private var loudnessByEpisode: [Int64: Loudness] = [:]
    private var episodeByURL: [String: Int64] = [:]

    init(folder: URL) {
        self.folder = folder.standardizedFileURL.path
    }

    /// The downloaded file for a media URL, when there is one and it is still on disk; nil otherwise
    /// (the player then streams the URL).
    public func path(forMediaURL url: String) -> String? {
        guard let path = lock.withLock({ byURL[url] }) else { return nil }
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Records episode `id`'s file `path` under each of its addresses (the one it was downloaded
    /// from, the feed's current one). A path outside the downloads folder is never recorded.
    func set(episode id: Int64, path: String, urls: [String]) {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard standardized.hasPrefix(folder + "/") else { return }
        lock.withLock {
            for old in byEpisode[id] ?? [] { byURL[old] = nil; episodeByURL[old] = nil }
            let addresses = Array(Set(urls.filter { !$0.isEmpty }))
            for url in addresses { byURL[url] = standardized; episodeByURL[url] = id }
            byEpisode[id] = addresses
        }
    }

    func remove(episode id: Int64) {
        lock.withLock {
            for url in byEpisode[id] ?? [] { byURL[url] = nil; episodeByURL[url] = nil }
            byEpisode[id] = nil
            loudnessByEpisode[id] = nil
        }
    }

    /// The measured loudness of the download of a media URL (nil: none, or not measured yet).
    public func loudness(forMediaURL url: String) -> Loudness? {
        lock.withLock { episodeByURL[url].flatMap { loudnessByEpisode[$0] } }
    }

    func setLoudness(episode id: Int64, _ loudness: Loudness) {
        lock.withLock { loudnessByEpisode[id] = loudness }
    }
}
