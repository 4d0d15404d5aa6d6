import EarshotCore
import Foundation
@testable import Playback
import TestSupport
import Testing

/// Outputs on a real mpv (`ao=null`). mpv's own device list is real (it lists every audio
/// output's default device, e.g. auto, alsa, jack, sdl); a device disappearing cannot be caused
/// by a test, so those lists are put into the event stream mpv's events travel
/// (`MPVPlayer.deliverForTesting`), and the engine reacts as it would to mpv's own report.
@Suite(.serialized) struct OutputEngineTests {
    let headphones = AudioDevice(name: "pulse/usb-headphones", description: "USB headphones")

    private func harness() async throws -> ResilienceHarness {
        let directory = TemporaryDirectory()
        let audio = try GeneratedAudio.writeWAV(to: directory.file("tone.wav"), seconds: 30)
        return try await ResilienceHarness([("Tone", audio.path, 30)], directory: directory)
    }

    /// An engine playing the tone through `headphones`, listed beside mpv's real devices.
    private func playingOnHeadphones() async throws -> (ResilienceHarness, [AudioDevice]) {
        let h = try await harness()
        _ = await h.wait { !$0.outputs.isEmpty }
        let real = await h.engine.state.outputs
        h.engine.player.deliverForTesting(.property(.audioDevices(real + [headphones])))
        _ = await h.wait { $0.outputs.contains(headphones) }
        try await h.engine.handle(.output(device: headphones.name))
        try await h.engine.handle(.play(episode: h.episodes[0].id))
        #expect(await h.wait(until: h.isPlaying(h.episodes[0], past: 0.5)))
        return (h, real)
    }

    @Test func mpvsDeviceListReachesTheState() async throws {
        let h = try await harness()
        let listed = await h.wait { !$0.outputs.isEmpty }
        #expect(listed, "mpv's audio-device-list never arrived")
        let outputs = await h.engine.state.outputs
        #expect(outputs.first?.name == "auto", "\(outputs)")
        #expect(outputs.allSatisfy { !$0.description.isEmpty })
        #expect(h.states.contains { ($0.json["outputs"] as? [[String: String]])?.first?["name"] == "auto" })
        await h.close()
    }

    @Test func choosingAnOutputTellsMpvAndIsRemembered() async throws {
        let h = try await harness()
        _ = await h.wait { !$0.outputs.isEmpty }
        let real = try #require(await h.engine.state.outputs.last, "mpv lists at least one device")
        try await h.engine.handle(.output(device: real.name))
        #expect(await h.engine.state.output == real.name)
        for _ in 0..<50 where h.engine.player.property("audio-device") != real.name { try await Task.sleep(for: .milliseconds(20)) }
        #expect(h.engine.player.property("audio-device") == real.name, "mpv was told")
        #expect(try await h.store.setting(PlaybackEngine.outputKey) == real.name)
        await #expect(throws: CommandError.self) { try await h.engine.handle(.output(device: "nowhere/none")) }
        #expect(await h.engine.state.output == real.name, "a refused choice changes nothing")
        await h.close()

        // A new engine on the same library starts with it.
        let again = try await ResilienceHarness([("Tone", h.episodes[0].mediaURL, 30)], directory: h.directory)
        #expect(await again.engine.state.output == real.name)
        for _ in 0..<50 where again.engine.player.property("audio-device") != real.name { try await Task.sleep(for: .milliseconds(20)) }
        #expect(again.engine.player.property("audio-device") == real.name, "applied at start")
        await again.close()
    }

    @Test func theDeviceInUseDisappearingPausesAndTellsWhy() async throws {
        let (h, real) = try await playingOnHeadphones()

        h.engine.player.deliverForTesting(.property(.audioDevices(real)))
        let paused = await h.wait(timeout: 2) { $0.paused }
        #expect(paused, "playback must pause when its output goes")
        let state = await h.engine.state
        #expect(state.notice == "Paused: USB headphones was disconnected.")
        #expect(state.output == headphones.name, "the choice is remembered for when it comes back")
        for _ in 0..<50 where h.engine.player.property("pause") != "yes" { try await Task.sleep(for: .milliseconds(20)) }
        #expect(h.engine.player.property("pause") == "yes", "mpv itself paused")
        #expect(h.engine.player.property("audio-device") == "auto", "mpv plays through auto meanwhile")
        #expect(h.states.last?.json["notice"] as? String == "Paused: USB headphones was disconnected.", "clients were told")
        // It stays paused: resuming is the listener's choice, and clears the notice.
        try await Task.sleep(for: .milliseconds(600))
        #expect(await h.engine.state.paused)
        try await h.engine.handle(.resume)
        #expect(await h.wait(until: h.isPlaying(h.episodes[0], past: 0.5)))
        #expect(await h.engine.state.notice == nil)

        // Plugged back in: used again, nothing else changes.
        h.engine.player.deliverForTesting(.property(.audioDevices(real + [headphones])))
        for _ in 0..<50 where h.engine.player.property("audio-device") != headphones.name { try await Task.sleep(for: .milliseconds(20)) }
        #expect(h.engine.player.property("audio-device") == headphones.name)
        #expect(await !h.engine.state.paused)
        await h.close()
    }

    @Test func theLostDeviceReturningWhilePausedOffersToResume() async throws {
        let (h, real) = try await playingOnHeadphones()
        h.engine.player.deliverForTesting(.property(.audioDevices(real)))
        #expect(await h.wait(timeout: 2) { $0.paused })
        #expect(await h.engine.state.resumeOffer == nil, "nothing to offer while it is gone")

        h.engine.player.deliverForTesting(.property(.audioDevices(real + [headphones])))
        #expect(await h.wait(timeout: 2) { $0.resumeOffer == "USB headphones" })
        let state = await h.engine.state
        #expect(state.paused, "the offer is an offer: nothing resumes by itself")
        #expect(state.notice == "USB headphones is connected again.")
        #expect(h.states.last?.json["resumeOffer"] as? String == "USB headphones", "clients were told")
        try await h.engine.handle(.resume)
        #expect(await h.wait(until: h.isPlaying(h.episodes[0], past: 0.5)))
        #expect(await h.engine.state.resumeOffer == nil)
        #expect(await h.engine.state.notice == nil)

        // A device that returns after the listener resumed elsewhere offers nothing.
        h.engine.player.deliverForTesting(.property(.audioDevices(real)))
        #expect(await h.wait(timeout: 2) { $0.paused })
        try await h.engine.handle(.resume)
        h.engine.player.deliverForTesting(.property(.audioDevices(real + [headphones])))
        for _ in 0..<50 where h.engine.player.property("audio-device") != headphones.name { try await Task.sleep(for: .milliseconds(20)) }
        #expect(await h.engine.state.resumeOffer == nil)
        await h.close()
    }

    @Test func anotherDeviceDisappearingChangesNothing() async throws {
        let h = try await harness()
        _ = await h.wait { !$0.outputs.isEmpty }
        let real = await h.engine.state.outputs
        h.engine.player.deliverForTesting(.property(.audioDevices(real + [headphones])))
        try await h.engine.handle(.play(episode: h.episodes[0].id))
        #expect(await h.wait(until: h.isPlaying(h.episodes[0], past: 0.3)))
        h.engine.player.deliverForTesting(.property(.audioDevices(real)))
        _ = await h.wait { !$0.outputs.contains(headphones) }
        try await Task.sleep(for: .milliseconds(300))
        let state = await h.engine.state
        #expect(!state.paused && state.notice == nil)
        await h.close()
    }
}
