import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// A real engine on a real mpv (`ao=null`) and a real SQLite file with one podcast whose episodes
/// point wherever a test says (generated local files, a fixture HTTP server). Every message the
/// engine sends is recorded with the time it was sent, as a client would see it.
final class ResilienceHarness: @unchecked Sendable {
    // @unchecked: `messages` is only touched under `lock`.
    let directory: TemporaryDirectory
    let store: LibraryStore
    let engine: PlaybackEngine
    /// In the order given (not the library's newest-first order).
    let episodes: [Episode]
    private let lock = NSLock()
    private var messages: [(at: Date, json: [String: Any])] = []

    /// - Parameter items: (title, media address, duration) per episode.
    init(_ items: [(String, String, Double)], directory: TemporaryDirectory = TemporaryDirectory()) async throws {
        self.directory = directory
        store = try LibraryStore(path: directory.file("library.sqlite").path)
        let feedItems = items.enumerated().map { index, item in
            FeedItem(guid: item.0, title: item.0, enclosureURL: item.1, duration: item.2,
                     published: Date(timeIntervalSince1970: 1_700_000_000 - Double(index) * 86_400))
        }
        let podcast = try await store.subscribe(feedURL: "http://127.0.0.1/resilience.xml",
                                                content: FeedContent(title: "Resilience", items: feedItems))
        let stored = try await store.episodes(podcastID: podcast.id)
        episodes = items.compactMap { item in stored.first { $0.title == item.0 } }
        engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store)
        await engine.start()
        await engine.addListener { [self] message in
            guard let json = try? JSONSerialization.jsonObject(with: Data(message.encoded().utf8)) as? [String: Any] else { return }
            lock.lock(); messages.append((Date(), json)); lock.unlock()
        }
    }

    /// The `state` messages sent so far, with when.
    var states: [(at: Date, json: [String: Any])] {
        lock.lock(); defer { lock.unlock() }
        return messages.filter { $0.json["type"] as? String == "state" }
    }

    /// Queues every episode in order (the first plays when `play` is sent for it).
    func queueAll() async throws {
        for episode in episodes { try await engine.handle(.queueAdd(episode: episode.id, at: .end)) }
    }

    /// Polls the engine's state until `condition` holds or `timeout` passes; returns whether it held.
    func wait(timeout: Double = 10, until condition: @escaping (PlaybackState) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(await engine.state) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(await engine.state)
    }

    /// Whether `episode` is loaded, playing and past `position`.
    func isPlaying(_ episode: Episode, past position: Double = 0.1) -> (PlaybackState) -> Bool {
        { $0.episode?.id == episode.id && !$0.paused && !$0.buffering && $0.position > position }
    }

    func close() async {
        await engine.shutdown()
    }
}
