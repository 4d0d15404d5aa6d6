import EarshotCore
import Foundation
@testable import Playback
import TestSupport
import Testing

/// mpv dying or hanging, with a real mpv. libmpv lives inside Earshot's process, so "mpv died"
/// is simulated by mpv's own `quit` command: its core really shuts down and the handle is dead,
/// exactly what a crashed core leaves. A hang cannot be caused from outside: the watchdog's probe
/// answers are dropped instead (`stopAnsweringProbesForTesting`), which is what a hung core looks
/// like to the watchdog.
@Suite(.serialized) struct RecoveryEngineTests {
    private func harness() async throws -> ResilienceHarness {
        let directory = TemporaryDirectory()
        let audio = try GeneratedAudio.writeWAV(to: directory.file("tone.wav"), seconds: 60)
        return try await ResilienceHarness([("Tone", audio.path, 60)], directory: directory)
    }

    /// A harness whose episode plays, past `seconds`.
    private func playing(past seconds: Double) async throws -> (ResilienceHarness, Episode) {
        let h = try await harness()
        let episode = h.episodes[0]
        try await h.engine.handle(.play(episode: episode.id))
        #expect(await h.wait(until: h.isPlaying(episode, past: seconds)))
        return (h, episode)
    }

    @Test func mpvQuittingIsRestartedWithTheEpisodeWhereItWas() async throws {
        let h = try await harness()
        let episode = h.episodes[0]
        try await h.engine.handle(.play(episode: episode.id))
        try await h.engine.handle(.seek(to: 20))
        try await h.engine.handle(.rate(1.5))
        try await h.engine.handle(.volume(70))
        #expect(await h.wait(until: h.isPlaying(episode, past: 20.3)))
        let before = await h.engine.state.position

        h.engine.player.quitForTesting()
        let restarted = await waitFor { await h.engine.playerRestarts == 1 }
        #expect(restarted, "the engine never restarted mpv")
        // A new mpv plays the same episode from where the old one was, with the same settings.
        #expect(await h.wait(until: h.isPlaying(episode, past: before)), "not playing again")
        let position = try #require(h.engine.player.timePosition(), "the new mpv has the file")
        #expect(position >= before - 0.5 && position < before + 5, "\(position) vs \(before)")
        #expect(h.engine.player.property("speed").flatMap(Double.init) == 1.5)
        #expect(h.engine.player.property("volume").flatMap(Double.init) == 70)
        let notice = await h.engine.state.notice
        #expect(notice?.contains("restarted") == true, "\(notice ?? "no notice")")
        await h.close()
    }

    @Test func aPausedEpisodeStaysPausedAfterARestart() async throws {
        let (h, episode) = try await playing(past: 0.5)
        try await h.engine.handle(.pause)
        let at = await h.engine.state.position
        let before = h.states.count
        h.engine.player.quitForTesting()
        #expect(await waitFor { await h.engine.playerRestarts == 1 })
        _ = await h.wait { !$0.buffering }
        try await Task.sleep(for: .milliseconds(300))
        #expect(h.engine.player.property("pause") == "yes")
        // The new mpv started paused: no client ever saw it playing meanwhile.
        #expect(h.states[before...].allSatisfy { $0.json["paused"] as? Bool == true })
        let position = try #require(h.engine.player.timePosition())
        #expect(abs(position - at) < 0.5, "\(position) vs \(at)")
        try await h.engine.handle(.resume)
        #expect(await h.wait(until: h.isPlaying(episode, past: at + 0.3)))
        await h.close()
    }

    @Test func mpvNotAnsweringIsReplacedByTheWatchdog() async throws {
        let (h, episode) = try await playing(past: 1)
        let started = Date()
        h.engine.player.stopAnsweringProbesForTesting()
        let restarted = await waitFor(timeout: 10) { await h.engine.playerRestarts == 1 }
        let took = Date().timeIntervalSince(started)
        #expect(restarted, "the watchdog never noticed")
        #expect(took > PlaybackEngine.probeTimeout - 0.5 && took < PlaybackEngine.probeTimeout + 3, "\(took) s")
        #expect(await h.wait(until: h.isPlaying(episode, past: 1)), "the new mpv plays on")
        // The new mpv answers: no second restart.
        try await Task.sleep(for: .seconds(PlaybackEngine.probeTimeout + 1.5))
        #expect(await h.engine.playerRestarts == 1)
        await h.close()
    }

    /// Nothing loaded, mpv not answering (at start-up: listing the outputs while the sound server is
    /// slow to answer): it is given `idleProbeTimeout`, not replaced after `probeTimeout`, and no
    /// notice says the player stopped. Once an episode is loaded the shorter wait counts at once: a
    /// hung mpv is replaced and the new one plays it.
    @Test func anIdleMpvSlowToAnswerIsGivenLongerThenReplacedOnceAnEpisodeIsLoaded() async throws {
        let h = try await harness()
        let episode = h.episodes[0]
        h.engine.player.stopAnsweringProbesForTesting()
        try await Task.sleep(for: .seconds(PlaybackEngine.probeTimeout + 2))
        #expect(await h.engine.playerRestarts == 0, "replaced while nothing was loaded")
        #expect(await h.engine.state.notice == nil)
        try await h.engine.handle(.play(episode: episode.id))
        #expect(await waitFor(timeout: 5) { await h.engine.playerRestarts == 1 }, "a hung mpv with an episode loaded is replaced")
        #expect(await h.wait(until: h.isPlaying(episode, past: 0.5)), "the new mpv plays it")
        await h.close()
    }

    /// A replacement that does not answer either (what a sound server that stopped answering does to
    /// every new mpv as it opens the output) is given twice as long as the one before it: the
    /// replaced ones stay behind until their cores are freed.
    @Test func aReplacementThatDoesNotAnswerEitherIsGivenTwiceAsLong() async throws {
        let (h, episode) = try await playing(past: 1)
        h.engine.player.stopAnsweringProbesForTesting()
        #expect(await waitFor(timeout: 10) { await h.engine.playerRestarts == 1 }, "the watchdog never noticed")
        // The new mpv's first probe goes out at the watchdog's next look, a second after the restart.
        h.engine.player.stopAnsweringProbesForTesting()
        let replaced = Date()
        let again = await waitFor(timeout: 4 * PlaybackEngine.probeTimeout) { await h.engine.playerRestarts == 2 }
        let took = Date().timeIntervalSince(replaced)
        #expect(again, "the second mpv, not answering, was never replaced")
        #expect(took > 2 * PlaybackEngine.probeTimeout && took < 2 * PlaybackEngine.probeTimeout + 3, "\(took) s")
        #expect(await h.wait(until: h.isPlaying(episode, past: 0.5)), "the third mpv plays on")
        await h.close()
    }

    /// The watchdog's decision: never before the wait for an episode loaded or not, doubled for each
    /// restart in a row up to sixteen times, and once it counts a hang, it does for any longer wait.
    @Test func theWaitBeforeAReplacementDoublesWithEachRestartInARow() {
        for loaded in [true, false] {
            let base = loaded ? PlaybackEngine.probeTimeout : PlaybackEngine.idleProbeTimeout
            for restarts in 0...8 {
                let limit = base * Double(1 << min(restarts, 4))
                #expect(!PlaybackEngine.countsAsHung(unansweredFor: limit, loaded: loaded, restartsInARow: restarts))
                #expect(PlaybackEngine.countsAsHung(unansweredFor: limit + 0.01, loaded: loaded, restartsInARow: restarts))
                for age in stride(from: 0.0, through: 300, by: 0.7) {
                    let hung = PlaybackEngine.countsAsHung(unansweredFor: age, loaded: loaded, restartsInARow: restarts)
                    #expect(hung == (age > limit), "age \(age), \(restarts) in a row, loaded \(loaded)")
                    if hung { #expect(PlaybackEngine.countsAsHung(unansweredFor: age + 1, loaded: loaded, restartsInARow: restarts)) }
                }
            }
        }
        #expect(PlaybackEngine.countsAsHung(unansweredFor: 3.5, loaded: true))  // the default: none in a row
    }

    @Test func aHealthyMpvIsNeverRestarted() async throws {
        let h = try await harness()
        try await h.engine.handle(.play(episode: h.episodes[0].id))
        try await Task.sleep(for: .seconds(PlaybackEngine.probeTimeout + 2))
        #expect(await h.engine.playerRestarts == 0)
        await h.close()
    }

    private func waitFor(timeout: Double = 8, _ condition: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }
}
