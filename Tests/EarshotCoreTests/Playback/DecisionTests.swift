import EarshotCore
import Foundation
import Testing

@Suite("Pure decisions: resume, skip, chapters, display")
struct DecisionTests {
    @Test("resume where the listener left off, unless finished or played")
    func resume() {
        #expect(ResumePoint.start(saved: 125, duration: 600, played: false) == 125)
        #expect(ResumePoint.start(saved: 125, duration: 0, played: false) == 125, "unknown duration still resumes")
        #expect(ResumePoint.start(saved: 597, duration: 600, played: false) == 0, "the last seconds count as finished")
        #expect(ResumePoint.start(saved: 575, duration: 600, played: false) == 0, "so do the last 30 s (the outro)")
        #expect(ResumePoint.start(saved: 565, duration: 600, played: false) == 565)
        #expect(ResumePoint.start(saved: 125, duration: 600, played: true) == 0)
        #expect(ResumePoint.start(saved: 0.5, duration: 600, played: false) == 0)
        #expect(ResumePoint.start(saved: .nan, duration: 600, played: false) == 0)
        #expect(ResumePoint.start(saved: 1.2, duration: 2.5, played: false) == 1.2, "short clips: the last tenth is the end")
        #expect(ResumePoint.start(saved: 2.3, duration: 2.5, played: false) == 0)
        #expect(ResumePoint.isFinished(position: 10, duration: 0) == false, "unknown duration never ends early")
    }

    @Test("skips are clamped to the episode")
    func skip() {
        #expect(ResumePoint.skip(from: 10, by: -15, duration: 600) == 0)
        #expect(ResumePoint.skip(from: 100, by: 15, duration: 600) == 115)
        #expect(ResumePoint.skip(from: 595, by: 15, duration: 600) == 599.75)
        #expect(ResumePoint.skip(from: 595, by: 15, duration: 0) == 610)
    }

    @Test("the chapter a position is in")
    func chapters() {
        let marks = [Chapter(title: "A", start: 0), Chapter(title: "B", start: 30), Chapter(title: "C", start: 90)]
        #expect(PlaybackState.chapterIndex(at: 0, in: marks) == 0)
        #expect(PlaybackState.chapterIndex(at: 29.9, in: marks) == 0)
        #expect(PlaybackState.chapterIndex(at: 30, in: marks) == 1)
        #expect(PlaybackState.chapterIndex(at: 5000, in: marks) == 2)
        #expect(PlaybackState.chapterIndex(at: 10, in: []) == -1)
        #expect(PlaybackState.chapterIndex(at: 1, in: [Chapter(title: "late", start: 5)]) == -1)
    }

    @Test("durations and dates read like a podcast app")
    func display() {
        #expect(DisplayFormat.duration(3754) == "1h 3m")
        #expect(DisplayFormat.duration(3252) == "54m")
        #expect(DisplayFormat.duration(3600) == "1h")
        #expect(DisplayFormat.duration(20) == "<1m")
        #expect(DisplayFormat.duration(0) == "")
        #expect(DisplayFormat.duration(.nan) == "")
        let date = Date(timeIntervalSince1970: 1_773_273_600) // 2026-03-12 00:00 UTC
        #expect(DisplayFormat.date(date) == "12 Mar 2026")
        #expect(DisplayFormat.isoDay(date) == "2026-03-12")
        #expect(DisplayFormat.date(nil) == "")
    }
}
