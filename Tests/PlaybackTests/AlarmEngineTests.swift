import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// A clock a test moves by hand.
final class HandClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: Date
    init(_ now: Date) { self.now = now }
    func read() -> Date { lock.withLock { now } }
    func set(_ date: Date) { lock.withLock { now = date } }
}

/// The alarm on real mpv (`ao=null`) under a clock the test moves: it rings at its time with the
/// newest unplayed episode of its podcast, from silence, the volume rising; it is kept for the
/// next run; cancelling it gives the volume back.
@Suite("The alarm on real mpv", .serialized)
struct AlarmEngineTests {
    @Test("rings at 07:00 with the newest unplayed episode, silent at first and rising; kept across a restart; cancelled")
    func rings() async throws {
        let calendar = Calendar.current
        let today = calendar.startOfDay(for: Date())
        let weekday = Alarm.isoWeekday(calendar.component(.weekday, from: today))
        let before = calendar.date(bySettingHour: 6, minute: 59, second: 58, of: today)!
        let clock = HandClock(before)
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let h = try await ControlsHarness(seconds: 120, directory: directory, clock: { clock.read() })
        try await h.engine.handle(.alarmSet(try Alarm(time: "07:00", days: [weekday], podcasts: [h.fast.id])))
        let status = try #require(await h.engine.state.alarm)
        #expect(status.time == "07:00" && status.days == [weekday] && status.podcasts == [h.fast.id] && !status.ringing)
        #expect(status.next == calendar.date(bySettingHour: 7, minute: 0, second: 0, of: today)!.timeIntervalSince1970)
        try await Task.sleep(for: .seconds(1))
        #expect(await h.engine.state.episode == nil, "not before its time")

        clock.set(before.addingTimeInterval(3))
        #expect(await h.wait(timeout: 5) { $0.episode?.id == h.fastEpisodes[0].id && !$0.paused && $0.alarm?.ringing == true },
                "the newest unplayed episode plays, ringing")
        let early = h.mpv("volume") ?? -1
        #expect(early < 3, "silent at first: mpv at \(early) %")
        #expect(await h.engine.state.volume == 100, "the listener's volume stays the state's")
        try await Task.sleep(for: .seconds(3))
        let later = h.mpv("volume") ?? -1
        #expect(later > early + 2 && later < 15, "rising by about 1.7 % a second: \(early) → \(later)")
        #expect(await h.engine.state.alarm?.next == calendar.date(bySettingHour: 7, minute: 0, second: 0,
                                                                     of: calendar.date(byAdding: .day, value: 7, to: today)!)!.timeIntervalSince1970,
                "next week's")
        await h.close()

        // Kept: the next run shows it, not ringing.
        let again = try await ControlsHarness(seconds: 120, directory: directory, clock: { clock.read() })
        #expect(await again.engine.state.alarm?.time == "07:00")
        #expect(await again.engine.state.alarm?.ringing == false)
        try await again.engine.handle(.alarmCancel)
        #expect(await again.engine.state.alarm == nil)
        await again.close()
        let third = try await ControlsHarness(seconds: 120, directory: directory, clock: { clock.read() })
        #expect(await third.engine.state.alarm == nil, "cancelled for good")
        await #expect(throws: CommandError("no podcast with id 999")) {
            try await third.engine.handle(.alarmSet(try Alarm(time: "07:00", days: [1], podcasts: [999])))
        }
        await third.close()
    }

    @Test("a pause while it rises gives the listener's volume back at once")
    func pauseStopsTheRamp() async throws {
        let calendar = Calendar.current
        let today = calendar.startOfDay(for: Date())
        let weekday = Alarm.isoWeekday(calendar.component(.weekday, from: today))
        let clock = HandClock(calendar.date(bySettingHour: 5, minute: 59, second: 59, of: today)!)
        let h = try await ControlsHarness(seconds: 120, clock: { clock.read() })
        defer { h.directory.remove() }
        try await h.engine.handle(.queueAdd(episode: h.plainEpisode.id, at: .end))
        try await h.engine.handle(.alarmSet(try Alarm(time: "06:00", days: [weekday], podcasts: nil)))
        clock.set(clock.read().addingTimeInterval(2))
        #expect(await h.wait(timeout: 5) { $0.episode?.id == h.plainEpisode.id && $0.alarm?.ringing == true }, "Up Next plays")
        try await h.engine.handle(.pause)
        #expect(await h.wait(timeout: 2) { $0.alarm?.ringing == false })
        #expect((h.mpv("volume") ?? 0) > 99, "the listener's volume back")
        await h.close()
    }
}
