import EarshotCore
import Foundation
import Testing
import TestSupport

/// The listening log's arithmetic and the statistics made from it (issue 18).
struct ListeningStatsTests {
    @Test("property: what a span saved is what its stretch of the file takes at 1× less the time it took, each cause apart")
    func savings() {
        var random = SplitMix64(seed: 1804)
        for _ in 0..<300 {
            var tally = ListeningTally(span: ListeningSpan(episode: 1, podcast: 2, podcastTitle: "P", startedAt: Date(), from: 0))
            var position = 0.0
            var media = 0.0, wall = 0.0
            var speed = 0.0, silence = 0.0, skips = SavedSeconds()
            for _ in 0..<Int(random.next() % 12 + 1) {
                switch random.next() % 3 {
                case 0: // played at a speed, in a few ticks
                    let rate = [0.75, 1, 1.5, 2, 3][Int(random.next() % 5)]
                    for _ in 0..<Int(random.next() % 4 + 1) {
                        let seconds = Double(random.next() % 40) / 10
                        position += seconds * rate
                        tally.played(wall: seconds, rate: rate, fast: false, position: position)
                        media += seconds * rate; wall += seconds; speed += seconds * (rate - 1)
                    }
                case 1: // a pause played through fast, then its end sought
                    let from = position
                    let fastWall = Double(random.next() % 10) / 10
                    tally.played(wall: fastWall, rate: 1, fast: true, position: position + fastWall * 16)
                    let length = fastWall * 16 + Double(random.next() % 30) / 10
                    position += length
                    tally.silenceSkipped(from: from, to: position)
                    media += length; wall += fastWall; silence += length - fastWall
                default: // a skip
                    let kind = [SkipNotice.Kind.intro, .outro, .chapter][Int(random.next() % 3)]
                    let seconds = Double(random.next() % 600) / 10
                    tally.skipped(kind, seconds)
                    position += seconds
                    media += seconds; skips.add(kind, seconds)
                }
            }
            let span = tally.span
            #expect(abs(span.listened - wall) < 1e-6)
            #expect(abs(span.saved.total - (media - wall)) < 1e-6, "saved \(span.saved.total) ≠ \(media) − \(wall)")
            #expect(abs(span.saved.speed - speed) < 1e-6 && abs(span.saved.silence - silence) < 1e-6)
            #expect(span.saved.intro == skips.intro && span.saved.outro == skips.outro && span.saved.chapters == skips.chapters)
        }
    }

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }()

    /// 2026-12-03 12:00 in Berlin.
    static let now = Date(timeIntervalSince1970: 1_796_295_600)

    static func span(_ episode: Int64, _ podcast: Int64, _ title: String, daysAgo: Double, listened: Double,
                     saved: SavedSeconds = SavedSeconds(), finished: Bool = false) -> ListeningSpan {
        ListeningSpan(episode: episode, podcast: podcast, podcastTitle: title, startedAt: now.addingTimeInterval(-daysAgo * 86_400),
                      listened: listened, from: 0, to: listened, saved: saved, finished: finished)
    }

    @Test("a week: its seven days (zeros too), podcasts most first, episodes finished once, savings summed; older spans left out")
    func week() throws {
        let spans = [
            Self.span(1, 10, "Old title", daysAgo: 6, listened: 600, saved: SavedSeconds(speed: 100)),
            Self.span(1, 10, "Talk Show", daysAgo: 0.1, listened: 300, saved: SavedSeconds(silence: 20, intro: 30), finished: true),
            Self.span(1, 10, "Talk Show", daysAgo: 0.05, listened: 5, finished: true), // the same episode again
            Self.span(2, 11, "News", daysAgo: 2, listened: 1200, saved: SavedSeconds(outro: 15, chapters: 60), finished: true),
            Self.span(3, 12, "Long ago", daysAgo: 8, listened: 9999),
        ]
        let stats = ListeningStats(spans: spans, period: .week, now: Self.now, calendar: Self.calendar)
        #expect(stats.period == "week")
        #expect(stats.listenedSeconds == 2105)
        #expect(stats.finished == 2)
        #expect(stats.savedSeconds == SavedSeconds(speed: 100, silence: 20, intro: 30, outro: 15, chapters: 60))
        #expect(stats.podcasts.map(\.title) == ["News", "Talk Show"], "the newest title a podcast had")
        #expect(stats.podcasts.map(\.listenedSeconds) == [1200, 905])
        #expect(stats.days.map(\.date) == ["2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03"])
        #expect(stats.days.map(\.listenedSeconds) == [600, 0, 0, 0, 1200, 0, 305])
        #expect(stats.months.map(\.month) == ["2026-11", "2026-12"])

        let all = ListeningStats(spans: spans, period: .all, now: Self.now, calendar: Self.calendar)
        #expect(all.listenedSeconds == 12104)
        #expect(all.days.map(\.date) == ["2026-11-25", "2026-11-27", "2026-12-01", "2026-12-03"], "all: only days with listening")
        #expect(ListeningStats(spans: spans, period: .month, now: Self.now, calendar: Self.calendar).days.count == 30)
        let empty = ListeningStats(spans: [], period: .week, now: Self.now, calendar: Self.calendar)
        #expect(empty.listenedSeconds == 0 && empty.podcasts.isEmpty && empty.days.count == 7 && empty.finished == 0)
    }

    @Test("days are the host's: a span just after midnight in Berlin is that day, not UTC's")
    func timeZone() {
        // 2026-12-03 00:30 in Berlin is 2026-12-02 23:30 UTC.
        let span = ListeningSpan(episode: 1, podcast: 1, podcastTitle: "P", startedAt: Date(timeIntervalSince1970: 1_796_254_200),
                                 listened: 60, from: 0)
        let stats = ListeningStats(spans: [span], period: .week, now: Self.now, calendar: Self.calendar)
        #expect(stats.days.last?.date == "2026-12-03" && stats.days.last?.listenedSeconds == 60)
    }
}
