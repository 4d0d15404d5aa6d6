import Foundation
@testable import Playback
import TestSupport
import Testing
@testable import Web

/// Speed, volume, per-podcast speed, skip intervals and the sleep timer over the real socket.
@Suite("Player controls over the socket", .serialized)
struct ControlsSocketTests {
    @Test("sleep: every client sees the countdown and the end; a client that connects late gets it as of now")
    func sleepEverywhere() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()
            try await a.send(#"{"id":1,"cmd":"play","episode":\#(h.episodes[0].id)}"#)
            _ = try await b.receive { $0["type"] as? String == "state" && $0["buffering"] as? Bool == false }
            try await a.send(#"{"id":2,"cmd":"sleep","minutes":0.05}"#) // 3 s
            _ = try await a.receive { $0["type"] as? String == "ack" && $0["id"] as? Int == 2 }
            let counting = try await b.receive { $0["type"] as? String == "state" && !($0["sleep"] is NSNull) }
            let sleep = try #require(counting["sleep"] as? [String: Any])
            #expect(sleep["mode"] as? String == "minutes")
            let remaining = try #require(sleep["remaining"] as? Double)
            #expect(remaining > 2.5 && remaining <= 3)
            #expect(sleep["fade"] as? Double == 3)

            // A third client a second later: the snapshot counts down from now, not from when it was set.
            try await Task.sleep(for: .milliseconds(1000))
            let c = try await h.socket()
            let late = try await c.receiveJSON()
            let lateRemaining = try #require((late["sleep"] as? [String: Any])?["remaining"] as? Double)
            #expect(lateRemaining < remaining - 0.8 && lateRemaining > 0.5, "late client: \(lateRemaining) of \(remaining)")
            let api = try await h.json("/api/state")
            #expect((api["sleep"] as? [String: Any])?["mode"] as? String == "minutes")

            // The end reaches everyone: paused, no timer, the volume as the listener set it.
            for client in [a, b, c] {
                let end = try await client.receive(timeout: 6) { $0["type"] as? String == "state" && $0["sleep"] is NSNull }
                #expect(end["paused"] as? Bool == true)
                #expect(end["volume"] as? Double == 100)
            }
            #expect(await h.engine.state.paused)
        }
    }

    @Test("sleep until the episode's end, extend, cancel; errors come back with reasons")
    func sleepCommands() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket()
            _ = try await a.receiveJSON()
            let cases: [(String, String)] = [
                (#"{"id":"e","cmd":"sleep","until":"episode"}"#, "nothing is playing"),
                (#"{"id":"x","cmd":"sleep.extend","minutes":5}"#, "no sleep timer is set"),
                (#"{"id":"u","cmd":"sleep","until":"noon"}"#, "\"until\" must be \"episode\" or \"chapter\""),
            ]
            for (frame, message) in cases {
                try await a.send(frame)
                let error = try await a.receive { $0["type"] as? String == "error" }
                #expect(error["message"] as? String == message)
            }
            try await a.send(#"{"id":1,"cmd":"play","episode":\#(h.episodes[0].id)}"#)
            _ = try await a.receive { $0["type"] as? String == "ack" }
            try await a.send(#"{"id":"c","cmd":"sleep","until":"chapter"}"#)
            let noChapters = try await a.receive { $0["type"] as? String == "error" }
            #expect(noChapters["message"] as? String == "this episode has no chapters")
            try await a.send(#"{"id":2,"cmd":"sleep","until":"episode"}"#)
            let episode = try await a.receive { ($0["sleep"] as? [String: Any])?["mode"] as? String == "episode" }
            #expect(((episode["sleep"] as? [String: Any])?["remaining"] as? Double ?? 0) > 50)
            try await a.send(#"{"id":3,"cmd":"sleep.extend","minutes":10}"#)
            let extended = try await a.receive { ($0["sleep"] as? [String: Any])?["mode"] as? String == "minutes" }
            #expect(((extended["sleep"] as? [String: Any])?["remaining"] as? Double ?? 0) > 600)
            try await a.send(#"{"id":4,"cmd":"sleep.cancel"}"#)
            _ = try await a.receive { $0["type"] as? String == "state" && $0["sleep"] is NSNull }
        }
    }

    @Test("volume up to 130, podcast.speed stored and shown to every client, skip intervals")
    func speedAndVolume() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()
            try await a.send(#"{"id":1,"cmd":"volume","value":130}"#)
            _ = try await b.receive { $0["type"] as? String == "state" && $0["volume"] as? Double == 130 }
            for _ in 0..<50 where h.engine.player.property("volume") != "130.000000" { try await Task.sleep(for: .milliseconds(20)) }
            #expect(h.engine.player.property("volume") == "130.000000", "mpv plays at 130 %")
            try await a.send(#"{"id":2,"cmd":"volume","value":131}"#)
            let tooLoud = try await a.receive { $0["type"] as? String == "error" }
            #expect(tooLoud["message"] as? String == "volume must be between 0 and 130")

            try await a.send(#"{"id":3,"cmd":"podcast.speed","podcast":\#(h.podcast.id),"rate":1.3}"#)
            let speeds = try await b.receive { $0["type"] as? String == "state" && ($0["settings"] as? [String: Any])?["podcastSpeeds"] as? [String: Double] != [:] }
            #expect((speeds["settings"] as? [String: Any])?["podcastSpeeds"] as? [String: Double] == ["\(h.podcast.id)": 1.3])
            try await a.send(#"{"id":4,"cmd":"play","episode":\#(h.episodes[1].id)}"#)
            _ = try await b.receive { $0["type"] as? String == "state" && $0["rate"] as? Double == 1.3 }
            try await a.send(#"{"id":5,"cmd":"rate","value":2.02}"#)
            _ = try await b.receive { $0["type"] as? String == "state" && $0["rate"] as? Double == 2 }

            try await a.send(#"{"id":6,"cmd":"settings","skipBack":10,"skipForward":60}"#)
            let skips = try await b.receive { ($0["settings"] as? [String: Any])?["skipBack"] as? Double == 10 }
            #expect((skips["settings"] as? [String: Any])?["skipForward"] as? Double == 60)
            try await a.send(#"{"id":7,"cmd":"podcast.speed","podcast":\#(h.podcast.id),"rate":null}"#)
            _ = try await b.receive { ($0["settings"] as? [String: Any])?["podcastSpeeds"] as? [String: Double] == [:] }
        }
    }
}
