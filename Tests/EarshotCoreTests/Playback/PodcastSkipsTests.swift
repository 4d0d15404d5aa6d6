import EarshotCore
import Foundation
import Testing
import TestSupport

/// A podcast's skips as pure decisions: where an episode starts, when its outro ends it, which
/// chapters are skipped and where playing goes on.
@Suite("A podcast's skips")
struct PodcastSkipsTests {
    @Test("an episode starting inside the intro starts after it; one resumed past it stays; too short: whole", arguments: [
        // (intro, outro, start, duration, expected start)
        (45.0, 0.0, 0.0, 3600.0, 45.0), (45.0, 0.0, 12.0, 3600.0, 45.0), (45.0, 0.0, 45.0, 3600.0, 45.0),
        (45.0, 0.0, 600.0, 3600.0, 600.0), (0.0, 0.0, 0.0, 3600.0, 0.0),
        (45.0, 0.0, 0.0, 50.0, 0.0),   // a 50 s trailer: 45 s of intro would leave 5 s
        (45.0, 30.0, 0.0, 80.0, 0.0),  // intro and outro would leave 5 s
        (45.0, 30.0, 0.0, 90.0, 45.0),
        (45.0, 0.0, 0.0, 0.0, 45.0),   // duration unknown until the file opens: the intro acts
    ])
    func start(intro: Double, outro: Double, start: Double, duration: Double, expected: Double) {
        #expect(PodcastSkips(introSkip: intro, outroSkip: outro).start(from: start, duration: duration) == expected)
    }

    @Test("the outro is reached in the last N seconds of an episode long enough; never with an unknown duration")
    func outro() {
        let skips = PodcastSkips(outroSkip: 60)
        #expect(!skips.reachedOutro(position: 3539, duration: 3600))
        #expect(skips.reachedOutro(position: 3540, duration: 3600))
        #expect(!skips.reachedOutro(position: 3540, duration: 0))
        #expect(!skips.reachedOutro(position: 60, duration: 65)) // it would leave 5 s
        #expect(!PodcastSkips().reachedOutro(position: 3599, duration: 3600))
    }

    @Test("chapter words match whole words and runs of them, in any case")
    func words() {
        let skips = PodcastSkips(skipChapters: ["Ad", "sponsor", "Housekeeping notes"])
        for title in ["Ad break", "AD", "Our sponsor: Acme", "SPONSOR", "A word from our Sponsor!", "Housekeeping Notes & mail"] {
            #expect(skips.skipsChapter(titled: title), "\(title)")
        }
        for title in ["Adventures", "Sponsored content", "Notes on housekeeping", "", "Intro"] {
            #expect(!skips.skipsChapter(titled: title), "\(title)")
        }
        #expect(!PodcastSkips().skipsChapter(titled: "Ad"))
    }

    @Test("property: a skipped chapter goes on at the next chapter kept, the end (nil) when none is")
    func targets() {
        var random = SplitMix64(seed: 18)
        for _ in 0..<500 {
            let count = Int(random.next() % 8) + 1
            let titles = (0..<count).map { _ in random.next() % 3 == 0 ? "Ad break" : "Talk" }
            let chapters = titles.enumerated().map { Chapter(title: $1, start: Double($0) * 60) }
            let skips = PodcastSkips(skipChapters: ["ad"])
            for index in chapters.indices {
                let target = skips.skipTarget(from: index, in: chapters)
                let kept = chapters.indices.first { $0 > index && chapters[$0].title == "Talk" }
                #expect(target == kept.map { chapters[$0].start }, "\(titles) from \(index)")
            }
        }
    }

    @Test("changes: out of range refuses all, words trimmed and kept once, keys left out stay")
    func applying() throws {
        let base = PodcastSkips(introSkip: 30, outroSkip: 20, skipChapters: ["Ad"])
        #expect(try base.applying(.init(introSkip: 45.4)) == PodcastSkips(introSkip: 45, outroSkip: 20, skipChapters: ["Ad"]))
        #expect(try base.applying(.init(skipChapters: [" Sponsor ", "sponsor", "", "Ad"])).skipChapters == ["Sponsor", "Ad"])
        #expect(try base.applying(.init(introSkip: 0, outroSkip: 0, skipChapters: [])).isEmpty)
        #expect(throws: CommandError("introSkip must be between 0 and 600 seconds")) { try base.applying(.init(introSkip: 601)) }
        #expect(throws: CommandError("outroSkip must be between 0 and 600 seconds")) { try base.applying(.init(outroSkip: -1)) }
        #expect(throws: CommandError("\"!!\" has no letters or digits to match")) { try base.applying(.init(skipChapters: ["!!"])) }
        #expect(throws: CommandError("at most 20 chapter words")) { try base.applying(.init(skipChapters: (0..<21).map { "w\($0)" })) }
    }

    @Test("stored settings: a podcast's skips round-trip; nonsense entries are dropped, not fatal")
    func stored() throws {
        var settings = PlaybackSettings()
        settings.podcasts = [7: PodcastSkips(introSkip: 45, outroSkip: 0, skipChapters: ["Ad"])]
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(PlaybackSettings.self, from: data).podcasts == settings.podcasts)
        let odd = #"{"podcasts": {"7": {"introSkip": 9999, "outroSkip": 30, "skipChapters": ["!!", "Ad"]}, "x": {"introSkip": 5}, "8": {}}}"#
        let read = try JSONDecoder().decode(PlaybackSettings.self, from: Data(odd.utf8))
        #expect(read.podcasts == [7: PodcastSkips(introSkip: 0, outroSkip: 30, skipChapters: ["Ad"])])
    }
}
