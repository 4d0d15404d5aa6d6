import EarshotCore
import Foundation
import Library

/// What the desktop's media controls (MPRIS, Sources/MPRIS) need of the server beyond commands.
extension EarshotServer {
    /// `OpenUri`: an episode's enclosure plays that episode; any other address is subscribed to as
    /// a feed (already subscribed: refreshed) and its newest episode plays.
    public func open(_ uri: String) async throws(CommandError) {
        if let id = try await read("the episode of \(uri)", { try await $0.episodeID(mediaURL: uri) }) {
            try await perform(.play(episode: id))
            return
        }
        let podcast: Podcast
        do { podcast = try await subscriptions.subscribe(uri) } catch {
            throw CommandError("\(uri) is neither an episode in the library nor a feed: \(error.message)")
        }
        libraryChanged()
        guard let newest = try await read("\(podcast.title)'s episodes", { try await $0.episodes(podcastID: podcast.id, limit: 1) }).first else {
            throw CommandError("subscribed to \(podcast.title), which has no episodes to play")
        }
        try await perform(.play(episode: newest.id))
    }

    /// Play with nothing loaded and Up Next empty (a headset's button on a quiet box): the
    /// unfinished episode heard last, else the newest unplayed one.
    public func playOn() async throws(CommandError) {
        guard let id = try await read("what to play", { try await $0.episodeToPlayOn() }) else {
            throw CommandError("nothing to play: the library has no unplayed episode")
        }
        try await perform(.play(episode: id))
    }

    /// The loaded episode's enclosure address, for `xesam:url`: absolute (our own `/demo/…` files
    /// as file URLs).
    public func mediaURL(episode id: Int64) async -> String? {
        guard let url = (try? await read("episode \(id)", { try await $0.episode(id: id) }))??.mediaURL else { return nil }
        guard url.hasPrefix("/") else { return url }
        return url.contains("..") ? nil : URL(fileURLWithPath: configuration.publicDirectory.path + url).absoluteString
    }

    /// Artwork as a file on this machine (`mpris:artUrl` is read by desktop widgets, which cannot
    /// reach our loopback HTTP server with a pairing cookie): the 512 px copy the artwork cache
    /// keeps (fetched first when this is the first ask), or the file of our own `/demo/…` artwork.
    public func artworkFile(_ url: String) async -> String? {
        if url.hasPrefix("/") {
            guard !url.contains("..") else { return nil }
            let file = configuration.publicDirectory.path + url
            return FileManager.default.fileExists(atPath: file) ? file : nil
        }
        guard let key = ArtworkAddress.key(for: url) else { return nil }
        if case .image(let file) = await artwork.image(key: key, size: 512) { return file.path }
        return nil
    }

    /// A library read for the desktop's calls: a failure is logged and answered as one (never
    /// taken for "nothing there").
    private func read<T: Sendable>(_ what: String, _ body: @Sendable (LibraryStore) async throws -> T) async throws(CommandError) -> T {
        do { return try await body(store) } catch { throw CommandError.internalFailure("could not read \(what) from the library", error) }
    }
}
