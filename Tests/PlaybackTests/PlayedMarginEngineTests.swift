import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// The listener's played margin on a real engine: what counts as played, where play starts, and
/// that the choice is kept.
@Suite("The played margin on real mpv", .serialized)
struct PlayedMarginEngineTests {
    func stored(_ h: PlaybackHarness) async throws -> Episode {
        try #require(try await h.store.episode(id: h.episode.id))
    }

    @Test("a narrower margin leaves 3 s before the end unplayed; a wider one counts it, and is kept")
    func marginDecides() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // 40 s: the default 30 s margin is capped at the last tenth, 4 s; 1 s is narrower.
        let h = try await PlaybackHarness.make(seconds: 40, directory: directory)
        #expect(await h.engine.state.settings.playedMargin == 30)
        try await h.engine.handle(.settings(playedMargin: 1))
        #expect(await h.engine.state.settings.playedMargin == 1)
        try await h.playAndWaitForAudio()
        try await h.engine.handle(.pause)
        try await h.engine.handle(.seek(to: 37))
        try await h.engine.handle(.stop)
        let left = try await stored(h)
        #expect(left.played == false, "3 s before the end is not the end with a 1 s margin")
        #expect(abs(left.position - 37) < 0.01)

        // Wider again: the same stored position now counts as the end, so play starts at 0…
        try await h.engine.handle(.settings(playedMargin: 4))
        try await h.engine.handle(.play(episode: h.episode.id))
        try await h.engine.handle(.pause)
        let start = await h.engine.state.position
        #expect(start < 1, "started at \(start): 37 of 40 s is within the last 4 s")
        // …and leaving it 3 s before the end marks it played.
        try await h.engine.handle(.seek(to: 37))
        try await h.engine.handle(.stop)
        #expect(try await stored(h).played)
        await #expect(throws: CommandError("playedMargin must be between 0 and 600 seconds")) {
            try await h.engine.handle(.settings(playedMargin: 601))
        }
        await h.close()

        // A new engine on the same library keeps the listener's choice.
        let again = try await PlaybackHarness.make(seconds: 40, directory: directory)
        #expect(await again.engine.state.settings.playedMargin == 4)
        #expect(try await again.store.setting("playback.settings") == #"{"leveling":"off","playedMargin":4,"podcastSpeeds":{},"podcasts":{},"skipBack":15,"skipForward":30,"skipSilence":"off"}"#)
        await again.close()
    }
}
