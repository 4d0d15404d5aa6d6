import EarshotCore
import Foundation
import Testing

/// Speed, volume, skip intervals, per-podcast speed and the sleep timer as commands and settings.
@Suite("Player controls: commands and settings")
struct ControlCommandTests {
    func decode(_ frame: String) -> Result<ClientCommand, CommandError> { ClientCommand.decode(frame).result }

    @Test("speeds land on the 0.05 grid between 0.5 and 3", arguments: [
        (0.5, 0.5), (1.23, 1.25), (1.22, 1.2), (1.15, 1.15), (2.974, 2.95), (2.99, 3), (0.51, 0.5), (1.0, 1.0),
    ])
    func snapping(sent: Double, expected: Double) throws {
        #expect(PlaybackSpeed.snapped(sent) == expected)
        #expect(try decode(#"{"cmd":"rate","value":\#(sent)}"#).get() == .rate(expected))
    }

    @Test("every preset is on the grid and in range")
    func presets() {
        #expect(PlaybackSpeed.presets.allSatisfy { PlaybackSpeed.snapped($0) == $0 && PlaybackSpeed.range.contains($0) })
        #expect(PlaybackSpeed.presets.first == 0.5 && PlaybackSpeed.presets.last == 3 && PlaybackSpeed.presets.contains(1))
    }

    @Test("the control commands decode", arguments: [
        (#"{"cmd":"podcast.speed","podcast":4,"rate":1.5}"#, ClientCommand.podcastSpeed(podcast: 4, rate: 1.5)),
        (#"{"cmd":"podcast.speed","podcast":4,"rate":1.33}"#, .podcastSpeed(podcast: 4, rate: 1.35)),
        (#"{"cmd":"podcast.speed","podcast":4,"rate":null}"#, .podcastSpeed(podcast: 4, rate: nil)),
        (#"{"cmd":"podcast.speed","podcast":4}"#, .podcastSpeed(podcast: 4, rate: nil)),
        (#"{"cmd":"sleep","minutes":30}"#, .sleep(.after(seconds: 1800))),
        (#"{"cmd":"sleep","minutes":0.05}"#, .sleep(.after(seconds: 3))),
        (#"{"cmd":"sleep","until":"episode"}"#, .sleep(.endOfEpisode)),
        (#"{"cmd":"sleep","until":"chapter"}"#, .sleep(.endOfChapter)),
        (#"{"cmd":"sleep.extend","minutes":5}"#, .sleepExtend(seconds: 300)),
        (#"{"cmd":"sleep.cancel"}"#, .sleepCancel),
        (#"{"cmd":"settings","skipBack":10}"#, .settings(.init(skipBack: 10))),
        (#"{"cmd":"settings","skipForward":45,"playedMargin":60}"#, .settings(.init(playedMargin: 60, skipForward: 45))),
        (#"{"cmd":"volume","value":115.5}"#, .volume(115.5)),
    ])
    func decodes(frame: String, expected: ClientCommand) throws {
        #expect(try decode(frame).get() == expected)
    }

    @Test("bad control commands are errors with a reason", arguments: [
        (#"{"cmd":"podcast.speed","rate":1.5}"#, "\"podcast.speed\" needs a podcast id \"podcast\""),
        (#"{"cmd":"podcast.speed","podcast":1.5,"rate":1.5}"#, "\"podcast.speed\" needs a podcast id \"podcast\""),
        (#"{"cmd":"podcast.speed","podcast":4,"rate":4}"#, "rate must be between 0.5 and 3"),
        (#"{"cmd":"podcast.speed","podcast":4,"rate":"fast"}"#, "\"podcast.speed\" needs a number \"rate\""),
        (#"{"cmd":"sleep"}"#, "\"sleep\" needs \"minutes\" or \"until\""),
        (#"{"cmd":"sleep","minutes":0}"#, "\"minutes\" must be more than 0 and at most 720"),
        (#"{"cmd":"sleep","minutes":721}"#, "\"minutes\" must be more than 0 and at most 720"),
        (#"{"cmd":"sleep","until":"dawn"}"#, "\"until\" must be \"episode\" or \"chapter\""),
        (#"{"cmd":"sleep.extend"}"#, "\"sleep.extend\" needs a number \"minutes\""),
        (#"{"cmd":"settings","skipBack":4}"#, "skipBack must be between 5 and 300 seconds"),
        (#"{"cmd":"settings","skipForward":301}"#, "skipForward must be between 5 and 300 seconds"),
        (#"{"cmd":"settings","skipForward":"30"}"#, "\"settings\" needs a number \"skipForward\""),
    ])
    func refuses(frame: String, message: String) {
        #expect(throws: CommandError(message)) { try decode(frame).get() }
    }

    @Test("stored settings: skip intervals and podcast speeds round-trip; nonsense keeps the defaults")
    func stored() throws {
        func decode(_ json: String) throws -> PlaybackSettings {
            try JSONDecoder().decode(PlaybackSettings.self, from: Data(json.utf8))
        }
        let defaults = try decode("{}")
        #expect(defaults.skipBack == 15 && defaults.skipForward == 30 && defaults.podcastSpeeds.isEmpty)
        let chosen = PlaybackSettings(playedMargin: 60, skipBack: 10, skipForward: 45, podcastSpeeds: [7: 1.5, 12: 0.9])
        #expect(try decode(String(decoding: JSONEncoder().encode(chosen), as: UTF8.self)) == chosen)
        let odd = try decode(#"{"skipBack":2,"skipForward":"x","podcastSpeeds":{"7":1.52,"x":2,"-3":2,"9":7}}"#)
        #expect(odd.skipBack == 15 && odd.skipForward == 30)
        #expect(odd.podcastSpeeds == [7: 1.5], "ids must be ids, speeds in range (and on the grid)")
        #expect(try decode(#"{"podcastSpeeds":[1,2]}"#).podcastSpeeds.isEmpty)
        #expect(try PlaybackSettings().applying(.init(skipBack: 10)).skipBack == 10)
        #expect(throws: CommandError("skipBack must be between 5 and 300 seconds")) {
            try PlaybackSettings().applying(.init(playedMargin: 10, skipBack: 1))
        }
    }

    @Test("the state carries skip intervals and podcast speeds (ids as keys)")
    func wire() throws {
        var state = PlaybackState()
        state.settings = PlaybackSettings(skipBack: 10, podcastSpeeds: [3: 1.25])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ServerMessage.state(seq: 1, state).encoded().utf8)) as? [String: Any])
        let settings = try #require(json["settings"] as? [String: Any])
        #expect(settings["skipBack"] as? Double == 10 && settings["skipForward"] as? Double == 30)
        #expect(settings["podcastSpeeds"] as? [String: Double] == ["3": 1.25])
    }

    @Test("an episode starts at its podcast's speed, else at the general one")
    func starting() {
        let settings = PlaybackSettings(podcastSpeeds: [3: 1.5])
        #expect(PlaybackSpeed.starting(podcast: 3, settings: settings, general: 1.2) == 1.5)
        #expect(PlaybackSpeed.starting(podcast: 4, settings: settings, general: 1.2) == 1.2)
    }
}
