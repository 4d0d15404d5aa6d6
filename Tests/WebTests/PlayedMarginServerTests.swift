import Foundation
import TestSupport
import Testing
@testable import Web

/// The played margin as clients and the command line see it.
@Suite("The played margin setting over the socket and the command line", .serialized)
struct PlayedMarginServerTests {
    @Test("one client changes it, every client's state shows it; out of range is an error")
    func overTheSocket() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            let first = try await b.receiveJSON()
            #expect((first["settings"] as? [String: Any])?["playedMargin"] as? Double == 30)
            _ = try await a.receiveJSON()
            try await a.send(#"{"id":"m","cmd":"settings","playedMargin":90}"#)
            _ = try await a.receive { $0["type"] as? String == "ack" && $0["id"] as? String == "m" }
            // The other client's next states: one of them (an earlier one may be mpv's device list
            // arriving) carries the new margin.
            let seen = try await b.receive { $0["type"] as? String == "state" && ($0["settings"] as? [String: Any])?["playedMargin"] as? Double == 90 }
            #expect((seen["settings"] as? [String: Any])?["playedMargin"] as? Double == 90)
            let api = try await h.json("/api/state")
            #expect((api["settings"] as? [String: Any])?["playedMargin"] as? Double == 90)
            #expect(try await h.store.setting("playback.settings") == #"{"leveling":"off","playedMargin":90,"podcastSpeeds":{},"podcasts":{},"skipBack":15,"skipForward":30,"skipSilence":"off"}"#)

            try await a.send(#"{"id":"bad","cmd":"settings","playedMargin":700}"#)
            let error = try await a.receive { $0["type"] as? String == "error" }
            #expect(error["id"] as? String == "bad")
            #expect(error["message"] as? String == "playedMargin must be between 0 and 600 seconds")
            #expect(await h.engine.state.settings.playedMargin == 90)
        }
    }

    @Test("--played-margin sets and stores it; EARSHOT_PLAYED_MARGIN too; nonsense stops the start")
    func commandLine() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        func margin(_ url: URL) async throws -> Double? {
            let response = try await RawHTTP.request(port: try #require(url.port), path: "/api/state").0
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            return (json?["settings"] as? [String: Any])?["playedMargin"] as? Double
        }
        let base = ["serve", "--port", "0", "--data", dir.path, "--audio-output", "null", "--no-demo"]
        let flagged = try await CommandLineTests.serving(base + ["--played-margin", "45"], environment: [:]) { url in
            let value = try await margin(url)
            #expect(value == 45)
        }
        #expect(flagged == 0)
        let kept = try await CommandLineTests.serving(base, environment: [:]) { url in
            let value = try await margin(url)
            #expect(value == 45, "the library keeps the last choice")
        }
        #expect(kept == 0)
        let fromEnvironment = try await CommandLineTests.serving(base, environment: ["EARSHOT_PLAYED_MARGIN": "120"]) { url in
            let value = try await margin(url)
            #expect(value == 120)
        }
        #expect(fromEnvironment == 0)

        let bad = try await CommandLineTests.run(base + ["--played-margin", "601"])
        #expect(bad.status == 2)
        #expect(bad.err.contains("--played-margin must be seconds from 0 to 600, not \"601\""))
        let junk = try await CommandLineTests.run(base, environment: ["EARSHOT_PLAYED_MARGIN": "soon"])
        #expect(junk.status == 2)
        #expect(junk.err.contains("EARSHOT_PLAYED_MARGIN must be seconds"))
        let help = try await CommandLineTests.run(["help"])
        #expect(help.out.contains("--played-margin S") && help.out.contains("EARSHOT_PLAYED_MARGIN"))
    }
}
