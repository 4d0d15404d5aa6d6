import EarshotCore
import Foundation
import Testing

/// The sleep timer's decisions, on a clock the test turns by hand.
@Suite("The sleep timer")
struct SleepTimerTests {
    /// A 30-minute episode playing at 1× from 100 s, at t = 1000 on the monotonic clock.
    static func moment(now: Double = 1000, playing: Bool = true, position: Double = 100, duration: Double = 1800,
                       rate: Double = 1, chapters: [Chapter] = []) -> SleepTimer.Moment {
        SleepTimer.Moment(now: now, playing: playing, position: position, duration: duration, rate: rate, chapters: chapters)
    }

    @Test("minutes: waits, fades over the last 10 s, then fires")
    func minutes() throws {
        var timer = try #require(SleepTimer(.after(seconds: 300), at: Self.moment()))
        #expect(timer.mode == .minutes)
        #expect(timer.decide(Self.moment()) == .wait(seconds: 290))
        var at = Self.moment(now: 1200)
        timer.account(at)
        #expect(timer.remaining(at: at) == 100)
        #expect(timer.decide(at) == .wait(seconds: 90))
        at.now = 1292.5
        timer.account(at)
        #expect(timer.decide(at) == .fade(level: 0.75))
        at.now = 1299
        #expect(timer.decide(at) == .fade(level: 0.1), "without account: remaining comes from the clock")
        at.now = 1300
        timer.account(at)
        #expect(timer.decide(at) == .fire)
        at.now = 1400
        #expect(timer.remaining(at: at) == 0, "never below zero")
    }

    @Test("a pause stops the clock; speed does not change minutes of listening")
    func pauses() throws {
        var timer = try #require(SleepTimer(.after(seconds: 60), at: Self.moment()))
        timer.account(Self.moment(now: 1020, playing: false)) // played 20 s, then paused
        #expect(timer.remaining(at: Self.moment(now: 1500, playing: false)) == 40)
        timer.account(Self.moment(now: 1500, playing: true)) // paused until now: nothing counted
        #expect(timer.remaining(at: Self.moment(now: 1510, rate: 3)) == 30)
        #expect(timer.status(at: Self.moment(now: 1510)) == SleepStatus(mode: .minutes, remaining: 30, end: nil, fade: 10))
    }

    @Test("a timer shorter than the fade fades over its whole length, from full volume")
    func shortTimer() throws {
        let timer = try #require(SleepTimer(.after(seconds: 3), at: Self.moment()))
        #expect(timer.fade == 3)
        #expect(timer.decide(Self.moment(now: 1000)) == .wait(seconds: 0))
        #expect(timer.decide(Self.moment(now: 1001.5)) == .fade(level: 0.5))
        #expect(timer.decide(Self.moment(now: 1003)) == .fire)
    }

    @Test("end of episode: counts in media time over the speed, fades, and leaves the firing to the file's end")
    func episode() throws {
        let timer = try #require(SleepTimer(.endOfEpisode, at: Self.moment()))
        #expect(timer.endsWithEpisode)
        #expect(timer.remaining(at: Self.moment(position: 1700, rate: 2)) == 50)
        #expect(timer.decide(Self.moment(position: 1700, rate: 2)) == .wait(seconds: 40))
        #expect(timer.decide(Self.moment(position: 1795)) == .fade(level: 0.5))
        #expect(timer.decide(Self.moment(position: 1800)) == .fade(level: 0), "silent at the end; the engine fires on end of file")
        #expect(timer.remaining(at: Self.moment(duration: 0)) == nil, "an unknown length is unknown")
        #expect(timer.decide(Self.moment(duration: 0)) == .wait(seconds: 1))
        #expect(timer.extended(by: 60, at: Self.moment(duration: 0)) == nil)
    }

    static let chapters = [Chapter(title: "One", start: 0), Chapter(title: "Two", start: 600), Chapter(title: "Three", start: 1200)]

    @Test("end of chapter: the chapter playing ends at the next one's start; the last one is the episode's end")
    func chapter() throws {
        #expect(SleepTimer(.endOfChapter, at: Self.moment()) == nil, "no chapters, no chapter timer")
        var timer = try #require(SleepTimer(.endOfChapter, at: Self.moment(chapters: Self.chapters)))
        #expect(timer.mode == .chapter && timer.end == 600 && !timer.endsWithEpisode)
        #expect(timer.decide(Self.moment(position: 595, chapters: Self.chapters)) == .fade(level: 0.5))
        // Playback runs a little past the boundary before the engine looks: it fires, it does not move on.
        var at = Self.moment(position: 600.2, chapters: Self.chapters)
        timer.account(at)
        #expect(timer.end == 600)
        #expect(timer.decide(at) == .fire)

        // A seek into the third chapter follows the listener: now it is the episode's end.
        at.position = 1300
        timer.account(at)
        #expect(timer.end == nil && timer.endsWithEpisode)
        #expect(timer.status(at: at) == SleepStatus(mode: .chapter, remaining: 500, end: nil, fade: 10))
        // A seek back into the first chapter, and a new list of chapters, retarget too.
        at.position = 10
        timer.account(at)
        #expect(timer.end == 600)
        at.chapters = [Chapter(title: "Intro", start: 0), Chapter(title: "Talk", start: 30)]
        timer.account(at)
        #expect(timer.end == 30)
        // Before the first chapter: the stretch up to it counts as one.
        let early = try #require(SleepTimer(.endOfChapter, at: Self.moment(position: 5, chapters: [Chapter(title: "Late", start: 20)])))
        #expect(early.end == 20)
    }

    @Test("extend: any mode becomes minutes left plus the extra; capped at 12 hours")
    func extend() throws {
        var timer = try #require(SleepTimer(.after(seconds: 60), at: Self.moment()))
        let at = Self.moment(now: 1055)
        timer.account(at)
        #expect(timer.decide(at) == .fade(level: 0.5))
        let longer = try #require(timer.extended(by: 300, at: at))
        #expect(longer.remaining(at: at) == 305)
        #expect(longer.decide(at) == .wait(seconds: 295), "loud again")
        let chapter = try #require(SleepTimer(.endOfChapter, at: Self.moment(chapters: Self.chapters)))
        let fromChapter = try #require(chapter.extended(by: 120, at: Self.moment(position: 500, rate: 2, chapters: Self.chapters)))
        #expect(fromChapter.mode == .minutes && fromChapter.end == nil)
        #expect(fromChapter.remaining(at: Self.moment()) == 170, "50 s of the chapter at 2× plus 2 min")
        #expect(try #require(timer.extended(by: 1e9, at: at)).remaining(at: at) == SleepTimer.maxSeconds)
    }

    @Test("the wire: mode, remaining, end and fade; null remaining when unknown")
    func wire() throws {
        var state = PlaybackState()
        #expect(ServerMessage.state(seq: 1, state).encoded().contains(#""sleep":null"#))
        state.sleep = SleepStatus(mode: .chapter, remaining: 12.5, end: 600, fade: 10)
        #expect(ServerMessage.state(seq: 1, state).encoded().contains(#""sleep":{"end":600,"fade":10,"mode":"chapter","remaining":12.5}"#))
        state.sleep = SleepStatus(mode: .episode, remaining: nil, end: nil, fade: 10)
        #expect(ServerMessage.state(seq: 1, state).encoded().contains(#""sleep":{"end":null,"fade":10,"mode":"episode","remaining":null}"#))
    }
}
