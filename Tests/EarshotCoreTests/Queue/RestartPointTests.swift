import EarshotCore
import Testing
import TestSupport

/// `previous` within an episode: back to where this listening began, then to 0 on a quick second press.
@Suite struct RestartPointTests {
    @Test func aFreshStartRestartsAtZero() {
        var point = RestartPoint(resumedAt: 0)
        #expect(point.press(position: 600, chapterStarts: [], now: 100) == 0)
    }

    @Test func aResumedEpisodeGoesBackToItsResumePointThenToZero() {
        var point = RestartPoint(resumedAt: 2400)
        #expect(point.press(position: 2460, chapterStarts: [], now: 100) == 2400)
        #expect(point.press(position: 2400, chapterStarts: [], now: 102.5) == 0, "within 3 s")
    }

    @Test func withChaptersTheFirstPressGoesToTheResumePointsChapter() {
        var point = RestartPoint(resumedAt: 1300)
        #expect(point.press(position: 1500, chapterStarts: [0, 600, 1200, 1800], now: 10) == 1200)
        var early = RestartPoint(resumedAt: 300)
        #expect(early.press(position: 500, chapterStarts: [400, 900], now: 10) == 0, "resumed before the first chapter")
    }

    @Test func pressesFarApartEachGoBackToTheResumePoint() {
        var point = RestartPoint(resumedAt: 900)
        #expect(point.press(position: 1000, chapterStarts: [], now: 10) == 900)
        #expect(point.press(position: 960, chapterStarts: [], now: 70) == 900, "a minute later: the resume point again")
    }

    @Test("property: the target is never ahead of the position, and a quick second press is always 0")
    func properties() {
        var generator = SplitMix64(seed: 15)
        for _ in 0..<2000 {
            let resumed = Double(generator.next() % 4000)
            let position = Double(generator.next() % 4000) + 3.01
            let chapters = (0..<Int(generator.next() % 5)).map { _ in Double(generator.next() % 4000) }.sorted()
            var point = RestartPoint(resumedAt: resumed)
            let first = point.press(position: position, chapterStarts: chapters, now: 50)
            #expect(first <= position && first >= 0)
            #expect(first == 0 || first == resumed || chapters.contains(first))
            #expect(point.press(position: first + 1, chapterStarts: chapters, now: 50 + Double(generator.next() % 300) / 100) == 0)
        }
    }
}
