import EarshotCore
import Foundation
@testable import Playback
import TestSupport
import Testing

/// Episodes that cannot play, over a real loopback HTTP server and a real mpv: each gives a clear
/// error in the state every client gets, is marked in `state.failures`, and the queue moves on
/// to the next episode, which plays.
@Suite(.serialized) struct FailureEngineTests {
    /// One broken remote episode followed by a good local one, queued; plays the broken one.
    private func playBroken(_ responses: [FixtureHTTPServer.Response], path: String = "/broken.mp3",
                            expect fragment: String,
                            also check: (ResilienceHarness, Episode) async throws -> Void = { _, _ in }) async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        if !responses.isEmpty { server.set(path, sequence: responses) }
        let directory = TemporaryDirectory()
        let good = try GeneratedAudio.writeWAV(to: directory.file("good.wav"), seconds: 20)
        let h = try await ResilienceHarness([("Broken", server.url(path).absoluteString, 180),
                                             ("Good", good.path, 20)], directory: directory)
        let (broken, next) = (h.episodes[0], h.episodes[1])
        try await h.queueAll()
        try await h.engine.handle(.play(episode: broken.id))

        let movedOn = await h.wait(timeout: 30, until: h.isPlaying(next))
        let state = await h.engine.state
        #expect(movedOn, "the queue did not move on to the next episode: \(state.error ?? "no error")")
        let error = try #require(state.error, "the error must stay in the state while the next one plays")
        #expect(error.contains("Broken"), "the error names the episode: \(error)")
        #expect(error.lowercased().contains(fragment), "\(error)")
        #expect(state.failures[broken.id] == error, "the episode is marked")
        #expect(state.failures[next.id] == nil)
        // Every client was told: a state message carried the error and the mark.
        let told = h.states.contains { ($0.json["error"] as? String) == error
            && (($0.json["failures"] as? [String: String])?[String(broken.id)]) == error }
        #expect(told)
        // Not marked played: it was never heard.
        #expect(try await h.store.episode(id: broken.id)?.played == false)
        try await check(h, broken)
        await h.close()
    }

    @Test func aMissingFileIsReportedAndSkipped() async throws {
        try await playBroken([], expect: "loading failed")
    }

    @Test func anHTMLPageIsReportedAndSkipped() async throws {
        let page = String(repeating: "<html><body><p>Not found, but with a 200 status.</p></body></html>\n", count: 200)
        try await playBroken([.init(text: page, contentType: "text/html; charset=utf-8")], expect: "unrecognized file format")
    }

    @Test func aStreamDroppedMidwayIsReportedAndSkipped() async throws {
        // A 120 s WAV whose connection breaks after 3 s of it, and every request to resume it
        // (mpv asks for the rest with a Range) breaks at once: the network is gone for good.
        let directory = TemporaryDirectory()
        let whole = try Data(contentsOf: GeneratedAudio.writeWAV(to: directory.file("long.wav"), seconds: 120))
        let headers = ["Content-Type": "audio/wav"]
        let responses = [FixtureHTTPServer.Response(headers: headers, body: whole, dropAfter: 44 + 8_000 * 2 * 3),
                         FixtureHTTPServer.Response(headers: headers, body: whole, dropAfter: 0)]
        try await playBroken(responses, path: "/dropped.wav", expect: "connection dropped") { h, dropped in
            // Where the stream broke off is kept: resuming it later goes on from there.
            let position = try #require(try await h.store.episode(id: dropped.id)?.position)
            #expect(position > 2 && position <= 3.1, "\(position)")
        }
    }

    @Test func aFailureWithNothingQueuedAfterItStops() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let h = try await ResilienceHarness([("Gone", server.url("/gone.mp3").absoluteString, 60)])
        try await h.engine.handle(.play(episode: h.episodes[0].id))
        let failed = await h.wait { $0.failures[h.episodes[0].id] != nil }
        #expect(failed)
        try await Task.sleep(for: .milliseconds(500))
        let state = await h.engine.state
        #expect(state.paused && state.episode?.id == h.episodes[0].id && state.error != nil)
        await h.close()
    }

    /// The mark is stored: a new engine on the same library (Earshot restarted) still shows which
    /// episode failed and why, until it plays; then the mark is gone for the next run too.
    @Test func theMarkOutlivesARestartUntilTheEpisodePlays() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let directory = TemporaryDirectory()
        let h = try await ResilienceHarness([("Gone", server.url("/gone.wav").absoluteString, 5)], directory: directory)
        let gone = h.episodes[0]
        try await h.engine.handle(.play(episode: gone.id))
        #expect(await h.wait { $0.failures[gone.id] != nil })
        let message = try #require(await h.engine.state.failures[gone.id])
        await h.close()

        func restarted() async throws -> PlaybackEngine {
            let engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: h.store)
            await engine.start()
            return engine
        }
        let again = try await restarted()
        #expect(await again.state.failures == [gone.id: message], "the mark and its reason after a restart")

        // The file is there now: it plays, the mark goes, and stays gone after the next restart.
        let wav = try Data(contentsOf: GeneratedAudio.writeWAV(to: directory.file("back.wav"), seconds: 5))
        server.set("/gone.wav", headers: ["Content-Type": "audio/wav"], body: wav)
        try await again.handle(.play(episode: gone.id))
        let deadline = Date().addingTimeInterval(15)
        while await again.state.failures[gone.id] != nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(await again.state.failures.isEmpty, "playing takes the mark away")
        await again.shutdown()
        let third = try await restarted()
        #expect(await third.state.failures.isEmpty, "and it stays away")
        await third.shutdown()
    }
}
