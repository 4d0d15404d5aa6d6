import EarshotCore
import Foundation
import Testing
import TestSupport

/// Skip silence's decisions, the filter chain and their settings (issue 18).
struct ListeningTests {
    /// mpv's `af-metadata/silence` as it goes: each key keeps its last value.
    struct Detector {
        var start: Double?
        var end: Double?
    }

    @Test("property: a pause speeds up once and resumes once, before its end and never before where it sped up; old reports do nothing")
    func pauses() {
        var random = SplitMix64(seed: 1801)
        for _ in 0..<300 {
            let level = [SilenceSkipping.mild, .medium, .strong][Int(random.next() % 3)]
            var run = SilenceRun()
            var detector = Detector()
            var position = 0.0
            run.restart(at: 0)
            for _ in 0..<Int(random.next() % 6 + 1) {
                position += Double(random.next() % 100) / 10 + 0.5
                let start = position
                let length = level.minimum + Double(random.next() % 50) / 10
                detector.start = start
                // Found `minimum` after it began: fast from there.
                #expect(run.report(start: detector.start, end: detector.end, level: level) == .speedUp)
                #expect(run.isFast)
                // The same report again (mpv repeats itself after a seek) changes nothing.
                #expect(run.report(start: detector.start, end: detector.end, level: level) == nil)
                detector.end = start + length
                guard case .resume(let target, let end, let from)? = run.report(start: detector.start, end: detector.end, level: level) else {
                    Issue.record("no resume at the end of the pause \(start)…\(start + length)"); return
                }
                #expect(!run.isFast)
                #expect(end == start + length && from == start + level.minimum)
                #expect(target <= end && target >= from && (target == from || abs(end - target - level.keep) < 1e-9))
                // Landing inside the pause, the detector finds "a pause" there: it is the old one.
                detector.start = target
                #expect(run.report(start: detector.start, end: detector.end, level: level) == nil)
                position = start + length
            }
        }
    }

    @Test("after a restart, reports from before it do nothing; skip silence off never acts")
    func restarts() {
        var run = SilenceRun()
        #expect(run.report(start: 10, end: nil, level: .medium) == .speedUp)
        run.restart(at: 40) // the listener sought ahead: at the listener's speed
        #expect(!run.isFast)
        #expect(run.report(start: 10, end: nil, level: .medium) == nil)
        #expect(run.report(start: 12, end: nil, level: .medium) == nil, "a pause before where playing restarted")
        #expect(run.report(start: 45, end: 13, level: .medium) == .speedUp, "a new pause after it")
        var off = SilenceRun()
        #expect(off.report(start: 3, end: nil, level: .off) == nil)
        var quick = SilenceRun()
        #expect(quick.report(start: 3, end: 3.4, level: .strong) == nil, "a pause already over when first reported")
    }

    @Test("the chain: the detector hears the file first, leveling next, scaletempo2 last; a measured gain replaces loudnorm")
    func chain() {
        #expect(AudioFilterChain().mpvValue == "@tempo:scaletempo2")
        let both = AudioFilterChain(skipSilence: .strong, leveling: .normalize).mpvValue
        #expect(both == "@silence:lavfi=[silencedetect=n=-40dB:d=0.25],@level:lavfi=[loudnorm=I=-16:TP=-1.5:LRA=11],@tempo:scaletempo2")
        let boost = AudioFilterChain(leveling: .boost, gain: 6.5).mpvValue
        #expect(boost == "@level:lavfi=[speechnorm=e=6:r=0.0005:l=1,volume=6.5dB],@tempo:scaletempo2")
        for level in SilenceSkipping.allCases where level != .off {
            #expect(level.keep < level.minimum + 0.5 && level.keep > 0 && level.threshold < -30)
        }
    }

    @Test("a fixed gain reaches the target, held under the peak ceiling and within ±20 dB")
    func gains() {
        #expect(Leveling.normalize.gain(loudness: -30, peak: -20) == 14)
        #expect(Leveling.normalize.gain(loudness: -30, peak: -6) == 5, "the peak holds it to −1 dBTP")
        #expect(Leveling.boost.gain(loudness: -10, peak: -2) == -4)
        #expect(Leveling.normalize.gain(loudness: -60, peak: -50) == 20)
        #expect(Leveling.normalize.gain(loudness: -.infinity, peak: -.infinity) == nil, "digital silence has no loudness")
        #expect(Leveling.off.gain(loudness: -30, peak: -20) == nil)
    }

    @Test("settings: a podcast's own choice wins, the default otherwise; stored and read back, unknown names dropped")
    func settings() throws {
        var settings = PlaybackSettings()
        settings.skipSilence = .mild
        settings.leveling = .normalize
        settings.podcasts = [7: PodcastSkips(skipSilence: .off, leveling: .boost)]
        #expect(settings.filters(for: 7) == AudioFilterChain(skipSilence: .off, leveling: .boost))
        #expect(settings.filters(for: 8, measured: Loudness(integrated: -19, truePeak: -6))
            == AudioFilterChain(skipSilence: .mild, leveling: .normalize, gain: 3))
        #expect(settings.filters(for: 7, measured: Loudness(integrated: -19, truePeak: -6))
            == AudioFilterChain(skipSilence: .off, leveling: .boost, gain: 5), "boost aims at −14, the peak allows +5")
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(PlaybackSettings.self, from: data) == settings)
        let odd = #"{"skipSilence": "loud", "leveling": 3, "podcasts": {"7": {"skipSilence": "huge", "leveling": "boost"}}}"#
        let read = try JSONDecoder().decode(PlaybackSettings.self, from: Data(odd.utf8))
        #expect(read.skipSilence == .off && read.leveling == .off)
        #expect(read.podcasts == [7: PodcastSkips(leveling: .boost)])
        let cleared = try PodcastSkips(skipSilence: .strong).applying(.init(skipSilence: .some(nil)))
        #expect(cleared.isEmpty, "back to the default: nothing of its own is kept")
    }

    @Test("on the wire: names, \"default\" and null for a podcast; anything else is an error naming the choices")
    func wire() {
        #expect(ClientCommand.decode(#"{"cmd":"settings","skipSilence":"medium"}"#).result == .success(.settings(.init(skipSilence: .medium))))
        #expect(ClientCommand.decode(#"{"cmd":"settings","leveling":"boost"}"#).result == .success(.settings(.init(leveling: .boost))))
        #expect(ClientCommand.decode(#"{"cmd":"podcast.settings","podcast":3,"skipSilence":"default"}"#).result
            == .success(.podcastSettings(podcast: 3, .init(skipSilence: .some(nil)))))
        #expect(ClientCommand.decode(#"{"cmd":"podcast.settings","podcast":3,"leveling":null}"#).result
            == .success(.podcastSettings(podcast: 3, .init(leveling: .some(nil)))))
        #expect(ClientCommand.decode(#"{"cmd":"settings","skipSilence":"default"}"#).result
            == .failure(CommandError(#""skipSilence" must be one of "off", "mild", "medium", "strong""#)))
        #expect(ClientCommand.decode(#"{"cmd":"podcast.settings","podcast":3,"leveling":"loud"}"#).result
            == .failure(CommandError(#""leveling" must be one of "off", "normalize", "boost", "default""#)))
    }
}
