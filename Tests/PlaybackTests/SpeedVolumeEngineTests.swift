import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// Speed (pitch kept), volume above 100 % and mute, and per-podcast speeds, on real mpv.
@Suite("Speed and volume on real mpv", .serialized)
struct SpeedVolumeEngineTests {
    @Test("rate 1.5: mpv plays 1.5 s a second through scaletempo2 (pitch kept)")
    func speed() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        #expect(h.engine.player.property("af")?.contains("scaletempo2") == true, "af = \(h.engine.player.property("af") ?? "nil")")
        try await h.playFromStart(h.plainEpisode)
        try await h.engine.handle(.rate(1.5))
        #expect(await h.engine.state.rate == 1.5)
        try await Task.sleep(for: .milliseconds(300))
        #expect(h.mpv("speed") == 1.5)
        let advanced = try await h.mediaSeconds(during: 2)
        #expect(abs(advanced - 3) < 0.4, "advanced \(advanced) s in 2 s at 1.5×")
        // The filter is still the one doing it: mpv did not swap in resampling.
        #expect(h.engine.player.property("af")?.contains("scaletempo2") == true)
        await h.close()
    }

    @Test("volume up to 130 % and mute reach mpv; the state keeps the listener's values")
    func volume() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        #expect(h.mpv("volume-max") == 130)
        try await h.playFromStart(h.plainEpisode)
        try await h.engine.handle(.volume(125))
        try await Task.sleep(for: .milliseconds(200))
        #expect(h.mpv("volume") == 125)
        #expect(await h.engine.state.volume == 125)
        try await h.engine.handle(.mute(true))
        try await Task.sleep(for: .milliseconds(200))
        #expect(h.engine.player.property("mute") == "yes")
        #expect(await h.engine.state.muted)
        #expect(h.mpv("volume") == 125, "muting keeps the volume")
        try await h.engine.handle(.mute(false))
        try await h.engine.handle(.volume(0))
        try await Task.sleep(for: .milliseconds(200))
        #expect(h.engine.player.property("mute") == "no")
        #expect(h.mpv("volume") == 0)
        #expect(h.states.last?["volume"] as? Double == 0)
        await h.close()
    }

    @Test("a podcast's speed applies when its episodes start; others start at the general speed; it is kept")
    func podcastSpeed() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let h = try await ControlsHarness(directory: directory)
        try await h.engine.handle(.rate(1.2)) // nothing loaded: the general speed
        try await h.engine.handle(.podcastSpeed(podcast: h.fast.id, rate: 1.5))
        #expect(await h.engine.state.settings.podcastSpeeds == [h.fast.id: 1.5])

        try await h.playFromStart(h.fastEpisodes[0])
        #expect(await h.engine.state.rate == 1.5)
        try await Task.sleep(for: .milliseconds(200))
        #expect(h.mpv("speed") == 1.5)
        let advanced = try await h.mediaSeconds(during: 1.5)
        #expect(abs(advanced - 2.25) < 0.35, "advanced \(advanced) s in 1.5 s at 1.5×")

        // A change during one of Fast's episodes is for now only.
        try await h.engine.handle(.rate(2))
        try await h.playFromStart(h.plainEpisode)
        #expect(await h.engine.state.rate == 1.2, "Plain has no speed of its own: the general one")
        try await Task.sleep(for: .milliseconds(200))
        #expect(h.mpv("speed") == 1.2)
        try await h.playFromStart(h.fastEpisodes[1])
        #expect(await h.engine.state.rate == 1.5)

        // Set while one of its episodes plays: applies at once.
        try await h.engine.handle(.podcastSpeed(podcast: h.fast.id, rate: 1.75))
        #expect(await h.engine.state.rate == 1.75)
        await #expect(throws: CommandError("no podcast with id 999")) {
            try await h.engine.handle(.podcastSpeed(podcast: 999, rate: 1.5))
        }
        try await h.engine.handle(.podcastSpeed(podcast: h.plain.id, rate: 0.9))
        let stored = try #require(try await h.store.setting("playback.settings"))
        #expect(stored.contains(#""podcastSpeeds":{"#) && stored.contains(#""\#(h.fast.id)":1.75"#), "\(stored)")
        await h.close()

        // A new engine on the same library keeps them; clearing one brings the general speed back.
        let again = try await ControlsHarness(directory: directory)
        #expect(await again.engine.state.settings.podcastSpeeds == [again.fast.id: 1.75, again.plain.id: 0.9])
        try await again.playFromStart(again.plainEpisode)
        #expect(await again.engine.state.rate == 0.9)
        try await again.engine.handle(.podcastSpeed(podcast: again.plain.id, rate: nil))
        #expect(await again.engine.state.settings.podcastSpeeds == [again.fast.id: 1.75])
        try await again.engine.handle(.stop)
        try await again.playFromStart(again.plainEpisode)
        #expect(await again.engine.state.rate == 1, "the general speed of a fresh start")
        await again.close()
    }

    @Test("skip intervals are settings: stored, sent, kept")
    func skipIntervals() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let h = try await ControlsHarness(directory: directory)
        #expect(await h.engine.state.settings.skipBack == 15)
        #expect(await h.engine.state.settings.skipForward == 30)
        try await h.engine.handle(.settings(.init(skipBack: 10)))
        try await h.engine.handle(.settings(.init(skipForward: 45)))
        let settings = try #require(h.states.last?["settings"] as? [String: Any])
        #expect(settings["skipBack"] as? Double == 10 && settings["skipForward"] as? Double == 45)
        await #expect(throws: CommandError("skipForward must be between 5 and 300 seconds")) {
            try await h.engine.handle(.settings(.init(playedMargin: 60, skipForward: 1000)))
        }
        #expect(await h.engine.state.settings.playedMargin == 30, "a refused change changes nothing")
        await h.close()
        let again = try await ControlsHarness(directory: directory)
        #expect(await again.engine.state.settings.skipBack == 10)
        #expect(await again.engine.state.settings.skipForward == 45)
        await again.close()
    }
}
