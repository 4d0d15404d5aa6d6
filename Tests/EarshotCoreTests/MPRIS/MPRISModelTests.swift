import EarshotCore
import Foundation
import Testing
import TestSupport

@Suite("MPRIS: properties, calls and the position clock (pure)")
struct MPRISModelTests {
    static func state(_ random: inout SplitMix64) -> PlaybackState {
        var s = PlaybackState()
        if random.next() % 4 != 0 {
            let id = Int64(random.next() % 50) + 1
            s.episode = NowPlaying(id: id, title: "Episode \(id)", podcast: "Show \(id % 3)", podcastID: id % 3,
                                   artwork: nil, duration: Double(random.next() % 4000))
            s.duration = s.episode!.duration
            s.position = Double(random.next() % 4000)
        }
        s.paused = random.next() % 2 == 0
        s.rate = PlaybackSpeed.presets[Int(random.next() % UInt64(PlaybackSpeed.presets.count))]
        s.volume = Double(random.next() % 131)
        s.muted = random.next() % 5 == 0
        s.shuffle = random.next() % 2 == 0
        s.repeatMode = RepeatMode.allCases[Int(random.next() % 3)]
        s.queue = (0..<Int(random.next() % 3)).map { Int64($0 + 100) }
        return s
    }

    @Test("every property is there, typed as the spec says, and agrees with the state")
    func properties() {
        var random = SplitMix64(seed: 14)
        let types: [String: String] = [
            "PlaybackStatus": "s", "LoopStatus": "s", "Rate": "d", "Shuffle": "b", "Metadata": "a{sv}", "Volume": "d",
            "Position": "x", "MinimumRate": "d", "MaximumRate": "d", "CanGoNext": "b", "CanGoPrevious": "b",
            "CanPlay": "b", "CanPause": "b", "CanSeek": "b", "CanControl": "b",
        ]
        for _ in 0..<500 {
            let s = Self.state(&random)
            let player = MPRISPlayer(state: s, artURL: "file:///art.jpg", mediaURL: "https://example.org/a.mp3")
            let all = player.all(position: player.position)
            #expect(Set(all.keys) == Set(types.keys))
            for (name, type) in types { #expect(all[name]?.signature == type, "\(name)") }
            let status = all["PlaybackStatus"]?.string
            #expect(status == (s.episode == nil ? "Stopped" : s.paused ? "Paused" : "Playing"))
            #expect(MPRISPlayer.repeatMode(all["LoopStatus"]!.string!) == s.repeatMode)
            #expect(all["Volume"] == .double(s.muted ? 0 : s.volume / 100))
            #expect(all["CanGoNext"] == .bool(!s.queue.isEmpty))
            guard case .dictionary(let metadata) = all["Metadata"] else { Issue.record("no metadata"); continue }
            #expect(metadata["mpris:trackid"] == .objectPath(MPRISInterface.trackID(s.episode?.id)))
            if let episode = s.episode {
                #expect(metadata["xesam:title"] == .string(episode.title))
                #expect(metadata["xesam:artist"] == .strings([episode.podcast]))
                #expect(metadata["xesam:album"] == .string(episode.podcast))
                #expect(metadata["mpris:artUrl"] == .string("file:///art.jpg"))
                #expect(metadata["xesam:url"] == .string("https://example.org/a.mp3"))
                #expect(metadata["mpris:length"] == (s.duration > 0 ? .int64(Int64((s.duration * 1e6).rounded())) : nil))
                #expect(all["Position"] == .int64(MPRISPlayer.microseconds(s.position)))
            } else {
                #expect(metadata.count == 1, "no track: the trackid alone")
            }
        }
    }

    @Test("PropertiesChanged carries exactly what differs, never Position")
    func changes() {
        var random = SplitMix64(seed: 41)
        for _ in 0..<500 {
            let a = MPRISPlayer(state: Self.state(&random)), b = MPRISPlayer(state: Self.state(&random))
            let changes = b.changes(since: a)
            #expect(changes["Position"] == nil)
            #expect(b.changes(since: b).isEmpty)
            #expect(b.changes(since: nil) == b.properties)
            var applied = a.properties
            applied.merge(changes) { $1 }
            #expect(applied == b.properties, "applying the changes to the old properties gives the new")
            for (name, value) in changes { #expect(a.properties[name] != value) }
        }
    }

    @Test("a call handler's Pause and the Play after it resume where playback was")
    func callInterruption() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var s = Self.state(&random)
            guard s.episode != nil else { continue }
            s.paused = false
            #expect(MPRISCall.method(MPRISInterface.player, "Pause", [], state: s) == .command(.pause))
            s.paused = true
            #expect(MPRISCall.method(MPRISInterface.player, "Play", [], state: s) == .command(.resume),
                    "resume (mpv kept the position), never a reload from the saved position")
            #expect(MPRISCall.method(MPRISInterface.player, "Pause", [], state: s) == .nothing, "a second Pause does nothing")
            s.paused = false
            #expect(MPRISCall.method(MPRISInterface.player, "Play", [], state: s) == .nothing, "Play while playing does nothing")
        }
    }

    @Test("methods map to the web UI's commands, as the spec says")
    func methods() {
        var s = PlaybackState()
        let player = MPRISInterface.player
        #expect(MPRISCall.method(player, "Play", [], state: s) == .playOn, "nothing loaded or queued: play on from the library")
        #expect(MPRISCall.method(player, "Pause", [], state: s) == .nothing)
        #expect(MPRISCall.method(player, "Stop", [], state: s) == .nothing)
        #expect(MPRISCall.method(player, "Next", [], state: s) == .nothing)
        #expect(MPRISCall.method(player, "Seek", [.int64(5_000_000)], state: s) == .nothing)
        s.queue = [9]
        #expect(MPRISCall.method(player, "Play", [], state: s) == .command(.next), "Up Next starts")
        s.episode = NowPlaying(id: 3, title: "t", podcast: "p", podcastID: 1, artwork: nil, duration: 600)
        s.duration = 600
        s.paused = false
        #expect(MPRISCall.method(player, "PlayPause", [], state: s) == .command(.toggle))
        #expect(MPRISCall.method(player, "Stop", [], state: s) == .command(.stop))
        #expect(MPRISCall.method(player, "Next", [], state: s) == .command(.next))
        #expect(MPRISCall.method(player, "Previous", [], state: s) == .command(.previous))
        #expect(MPRISCall.method(player, "Seek", [.int64(-15_000_000)], state: s) == .command(.skip(by: -15)))
        let track = DBusValue.objectPath("/org/earshot/episode/3")
        #expect(MPRISCall.method(player, "SetPosition", [track, .int64(120_000_000)], state: s) == .command(.seek(to: 120)))
        #expect(MPRISCall.method(player, "SetPosition", [.objectPath("/org/earshot/episode/4"), .int64(1)], state: s) == .nothing,
                "a stale track id is ignored")
        #expect(MPRISCall.method(player, "SetPosition", [track, .int64(601_000_000)], state: s) == .nothing, "past the end: ignored")
        #expect(MPRISCall.method(player, "SetPosition", [track, .int64(-1)], state: s) == .nothing)
        #expect(MPRISCall.method(player, "OpenUri", [.string("https://example.org/feed.xml")], state: s) == .open("https://example.org/feed.xml"))
        if case .refuse = MPRISCall.method(player, "OpenUri", [.string("file:///etc/passwd")], state: s) {} else {
            Issue.record("a file: address must be refused (SupportedUriSchemes are http and https)")
        }
        if case .refuse = MPRISCall.method(player, "Seek", [.string("x")], state: s) {} else { Issue.record("bad Seek argument") }
        #expect(MPRISCall.method(MPRISInterface.root, "Raise", [], state: s) == .nothing)
        #expect(MPRISCall.method(MPRISInterface.root, "Quit", [], state: s) == .nothing)
    }

    @Test("property writes: rate clamped to the speed grid, 0 pauses; volume; shuffle; loop")
    func writes() {
        var s = PlaybackState()
        s.episode = NowPlaying(id: 1, title: "t", podcast: "p", podcastID: 1, artwork: nil, duration: 60)
        s.paused = false
        #expect(MPRISCall.set("Rate", .double(1.5), state: s) == .command(.rate(1.5)))
        #expect(MPRISCall.set("Rate", .double(9), state: s) == .command(.rate(PlaybackSpeed.range.upperBound)))
        #expect(MPRISCall.set("Rate", .double(0), state: s) == .command(.pause))
        #expect(MPRISCall.set("Volume", .double(0.5), state: s) == .command(.volume(50)))
        #expect(MPRISCall.set("Volume", .double(-1), state: s) == .command(.volume(0)))
        #expect(MPRISCall.set("Shuffle", .bool(true), state: s) == .command(.shuffle(true)))
        #expect(MPRISCall.set("LoopStatus", .string("Playlist"), state: s) == .command(.repeatMode(.all)))
        if case .refuse = MPRISCall.set("LoopStatus", .string("Sometimes"), state: s) {} else { Issue.record("bad LoopStatus") }
        if case .refuse = MPRISCall.set("Metadata", .string("x"), state: s) {} else { Issue.record("Metadata is read-only") }
    }

    @Test("the clock moves on while playing, stands still paused, and tells seeks from time passing")
    func clock() {
        var random = SplitMix64(seed: 3)
        var clock = MPRISClock()
        var now = 100.0, position = 0.0
        #expect(clock.update(episode: 1, position: 0, rate: 2, playing: true, at: now) == nil, "a new episode is not a seek")
        for _ in 0..<300 {
            let step = Double(random.next() % 1300) / 1000 // reports up to 1.3 s apart (a late tick)
            now += step
            position += step * 2
            #expect(abs(clock.position(at: now) - position) < 1e-9)
            #expect(clock.update(episode: 1, position: position, rate: 2, playing: true, at: now) == nil, "time passing")
        }
        #expect(clock.update(episode: 1, position: position + 30, rate: 2, playing: true, at: now) == position + 30)
        #expect(clock.update(episode: 1, position: 5, rate: 2, playing: false, at: now + 1) == 5, "a jump back")
        #expect(clock.position(at: now + 50) == 5, "paused: it stands")
        #expect(clock.update(episode: 2, position: 900, rate: 1, playing: true, at: now + 51) == nil, "another episode")
    }
}
