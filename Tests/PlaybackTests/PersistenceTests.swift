import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// What the engine writes to the library, and what it reads back.
@Suite("Positions and played state on real mpv", .serialized)
struct PersistenceTests {
    func stored(_ h: PlaybackHarness) async throws -> Episode {
        try #require(try await h.store.episode(id: h.episode.id))
    }

    @Test("pause and stop save the position; so does playing on for 5 s")
    func saves() async throws {
        let h = try await PlaybackHarness.make()
        defer { h.directory.remove() }
        try await h.playAndWaitForAudio()
        try await Task.sleep(for: .milliseconds(1200))
        try await h.engine.handle(.pause)
        let paused = await h.engine.state.position
        #expect(paused > 1)
        #expect(try await stored(h).position == paused)

        try await h.engine.handle(.resume)
        // No command for 6 s: only the periodic save can move the stored position.
        try await Task.sleep(for: .milliseconds(6_000))
        let periodic = try await stored(h).position
        #expect(periodic > paused + 3, "stored \(periodic), paused at \(paused)")

        try await Task.sleep(for: .milliseconds(700))
        let before = await h.engine.state.position
        try await h.engine.handle(.stop)
        let afterStop = try await stored(h).position
        #expect(afterStop >= before && afterStop < before + 0.6, "stop saved \(afterStop), was at \(before)")
        #expect(await h.engine.state.episode == nil)
        await h.close()
    }

    @Test("quitting saves where it was, and a new engine resumes there")
    func quitSaves() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try await PlaybackHarness.make(directory: directory)
        try await first.playAndWaitForAudio()
        try await first.engine.handle(.seek(to: 12))
        // Play on past the seek's own save, so only the save on quit can store this position.
        try await Task.sleep(for: .milliseconds(1500))
        let atQuit = await first.engine.state.position
        #expect(atQuit > 13)
        await first.close()
        let saved = try #require(try await first.store.episode(id: first.episode.id)).position
        #expect(saved >= atQuit - 0.05 && saved < atQuit + 0.6, "saved \(saved), was at \(atQuit)")

        let second = try await PlaybackHarness.make(directory: directory)
        try await second.engine.handle(.play(episode: second.episode.id))
        #expect(await second.wait { !$0.buffering && $0.position >= saved - 0.1 })
        let position = try #require(second.engine.player.timePosition())
        #expect(position >= saved - 0.1 && position < saved + 1.5, "resumed at \(position), saved \(saved)")
        await second.close()
    }

    @Test("playing the loaded episode again resumes it, not from the start")
    func sameEpisodeResumes() async throws {
        let h = try await PlaybackHarness.make()
        defer { h.directory.remove() }
        try await h.playAndWaitForAudio()
        try await h.engine.handle(.seek(to: 8))
        try await h.engine.handle(.pause)
        try await h.engine.handle(.play(episode: h.episode.id))
        #expect(await h.engine.state.paused == false)
        #expect(await h.engine.state.buffering == false, "it must not reload the file")
        try await Task.sleep(for: .milliseconds(500))
        let position = try #require(h.engine.player.timePosition())
        #expect(position > 8 && position < 9.5, "at \(position)")
        await h.close()
    }

    @Test("an episode played to the end is marked played; seeking back into it plays from there")
    func endAndSeekBack() async throws {
        let h = try await PlaybackHarness.make(seconds: 2.5)
        defer { h.directory.remove() }
        try await h.engine.handle(.play(episode: h.episode.id))
        #expect(await h.wait(timeout: 8) { $0.paused && $0.position >= 2.4 && $0.episode != nil })
        #expect(try await stored(h).played)
        try await h.engine.handle(.seek(to: 1.2))
        #expect(try await stored(h).played == false)
        try await h.engine.handle(.resume)
        #expect(await h.wait { !$0.buffering && !$0.paused })
        let position = try #require(h.engine.player.timePosition())
        #expect(position >= 1.1 && position < 1.8, "resumed at \(position), asked for 1.2")
        await h.close()
    }

    @Test("stopping in an episode's last stretch marks it played; so does switching away there")
    func stopNearTheEnd() async throws {
        let h = try await PlaybackHarness.make(seconds: 40) // its "last stretch" is the last tenth: 4 s
        defer { h.directory.remove() }
        try await h.playAndWaitForAudio()
        try await h.engine.handle(.seek(to: 30))
        try await h.engine.handle(.stop)
        #expect(try await stored(h).played == false, "10 s before the end is not the end")
        try await h.engine.handle(.play(episode: h.episode.id))
        try await h.engine.handle(.seek(to: 37))
        try await h.engine.handle(.stop)
        let after = try await stored(h)
        #expect(after.played)
        #expect(after.position == 0, "played means from the top next time")
        try await h.engine.handle(.mark(episode: h.episode.id, played: false))
        #expect(try await stored(h).played == false)
        await #expect(throws: CommandError("no episode with id 4242")) { try await h.engine.handle(.mark(episode: 4242, played: true)) }
        await h.close()
    }

    @Test("only http(s) and our own bundled files are handed to mpv")
    func playableAddresses() async throws {
        #expect(PlaybackEngine.isPlayable("https://cdn.example/ep.mp3"))
        #expect(PlaybackEngine.isPlayable("HTTP://cdn.example/ep.mp3"))
        #expect(PlaybackEngine.isPlayable("/demo/audio/01.mp3"))
        for bad in ["file:///etc/passwd", "edl://x", "av://lavfi:sine", "//evil.example/x", "ytdl://x", "memory://x", ""] {
            #expect(!PlaybackEngine.isPlayable(bad), "\(bad)")
        }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let podcast = try await store.subscribe(feedURL: "http://127.0.0.1/x.xml", content: FeedContent(title: "X", items: [
            FeedItem(guid: "f", title: "Sneaky", enclosureURL: "file:///etc/passwd"),
        ]))
        let episode = try #require(try await store.episodes(podcastID: podcast.id).first)
        let engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store)
        await engine.start()
        try await engine.handle(.play(episode: episode.id))
        let state = await engine.state
        #expect(state.error?.contains("not http(s)") == true)
        #expect(state.episode == nil)
        #expect(engine.player.timePosition() == nil, "mpv opened nothing")
        await engine.shutdown()
    }
}
