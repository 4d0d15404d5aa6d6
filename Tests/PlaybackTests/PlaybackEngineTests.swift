import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// Real mpv with `ao=null`, which plays in real time, so media time tracks the wall clock.
@Suite("Playback engine on real mpv", .serialized)
struct PlaybackEngineTests {
    @Test("play: position advances at about one second per second")
    func playAdvances() async throws {
        let h = try await PlaybackHarness.make()
        defer { h.directory.remove() }
        try await h.playAndWaitForAudio()
        let advanced = try await h.mediaSeconds(during: 2)
        #expect(abs(advanced - 2) < 0.35, "advanced \(advanced) s in 2 s")
        let state = await h.engine.state
        #expect(state.episode?.id == h.episode.id)
        #expect(state.paused == false)
        #expect(abs(state.duration - 30) < 0.2, "duration \(state.duration)")
        await h.close()
    }

    @Test("seek lands within 0.1 s of the target, paused or playing; skips are relative and clamped")
    func exactSeek() async throws {
        let h = try await PlaybackHarness.make()
        defer { h.directory.remove() }
        try await h.playAndWaitForAudio()
        // Playing: the first position mpv itself reports once the seek is done is the target.
        try await h.engine.handle(.seek(to: 17.3))
        var landed: Double?
        for _ in 0..<200 where landed == nil {
            if let now = h.engine.player.timePosition(), now > 15 { landed = now }
            try await Task.sleep(for: .milliseconds(5))
        }
        let first = try #require(landed, "the seek never completed")
        #expect(abs(first - 17.3) < 0.1, "landed at \(first)")
        try await Task.sleep(for: .milliseconds(600))
        #expect(try #require(h.engine.player.timePosition()) > first + 0.2, "no playback after the seek")

        // Paused: the state shows the target and playback resumes from there.
        try await h.engine.handle(.pause)
        try await h.engine.handle(.seek(to: 5.25))
        try await Task.sleep(for: .milliseconds(300))
        #expect(await h.engine.state.position == 5.25)
        let resumed = Date()
        try await h.engine.handle(.resume)
        try await Task.sleep(for: .milliseconds(600))
        let afterResume = try #require(h.engine.player.timePosition())
        let target = 5.25 + Date().timeIntervalSince(resumed)
        #expect(abs(afterResume - target) < 0.12, "resumed to \(afterResume), expected ≈\(target)")
        // The seek made while paused ended in a restart: the state follows mpv's positions again.
        let followed = await h.engine.state.position
        #expect(followed > 5.5, "the state stayed at \(followed)")

        try await h.engine.handle(.pause)
        try await h.engine.handle(.seek(to: 20))
        try await h.engine.handle(.skip(by: -15))
        #expect(await h.engine.state.position == 5)
        try await h.engine.handle(.skip(by: -15))
        #expect(await h.engine.state.position == 0)
        try await h.engine.handle(.skip(by: 100))
        #expect(await h.engine.state.position == 29.75, "clamped just short of the end")
        await h.close()
    }

    @Test("a pause sent right behind a resume holds: mpv's echo of the resume does not undo it")
    func pauseRightBehindResume() async throws {
        let h = try await PlaybackHarness.make()
        defer { h.directory.remove() }
        try await h.playAndWaitForAudio()
        for round in 0..<5 {
            try await h.engine.handle(.pause)
            try await Task.sleep(for: .milliseconds(300))
            try await h.engine.handle(.resume)
            try await h.engine.handle(.pause)
            try await Task.sleep(for: .milliseconds(300))
            let paused = await h.engine.state.paused
            #expect(paused, "round \(round): the state says playing")
            #expect(h.engine.player.property("pause") == "yes", "round \(round): mpv plays")
        }
        await h.close()
    }

    @Test("a seek sent before mpv has opened the file is applied once it has, with no error")
    func seekWhileLoading() async throws {
        let h = try await PlaybackHarness.make()
        defer { h.directory.remove() }
        try await h.engine.handle(.play(episode: h.episode.id))
        try await h.engine.handle(.seek(to: 20))
        #expect(await h.wait { !$0.buffering })
        try await Task.sleep(for: .milliseconds(400))
        let position = try #require(h.engine.player.timePosition())
        #expect(position >= 20 && position < 21, "at \(position)")
        #expect(await h.engine.state.error == nil)
        await h.close()
    }

    @Test("rate 2 plays about two seconds per second, and is in the state")
    func doubleSpeed() async throws {
        let h = try await PlaybackHarness.make()
        defer { h.directory.remove() }
        try await h.playAndWaitForAudio()
        try await h.engine.handle(.rate(2))
        #expect(await h.wait { $0.rate == 2 })
        try await Task.sleep(for: .milliseconds(300))
        let advanced = try await h.mediaSeconds(during: 2)
        #expect(abs(advanced - 4) < 0.6, "advanced \(advanced) s in 2 s at 2x")
        await h.close()
    }

    @Test("pause stops time; resume starts it again")
    func pauseStopsTime() async throws {
        let h = try await PlaybackHarness.make()
        defer { h.directory.remove() }
        try await h.playAndWaitForAudio()
        try await h.engine.handle(.pause)
        try await Task.sleep(for: .milliseconds(200))
        let advanced = try await h.mediaSeconds(during: 1.2)
        #expect(abs(advanced) < 0.05, "moved \(advanced) s while paused")
        #expect(await h.engine.state.paused)
        try await h.engine.handle(.toggle)
        #expect(await h.wait { !$0.paused })
        let moving = try await h.mediaSeconds(during: 1)
        #expect(moving > 0.6, "after resume moved only \(moving) s")
        await h.close()
    }

    @Test("commands that make no sense are refused with a message, and nothing breaks")
    func refusals() async throws {
        let h = try await PlaybackHarness.make()
        defer { h.directory.remove() }
        await #expect(throws: CommandError("nothing is playing")) { try await h.engine.handle(.pause) }
        await #expect(throws: CommandError("no episode with id 999")) { try await h.engine.handle(.play(episode: 999)) }
        try await h.playAndWaitForAudio()
        #expect(await h.engine.state.error == nil)
        await h.close()
    }

    @Test("a dead media URL is reported as an error in the state")
    func deadURL() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let podcast = try await store.subscribe(feedURL: "http://127.0.0.1/dead.xml", content: FeedContent(title: "Dead", items: [
            FeedItem(guid: "x", title: "Gone", enclosureURL: directory.file("missing.mp3").path),
        ]))
        let episode = try #require(try await store.episodes(podcastID: podcast.id).first)
        let engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store)
        await engine.start()
        try await engine.handle(.play(episode: episode.id))
        let deadline = Date().addingTimeInterval(5)
        while await engine.state.error == nil && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let state = await engine.state
        #expect(state.error?.contains("Gone") == true, "error: \(state.error ?? "none")")
        #expect(state.paused)
        await engine.shutdown()
    }
}
