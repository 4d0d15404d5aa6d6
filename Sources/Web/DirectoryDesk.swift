import EarshotCore
import Foundation
import Library

/// The server's side of directory search that outlives a request: the directory settings (the
/// saved Podcast Index key lives in the library's settings, the environment's in memory), and the
/// artwork addresses of recent results, so their pictures go through the artwork cache although
/// the library does not hold them.
actor DirectoryDesk {
    /// The settings row holding the saved key and secret (JSON `{"key","secret"}`).
    static let settingKey = "directory.podcastindex"
    /// How many result artwork addresses are remembered: a few screens of searches.
    static let artworkMemory = 1_000

    private let store: LibraryStore
    private var settings: DirectorySettings
    private var loaded = false
    private var artwork: [String: String] = [:] // artwork key → address
    private var artworkOrder: [String] = []

    init(store: LibraryStore, environment: PodcastIndexCredentials?) {
        self.store = store
        settings = DirectorySettings(environment: environment)
    }

    /// The settings, the saved key read from the library the first time.
    func current() async -> DirectorySettings {
        if !loaded {
            loaded = true
            do {
                if let text = try await store.setting(Self.settingKey) {
                    settings.saved = try JSONDecoder().decode(PodcastIndexCredentials.self, from: Data(text.utf8))
                }
            } catch {
                Log.warning("directory", "the saved Podcast Index key could not be read (\(error)); using none")
            }
        }
        return settings
    }

    /// Saves (or, with nil, forgets) the listener's key and secret; the library keeps them.
    func save(_ credentials: PodcastIndexCredentials?) async throws -> DirectorySettings {
        _ = await current()
        let text = try credentials.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try await store.setSetting(Self.settingKey, text)
        settings.saved = credentials
        return settings
    }

    /// Remembers the artwork of results about to be sent, oldest forgotten first.
    func remember(_ results: [DirectoryResult]) {
        for url in results.compactMap(\.artwork) {
            guard let key = ArtworkAddress.key(for: url), artwork[key] == nil else { continue }
            artwork[key] = url
            artworkOrder.append(key)
        }
        if artworkOrder.count > Self.artworkMemory {
            for key in artworkOrder.prefix(artworkOrder.count - Self.artworkMemory) { artwork[key] = nil }
            artworkOrder.removeFirst(artworkOrder.count - Self.artworkMemory)
        }
    }

    /// The address of a remembered result's artwork.
    func artworkURL(forKey key: String) -> String? { artwork[key] }
}
