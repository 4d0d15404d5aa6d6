import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// A real engine on a real mpv (`ao=null`) and a real SQLite file, with one generated episode.
struct PlaybackHarness {
    let directory: TemporaryDirectory
    let store: LibraryStore
    let engine: PlaybackEngine
    let episode: Episode

    /// - Parameter seconds: length of the generated tone.
    static func make(seconds: Double = 30, directory: TemporaryDirectory = TemporaryDirectory()) async throws -> PlaybackHarness {
        let audio = directory.file("tone.wav")
        if !FileManager.default.fileExists(atPath: audio.path) {
            try GeneratedAudio.writeWAV(to: audio, seconds: seconds)
        }
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let feed = FeedContent(title: "Tones", items: [
            FeedItem(guid: "tone-1", title: "A tone", enclosureURL: audio.path, enclosureType: "audio/wav",
                     duration: seconds, published: Date(timeIntervalSince1970: 1_700_000_000)),
        ])
        let podcast = try await store.subscribe(feedURL: "http://127.0.0.1/tones.xml", content: feed)
        let episode = try #require(try await store.episodes(podcastID: podcast.id).first)
        let player = try MPVPlayer(audioOutput: "null")
        let engine = PlaybackEngine(player: player, store: store)
        await engine.start()
        return PlaybackHarness(directory: directory, store: store, engine: engine, episode: episode)
    }

    /// Polls the engine's state until `condition` holds or `timeout` passes; returns whether it held.
    func wait(timeout: Double = 5, until condition: @escaping (PlaybackState) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(await engine.state) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(await engine.state)
    }

    /// Plays and waits until mpv is really producing time (buffering over, position moving).
    func playAndWaitForAudio() async throws {
        try await engine.handle(.play(episode: episode.id))
        let started = await wait { !$0.buffering && $0.position > 0.2 }
        try #require(started, "mpv never started playing the generated file")
    }

    /// Seconds of media that pass during `wall` seconds of real time.
    func mediaSeconds(during wall: Double) async throws -> Double {
        let before = await engine.state.position
        let start = Date()
        try await Task.sleep(for: .milliseconds(Int(wall * 1000)))
        let after = await engine.state.position
        return (after - before) / Date().timeIntervalSince(start) * wall
    }

    func close() async {
        await engine.shutdown()
    }
}
