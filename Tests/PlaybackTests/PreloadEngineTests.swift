import EarshotCore
import Foundation
@testable import Playback
import TestSupport
import Testing

/// The next queued episode waits in mpv's playlist, so the switch at an episode's end is quick.
/// Measured with real mpv (`ao=null`) and local generated files: from the `state` that shows the
/// first episode ended to the `state` that shows the next one playing (mpv's playback-restart:
/// audio is being produced). The budget is 300 ms.
@Suite(.serialized) struct PreloadEngineTests {
    static let budget = 0.3

    private func harness(first seconds: Double = 4) async throws -> ResilienceHarness {
        let directory = TemporaryDirectory()
        let one = try GeneratedAudio.writeWAV(to: directory.file("one.wav"), seconds: seconds)
        let two = try GeneratedAudio.writeWAV(to: directory.file("two.wav"), seconds: 20)
        return try await ResilienceHarness([("One", one.path, seconds), ("Two", two.path, 20)], directory: directory)
    }

    /// Seconds from the last state of `first` (ended) to the first of `next` playing with
    /// buffering over, from the messages clients got.
    private func switchTime(_ h: ResilienceHarness, from first: Episode, to next: Episode) -> Double? {
        let states = h.states
        func id(_ json: [String: Any]) -> Int64? { ((json["episode"] as? [String: Any])?["id"] as? NSNumber)?.int64Value }
        guard let endedAt = states.lastIndex(where: { id($0.json) == first.id }),
              let started = states[endedAt...].first(where: {
                  id($0.json) == next.id && $0.json["buffering"] as? Bool == false && $0.json["paused"] as? Bool == false
              }) else { return nil }
        return started.at.timeIntervalSince(states[endedAt].at)
    }

    @Test func theNextEpisodeStartsWithin300msOfTheEnd() async throws {
        let h = try await harness()
        let (first, next) = (h.episodes[0], h.episodes[1])
        try await h.queueAll()
        try await h.engine.handle(.play(episode: first.id))
        #expect(await h.wait(until: h.isPlaying(first, past: 0.3)))
        #expect(await h.wait { _ in h.engine.player.property("playlist-count") == "2" }, "the next one was appended")
        #expect(await h.wait(until: h.isPlaying(next, past: 0.05)))
        let took = try #require(switchTime(h, from: first, to: next))
        print("preload: end of one episode → next one playing in \(Int(took * 1000)) ms")
        #expect(took < Self.budget, "\(took) s")
        #expect(try await h.store.episode(id: first.id)?.played == true, "the first one still counts as heard")
        let position = try #require(h.engine.player.timePosition())
        #expect(position < 2, "the next one starts at its top: \(position)")
        await h.close()
    }

    @Test func aQueueChangeReplacesThePreloadedEpisode() async throws {
        let directory = TemporaryDirectory()
        let files = try (1...3).map { try GeneratedAudio.writeWAV(to: directory.file("\($0).wav"), seconds: $0 == 1 ? 2.5 : 20) }
        let h = try await ResilienceHarness([("One", files[0].path, 2.5), ("Two", files[1].path, 20), ("Three", files[2].path, 20)],
                                            directory: directory)
        try await h.queueAll()
        try await h.engine.handle(.play(episode: h.episodes[0].id))
        #expect(await h.wait(until: h.isPlaying(h.episodes[0], past: 0.2)))
        // "Three" moves up to play next: the file mpv holds must follow.
        try await h.engine.handle(.queueMove(from: 2, to: 1))
        #expect(await h.wait(until: h.isPlaying(h.episodes[2], past: 0.05)), "the queue's next one plays, not the old preload")
        await h.close()
    }

    @Test func nothingPlaysOnAtTheEndOfTheQueue() async throws {
        let h = try await harness()
        try await h.engine.handle(.play(episode: h.episodes[0].id)) // queued alone
        #expect(await h.wait(until: h.isPlaying(h.episodes[0], past: 0.2)))
        #expect(await h.wait { $0.paused && $0.position >= 3.9 })
        try await Task.sleep(for: .milliseconds(400))
        #expect(h.engine.player.property("idle-active") == "yes", "mpv went idle")
        #expect(await h.engine.state.episode?.id == h.episodes[0].id)
        await h.close()
    }

    @Test func anEpisodeThatResumesMidwayIsNotPreloadedButStillFollows() async throws {
        let h = try await harness()
        try await h.store.savePosition(episodeID: h.episodes[1].id, position: 7)
        try await h.queueAll()
        try await h.engine.handle(.play(episode: h.episodes[0].id))
        #expect(await h.wait(until: h.isPlaying(h.episodes[0], past: 0.3)))
        try await Task.sleep(for: .milliseconds(300))
        #expect(h.engine.player.property("playlist-count") == "1")
        #expect(await h.wait(until: h.isPlaying(h.episodes[1], past: 7)), "it resumes where it was")
        await h.close()
    }
}

/// `state.buffering` while mpv waits for data, over a real loopback HTTP server.
@Suite(.serialized) struct BufferingEngineTests {
    @Test func aSlowStreamShowsBufferingUntilItPlays() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let directory = TemporaryDirectory()
        let whole = try Data(contentsOf: GeneratedAudio.writeWAV(to: directory.file("slow.wav"), seconds: 30))
        // 1 KB every 0.1 s: 10 KB/s for audio that plays 16 KB/s, so mpv keeps running dry.
        server.set("/slow.wav", .init(headers: ["Content-Type": "audio/wav"], body: whole, chunkDelay: 0.1, chunkSize: 1024))
        let h = try await ResilienceHarness([("Slow", server.url("/slow.wav").absoluteString, 30)], directory: directory)
        try await h.engine.handle(.play(episode: h.episodes[0].id))
        #expect(await h.engine.state.buffering, "buffering from the load on")
        // It gets going, then its cache runs dry: mpv's paused-for-cache.
        #expect(await h.wait(timeout: 15) { $0.position > 0.2 }, "never played")
        let starved = await h.wait(timeout: 20) { $0.buffering && $0.position > 0.2 && !$0.paused }
        #expect(starved, "mpv never waited for data on a stream four times too slow")
        #expect(h.states.contains { $0.json["buffering"] as? Bool == true && ($0.json["position"] as? Double ?? 0) > 0.2 })
        await h.close()
    }

    @Test func aLocalFileBuffersOnlyWhileItOpens() async throws {
        let directory = TemporaryDirectory()
        let audio = try GeneratedAudio.writeWAV(to: directory.file("tone.wav"), seconds: 30)
        let h = try await ResilienceHarness([("Tone", audio.path, 30)], directory: directory)
        try await h.engine.handle(.play(episode: h.episodes[0].id))
        #expect(await h.wait(until: h.isPlaying(h.episodes[0], past: 1.5)))
        let count = h.states.filter { $0.json["buffering"] as? Bool == true }.count
        #expect(count >= 1 && h.states.last?.json["buffering"] as? Bool == false)
        // A seek waits for mpv too; it is over once mpv restarts playback.
        try await h.engine.handle(.seek(to: 20))
        #expect(await h.wait(until: h.isPlaying(h.episodes[0], past: 20.2)))
        #expect(await !h.engine.state.buffering)
        await h.close()
    }
}
