import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// The sleep timer carried out on real mpv, with timers of a few seconds.
@Suite("The sleep timer on real mpv", .serialized)
struct SleepEngineTests {
    /// mpv's volume sampled every 50 ms until the engine pauses (or `timeout`): (seconds since start, volume).
    func volumesUntilPaused(_ h: ControlsHarness, timeout: Double = 8) async throws -> [(Double, Double)] {
        let start = Date()
        var samples: [(Double, Double)] = []
        while Date().timeIntervalSince(start) < timeout {
            if let volume = h.mpv("volume") { samples.append((Date().timeIntervalSince(start), volume)) }
            if await h.engine.state.paused { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return samples
    }

    @Test("3 s: counts down, fades mpv's volume to silence, pauses, gives the volume back; listeners saw it all")
    func minutes() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        try await h.playFromStart(h.plainEpisode)
        try await h.engine.handle(.volume(80))
        try await Task.sleep(for: .milliseconds(200))
        try await h.engine.handle(.sleep(.after(seconds: 3)))
        let first = try #require(await h.engine.state.sleep)
        #expect(first.mode == .minutes && abs((first.remaining ?? 0) - 3) < 0.1 && first.fade == 3)

        let samples = try await volumesUntilPaused(h)
        let (pausedAt, _) = try #require(samples.last)
        #expect(pausedAt > 2.7 && pausedAt < 3.8, "paused after \(pausedAt) s")
        #expect(await h.engine.state.paused)
        // The fade: loud at first, then lower and lower, silent just before the pause.
        let early = samples.filter { $0.0 < 0.3 }.map(\.1)
        let middle = samples.filter { $0.0 > 1.3 && $0.0 < 1.7 }.map(\.1)
        let late = samples.filter { $0.0 > 2.6 && $0.0 < pausedAt - 0.15 }.map(\.1)
        #expect(!early.isEmpty && early.allSatisfy { $0 >= 68 }, "early \(early)")
        #expect(!middle.isEmpty && middle.allSatisfy { $0 > 20 && $0 < 60 }, "middle \(middle)")
        #expect(!late.isEmpty && late.allSatisfy { $0 < 20 }, "late \(late)")
        let volumes = samples.dropLast().map(\.1)
        #expect(zip(volumes, volumes.dropFirst()).allSatisfy { $0.1 <= $0.0 }, "the volume only went down: \(volumes)")

        // After: paused in mpv too, the listener's volume back, no timer.
        try await Task.sleep(for: .milliseconds(300))
        #expect(h.engine.player.property("pause") == "yes")
        #expect(h.mpv("volume") == 80)
        let state = await h.engine.state
        #expect(state.sleep == nil && state.volume == 80)
        // What a client was told: the countdown, never the fade's volume, then the end.
        let told = h.states
        let counting = told.compactMap { $0["sleep"] as? [String: Any] }
        #expect(counting.first?["mode"] as? String == "minutes")
        #expect(told.allSatisfy { $0["volume"] as? Double == 100 || $0["volume"] as? Double == 80 })
        let last = try #require(told.last)
        #expect(last["sleep"] is NSNull && last["paused"] as? Bool == true)
        await h.close()
    }

    @Test("a pause stops the countdown; resuming finishes it")
    func pauseHolds() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        try await h.playFromStart(h.plainEpisode)
        try await h.engine.handle(.sleep(.after(seconds: 2)))
        try await Task.sleep(for: .milliseconds(500))
        try await h.engine.handle(.pause)
        let held = try #require(await h.engine.state.sleep?.remaining)
        try await Task.sleep(for: .milliseconds(2500))
        let still = try #require(await h.engine.state.sleep, "the timer fired while paused")
        #expect(abs(try #require(await h.engine.snapshot().stateSleep?.remaining) - held) < 0.05)
        #expect(still.remaining == held)
        try await h.engine.handle(.resume)
        #expect(await h.wait(timeout: 4) { $0.paused && $0.sleep == nil }, "it never fired after resuming")
        await h.close()
    }

    @Test("end of episode: the fade runs to the file's end, the next queued episode opens paused, volume back")
    func endOfEpisode() async throws {
        let h = try await ControlsHarness(seconds: 5)
        defer { h.directory.remove() }
        try await h.playFromStart(h.fastEpisodes[0])
        try await h.engine.handle(.queueAdd(episode: h.fastEpisodes[1].id, at: .end))
        try await h.engine.handle(.sleep(.endOfEpisode))
        let status = try #require(await h.engine.state.sleep)
        #expect(status.mode == .episode && (status.remaining ?? 0) > 3.5 && (status.remaining ?? 0) <= 5)

        var lowest = 100.0
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, await h.engine.state.episode?.id == h.fastEpisodes[0].id {
            if let volume = h.mpv("volume") { lowest = min(lowest, volume) }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(lowest < 15, "faded down to \(lowest)")
        #expect(await h.wait { $0.episode?.id == h.fastEpisodes[1].id && !$0.buffering })
        try await Task.sleep(for: .milliseconds(500))
        let state = await h.engine.state
        #expect(state.paused && state.sleep == nil)
        #expect(state.position < 0.5, "the next one waits at its start: \(state.position)")
        #expect(h.engine.player.property("pause") == "yes")
        #expect(h.mpv("volume") == 100)
        #expect(try await h.store.episode(id: h.fastEpisodes[0].id)?.played == true)
        await h.close()
    }

    @Test("end of chapter: pauses where the next chapter starts; an episode without chapters refuses")
    func endOfChapter() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        try await h.playFromStart(h.plainEpisode)
        await #expect(throws: CommandError("this episode has no chapters")) {
            try await h.engine.handle(.sleep(.endOfChapter))
        }
        try await h.playFromStart(h.fastEpisodes[1]) // chapters at 0 and 3 s
        #expect(await h.engine.state.chapters.map(\.start) == [0, 3])
        try await h.engine.handle(.sleep(.endOfChapter))
        let status = try #require(await h.engine.state.sleep)
        #expect(status.mode == .chapter && status.end == 3)
        #expect(await h.wait(timeout: 6) { $0.paused })
        try await Task.sleep(for: .milliseconds(300))
        let position = try #require(h.engine.player.timePosition())
        #expect(position > 2.8 && position < 3.4, "paused at \(position)")
        #expect(await h.engine.state.sleep == nil)
        #expect(h.mpv("volume") == 100)
        await h.close()
    }

    @Test("extend and cancel; stop cancels; errors without a timer or an episode")
    func extendCancel() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        await #expect(throws: CommandError("nothing is playing")) { try await h.engine.handle(.sleep(.endOfEpisode)) }
        await #expect(throws: CommandError("no sleep timer is set")) { try await h.engine.handle(.sleepExtend(seconds: 60)) }
        try await h.playFromStart(h.plainEpisode)
        try await h.engine.handle(.sleep(.after(seconds: 2)))
        try await h.engine.handle(.sleepExtend(seconds: 300))
        let extended = try #require(await h.engine.state.sleep)
        #expect(extended.mode == .minutes && abs((extended.remaining ?? 0) - 302) < 0.2)
        try await Task.sleep(for: .milliseconds(2500))
        #expect(await h.engine.state.paused == false, "the extended timer did not fire at 2 s")
        try await h.engine.handle(.sleepCancel)
        #expect(await h.engine.state.sleep == nil)
        try await h.engine.handle(.sleepCancel) // nothing to cancel: fine
        try await h.engine.handle(.sleep(.endOfEpisode))
        try await h.engine.handle(.stop)
        #expect(await h.engine.state.sleep == nil, "stop cancels the timer")
        #expect(h.states.last?["sleep"] is NSNull)
        await h.close()
    }
}

extension ServerMessage {
    /// The `sleep` of a state message (tests).
    var stateSleep: SleepStatus? {
        if case .state(_, let state) = self { return state.sleep }
        return nil
    }
}
