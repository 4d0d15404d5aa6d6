import Foundation
import Testing
import EarshotCore
import TestSupport

/// The periodic refresh's timing, as a pure value: no clocks, no sleeping.
@Suite("Refresh schedule")
struct RefreshScheduleTests {
    @Test("six hours ± 10 % by default; the ends and the middle of the random range map where they should")
    func defaults() {
        let schedule = RefreshSchedule()
        #expect(schedule.interval == 21_600 && schedule.jitter == 0.1)
        #expect(schedule.range == 19_440...23_760)
        #expect(schedule.delay(unit: 0) == 19_440)
        #expect(schedule.delay(unit: 0.5) == 21_600)
        #expect(schedule.delay(unit: 1) == 23_760)
        #expect(schedule.delay(unit: 0.25) == 20_520)
        #expect(schedule.delay(unit: -3) == 19_440 && schedule.delay(unit: 7) == 23_760 && schedule.delay(unit: .nan) == 21_600)
    }

    @Test("random delays stay within the jitter, spread over both sides, and average the interval")
    func spread() {
        let schedule = RefreshSchedule(interval: 3_600, jitter: 0.1)
        var generator = SplitMix64(seed: 42)
        let delays = (0..<2_000).map { _ in schedule.nextDelay(using: &generator) }
        #expect(delays.allSatisfy { schedule.range.contains($0) })
        #expect(delays.contains { $0 < 3_300 } && delays.contains { $0 > 3_900 }, "both ends are reached")
        let mean = delays.reduce(0, +) / Double(delays.count)
        #expect(abs(mean - 3_600) < 20, "mean \(mean)")
        #expect(Set(delays).count > 1_900, "not the same few values")
    }

    @Test("no jitter is exactly the interval; nonsense is clamped")
    func edges() {
        var generator = SplitMix64(seed: 7)
        let exact = RefreshSchedule(interval: 600, jitter: 0)
        #expect((0..<10).allSatisfy { _ in exact.nextDelay(using: &generator) == 600 })
        #expect(RefreshSchedule(interval: 1).interval == RefreshSchedule.minimumInterval)
        #expect(RefreshSchedule(interval: 600, jitter: 5).jitter < 1)
        #expect(RefreshSchedule(interval: 600, jitter: -1).jitter == 0)
    }

    @Test("--refresh-interval HOURS: numbers of hours, 0 or off for never, errors for the rest")
    func parsing() throws {
        #expect(try RefreshSchedule.parse(hours: "6") == RefreshSchedule(interval: 21_600))
        #expect(try RefreshSchedule.parse(hours: " 0.5 ") == RefreshSchedule(interval: 1_800))
        #expect(try RefreshSchedule.parse(hours: "24") == RefreshSchedule(interval: 86_400))
        #expect(try RefreshSchedule.parse(hours: "0") == nil)
        #expect(try RefreshSchedule.parse(hours: "off") == nil)
        #expect(try RefreshSchedule.parse(hours: "OFF") == nil)
        for bad in ["", "six", "-1", "nan", "inf", "1h", "0.001"] {
            #expect(throws: RefreshScheduleError.self, "\(bad)") { try RefreshSchedule.parse(hours: bad) }
        }
    }
}
