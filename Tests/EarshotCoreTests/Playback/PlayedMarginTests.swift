import EarshotCore
import Foundation
import Testing

/// The played margin: how close to the end counts as the end, chosen by the listener.
@Suite("The played margin")
struct PlayedMarginTests {
    @Test("a wider margin finishes earlier, a narrower one later; the last tenth caps it", arguments: [
        // (margin, position, duration, finished)
        (30.0, 569.0, 600.0, false), (30.0, 570.0, 600.0, true),
        (60.0, 539.0, 600.0, false), (60.0, 540.0, 600.0, true), (60.0, 569.0, 600.0, true),
        (10.0, 589.0, 600.0, false), (10.0, 590.0, 600.0, true), (10.0, 575.0, 600.0, false),
        (0.0, 599.9, 600.0, false), (0.0, 600.0, 600.0, true),
        (600.0, 5400.0, 6000.0, true), (600.0, 5399.0, 6000.0, false), // 10 min of a 100 min episode
        (600.0, 539.0, 600.0, false), (600.0, 540.0, 600.0, true), // a 10 min episode: its last minute
        (120.0, 35.0, 40.0, false), (120.0, 36.0, 40.0, true), // a 40 s clip: its last 4 s
        (300.0, 10.0, 0.0, false), // unknown duration never ends early
    ])
    func finished(margin: Double, position: Double, duration: Double, expected: Bool) {
        #expect(ResumePoint.isFinished(position: position, duration: duration, margin: margin) == expected)
    }

    @Test("where play starts follows the margin")
    func start() {
        #expect(ResumePoint.start(saved: 550, duration: 600, played: false, margin: 30) == 550)
        #expect(ResumePoint.start(saved: 550, duration: 600, played: false, margin: 60) == 0)
        #expect(ResumePoint.start(saved: 595, duration: 600, played: false, margin: 0) == 595)
        #expect(ResumePoint.start(saved: 595, duration: 600, played: true, margin: 0) == 0, "played is from the top")
        #expect(ResumePoint.start(saved: 575, duration: 600, played: false) == 0, "the default margin is 30 s")
        #expect(ResumePoint.start(saved: 565, duration: 600, played: false) == 565)
        #expect(ResumePoint.isFinished(position: 580, duration: 600, margin: .nan), "nonsense falls back to 30 s")
        #expect(!ResumePoint.isFinished(position: 599, duration: 600, margin: -5), "a negative margin is none")
    }

    @Test("the settings command: 0…600 seconds")
    func command() throws {
        #expect(try ClientCommand.decode(#"{"cmd":"settings","playedMargin":45}"#).result.get() == .settings(playedMargin: 45))
        #expect(try ClientCommand.decode(#"{"cmd":"settings","playedMargin":0}"#).result.get() == .settings(playedMargin: 0))
        #expect(try ClientCommand.decode(#"{"cmd":"settings","playedMargin":600}"#).result.get() == .settings(playedMargin: 600))
        for (frame, message) in [
            (#"{"cmd":"settings","playedMargin":601}"#, "playedMargin must be between 0 and 600 seconds"),
            (#"{"cmd":"settings","playedMargin":-1}"#, "playedMargin must be between 0 and 600 seconds"),
            (#"{"cmd":"settings","playedMargin":"30"}"#, "\"settings\" needs a number \"playedMargin\""),
            (#"{"cmd":"settings"}"#, "\"settings\" needs \"playedMargin\", \"skipBack\", \"skipForward\", \"skipSilence\" or \"leveling\""),
        ] {
            #expect(ClientCommand.decode(frame).result == .failure(CommandError(message)), "\(frame)")
        }
    }

    @Test("stored settings: missing or nonsense keys keep the default; the state carries them")
    func stored() throws {
        func decode(_ json: String) throws -> PlaybackSettings {
            try JSONDecoder().decode(PlaybackSettings.self, from: Data(json.utf8))
        }
        #expect(try decode(#"{"playedMargin":90}"#).playedMargin == 90)
        #expect(try decode(#"{}"#).playedMargin == 30)
        #expect(try decode(#"{"playedMargin":9000}"#).playedMargin == 30)
        #expect(try decode(#"{"playedMargin":"soon"}"#).playedMargin == 30)
        var state = PlaybackState()
        state.settings.playedMargin = 75
        let wire = try #require(try JSONSerialization.jsonObject(with: Data(ServerMessage.state(seq: 1, state).encoded().utf8)) as? [String: Any])
        #expect((wire["settings"] as? [String: Any])?["playedMargin"] as? Double == 75)
    }
}
