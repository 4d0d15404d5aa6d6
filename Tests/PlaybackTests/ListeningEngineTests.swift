import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// Skip silence and leveling on real mpv (`ao=null`): the chain mpv plays through follows the
/// podcast's settings and the defaults, at load and while playing; the listener's speed stays
/// the state's. (How it sounds: Tests/host/test_listening_sound.py.)
@Suite("Skip silence and leveling on real mpv", .serialized)
struct ListeningEngineTests {
    @Test("mpv's af follows the default and a podcast's own choice, at once while playing; kept in the library")
    func chain() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        try await h.engine.handle(.play(episode: h.fastEpisodes[0].id))
        #expect(await h.wait { !$0.buffering && !$0.paused })
        #expect(h.engine.player.property("af")?.contains("silencedetect") == false)

        try await h.engine.handle(.settings(.init(skipSilence: .strong)))
        #expect(await h.waitFor { h.engine.player.property("af")?.contains("silencedetect=n=-40dB:d=0.25") == true },
                "the default applies at once: \(h.engine.player.property("af") ?? "nil")")
        try await h.engine.handle(.podcastSettings(podcast: h.fast.id, .init(skipSilence: .some(.off), leveling: .some(.normalize))))
        #expect(await h.waitFor {
            let af = h.engine.player.property("af") ?? ""
            return !af.contains("silencedetect") && af.contains("loudnorm")
        }, "the podcast's own: \(h.engine.player.property("af") ?? "nil")")
        let stored = try await h.store.setting("playback.settings") ?? ""
        #expect(stored.contains(#""skipSilence":"strong""#) && stored.contains(#""leveling":"normalize""#), "\(stored)")

        // Another podcast's episode: the defaults (strong, no leveling).
        try await h.engine.handle(.play(episode: h.plainEpisode.id))
        #expect(await h.waitFor {
            let af = h.engine.player.property("af") ?? ""
            return af.contains("silencedetect") && !af.contains("loudnorm")
        }, "the defaults for another podcast: \(h.engine.player.property("af") ?? "nil")")
        #expect(await h.engine.state.rate == 1, "the listener's speed is the state's")
        await h.close()
    }
}
