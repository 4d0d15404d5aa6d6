import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// Two podcasts on a real engine (real mpv with `ao=null`, a real SQLite file): "Fast" with two
/// episodes (the second with feed chapters at 0 and 3 s) and "Plain" with one. For speed, volume
/// and sleep timer tests. Every message the engine sends is recorded, as a client would see it.
final class ControlsHarness: @unchecked Sendable {
    // @unchecked: `messages` is only touched under `lock`.
    let directory: TemporaryDirectory
    let store: LibraryStore
    let engine: PlaybackEngine
    let fast: Podcast
    let plain: Podcast
    /// Fast's episodes (newest first: [0] is "Fast one", [1] "Fast two" with chapters), Plain's.
    let fastEpisodes: [Episode]
    let plainEpisode: Episode
    private let lock = NSLock()
    private var messages: [[String: Any]] = []

    init(seconds: Double = 30, directory: TemporaryDirectory = TemporaryDirectory(),
         clock: @escaping @Sendable () -> Date = { Date() }) async throws {
        self.directory = directory
        let audio = directory.file("tone.wav")
        if !FileManager.default.fileExists(atPath: audio.path) { try GeneratedAudio.writeWAV(to: audio, seconds: seconds) }
        store = try LibraryStore(path: directory.file("library.sqlite").path)
        func item(_ guid: String, day: Double) -> FeedItem {
            FeedItem(guid: guid, title: guid, enclosureURL: audio.path, duration: seconds,
                     published: Date(timeIntervalSince1970: 1_700_000_000 + day * 86_400))
        }
        var chaptered = item("Fast two", day: 0)
        chaptered.details.chapters = [FeedChapter(start: 0, title: "One"), FeedChapter(start: 3, title: "Two")]
        fast = try await store.subscribe(feedURL: "http://127.0.0.1/fast.xml",
                                         content: FeedContent(title: "Fast", items: [item("Fast one", day: 1), chaptered]))
        plain = try await store.subscribe(feedURL: "http://127.0.0.1/plain.xml",
                                          content: FeedContent(title: "Plain", items: [item("Plain one", day: 0)]))
        fastEpisodes = try await store.episodes(podcastID: fast.id)
        plainEpisode = try #require(try await store.episodes(podcastID: plain.id).first)
        engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store, clock: clock)
        await engine.start()
        await engine.addListener { [self] message in
            guard let json = try? JSONSerialization.jsonObject(with: Data(message.encoded().utf8)) as? [String: Any] else { return }
            lock.lock(); messages.append(json); lock.unlock()
        }
    }

    /// The `state` messages sent so far.
    var states: [[String: Any]] {
        lock.lock(); defer { lock.unlock() }
        return messages.filter { $0["type"] as? String == "state" }
    }

    /// mpv's own value of a property, as a number.
    func mpv(_ name: String) -> Double? { engine.player.property(name).flatMap(Double.init) }

    /// Polls the engine's state until `condition` holds or `timeout` passes; returns whether it held.
    func wait(timeout: Double = 8, until condition: @escaping (PlaybackState) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(await engine.state) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(await engine.state)
    }

    /// Polls `condition` (e.g. of mpv's own properties) until it holds or `timeout` passes.
    func waitFor(timeout: Double = 8, _ condition: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }

    /// Plays `episode` from the top and waits until mpv really produces time.
    func playFromStart(_ episode: Episode) async throws {
        try await engine.handle(.play(episode: episode.id))
        try await engine.handle(.seek(to: 0))
        let started = await wait { !$0.buffering && !$0.paused && $0.episode?.id == episode.id && $0.position > 0.1 }
        try #require(started, "mpv never started playing \(episode.title)")
    }

    /// Media seconds that pass during `wall` seconds, by mpv's own clock.
    func mediaSeconds(during wall: Double) async throws -> Double {
        let before = try #require(engine.player.timePosition())
        let start = Date()
        try await Task.sleep(for: .milliseconds(Int(wall * 1000)))
        let after = try #require(engine.player.timePosition())
        return (after - before) / Date().timeIntervalSince(start) * wall
    }

    func close() async {
        await engine.shutdown()
    }
}
