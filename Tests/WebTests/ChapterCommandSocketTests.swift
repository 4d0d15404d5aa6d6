import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// `chapter {index}`, `chapter.next` and `chapter.previous` from one client; every client sees
/// where they land.
@Suite("Chapter commands over the socket", .serialized)
struct ChapterCommandSocketTests {
    static func isState(_ message: [String: Any]) -> Bool { message["type"] as? String == "state" }

    /// Sends a command from `a` and waits for its ack (or returns the error message).
    @discardableResult
    static func send(_ a: TestWebSocket, _ id: String, _ json: String) async throws -> String? {
        try await a.send(#"{"id":"\#(id)",\#(json)}"#)
        let reply = try await a.receive { ["ack", "error"].contains($0["type"] as? String) && $0["id"] as? String == id }
        return reply["type"] as? String == "error" ? reply["message"] as? String : nil
    }

    /// Waits on `b` for a state at chapter `index` whose position is `position` (±tolerance).
    static func seen(_ b: TestWebSocket, chapter index: Int, near position: Double, tolerance: Double = 0.05) async throws -> [String: Any] {
        try await b.receive(timeout: 8) {
            isState($0) && $0["chapter"] as? Int == index && abs(($0["position"] as? Double ?? -99) - position) <= tolerance
        }
    }

    @Test("two clients: one jumps, next, previous (restart after 3 s), the other follows; bad indexes are errors")
    func twoClients() async throws {
        try await ServerHarness.with { h in
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            let tone = try Data(contentsOf: GeneratedAudio.writeWAV(to: dir.file("tone.wav"), seconds: 60))
            fixture.set("/tone.wav", headers: ["Content-Type": "audio/wav"], body: tone)
            let psc = [("00:00:00", "Opening", ""), ("00:00:20", "Middle", ""), ("00:00:40", "Closing", "")]
            let ids = try await ChapterSourcesTests.subscribe(h, fixture, [
                ChapterSourcesTests.Item(guid: "psc", audio: fixture.url("/tone.wav"), psc: psc),
                ChapterSourcesTests.Item(guid: "plain", audio: fixture.url("/tone.wav")),
            ])
            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()

            #expect(try await Self.send(a, "none", #""cmd":"chapter.next""#) == "nothing is playing")
            _ = try await ChapterSourcesTests.play(a, try #require(ids["psc"]), until: ["Opening", "Middle", "Closing"])
            _ = try await b.receive { Self.isState($0) && ChapterSourcesTests.titles($0) == ["Opening", "Middle", "Closing"] }
            let paused = try await b.receive { Self.isState($0) && $0["paused"] as? Bool == true }
            #expect(paused["chapter"] as? Int == 0)

            #expect(try await Self.send(a, "j", #""cmd":"chapter","index":1"#) == nil)
            _ = try await Self.seen(b, chapter: 1, near: 20)
            #expect(try await Self.send(a, "n", #""cmd":"chapter.next""#) == nil)
            _ = try await Self.seen(b, chapter: 2, near: 40)
            #expect(try await Self.send(a, "n2", #""cmd":"chapter.next""#) == "this is the last chapter")
            #expect(try await Self.send(a, "p", #""cmd":"chapter.previous""#) == nil, "0 s into the chapter: the one before")
            _ = try await Self.seen(b, chapter: 1, near: 20)
            #expect(try await Self.send(a, "bad", #""cmd":"chapter","index":3"#) == "no chapter 3: this episode's chapters are 0 to 2")
            #expect(try await Self.send(a, "neg", #""cmd":"chapter","index":-1"#)?.contains("index") == true)
            #expect(await h.engine.state.position == 20, "errors move nothing")

            // Playing: more than 3 s into "Middle", previous restarts it; the position keeps moving from there.
            #expect(try await Self.send(a, "r", #""cmd":"resume""#) == nil)
            _ = try await b.receive(timeout: 10) { $0["type"] as? String == "time" && ($0["position"] as? Double ?? 0) > 24 }
            #expect(try await Self.send(a, "p2", #""cmd":"chapter.previous""#) == nil)
            _ = try await Self.seen(b, chapter: 1, near: 20, tolerance: 0.5)
            let moving = try await b.receive(timeout: 5) { $0["type"] as? String == "time" && ($0["position"] as? Double ?? 0) > 20.5 }
            #expect((moving["position"] as? Double ?? 0) < 23)
            #expect(await h.engine.state.chapter == 1)

            // An episode without chapters: every chapter command is an error.
            _ = try await ChapterSourcesTests.play(a, try #require(ids["plain"]), until: [])
            #expect(try await Self.send(a, "x", #""cmd":"chapter.next""#) == "this episode has no chapters")
            #expect(try await Self.send(a, "y", #""cmd":"chapter.previous""#) == "this episode has no chapters")
            #expect(try await Self.send(a, "z", #""cmd":"chapter","index":0"#) == "this episode has no chapters")
        }
    }

    @Test("in-file chapters: a jump lands inside the chapter and stays there as it plays")
    func inFileLanding() async throws {
        try await ServerHarness.with { h in
            let fixture = try FixtureHTTPServer()
            defer { fixture.stop() }
            fixture.set("/a.mp3", headers: ["Content-Type": "audio/mpeg"],
                        body: try Data(contentsOf: ChapterSourcesTests.samples.appendingPathComponent("mp3chaps-py.mp3")))
            let ids = try await ChapterSourcesTests.subscribe(h, fixture, [
                ChapterSourcesTests.Item(guid: "mp3", audio: fixture.url("/a.mp3"), type: "audio/mpeg"),
            ])
            let a = try await h.socket()
            _ = try await a.receiveJSON()
            let state = try await ChapterSourcesTests.play(a, try #require(ids["mp3"]), until: ["Start", "Chapter 1", "Chapter 2", "Chapter 3"])
            let starts = ChapterSourcesTests.chapters(state).compactMap { $0["start"] as? Double }
            for index in [2, 1, 3] {
                #expect(try await Self.send(a, "j\(index)", #""cmd":"chapter","index":\#(index)"#) == nil)
                #expect(try await Self.send(a, "r\(index)", #""cmd":"resume""#) == nil)
                try await Task.sleep(for: .milliseconds(700))
                let now = await h.engine.state
                #expect(now.chapter == index, "after jumping to \(index): at \(now.position), chapter \(now.chapter)")
                #expect(now.position >= starts[index], "not before the chapter's start")
                #expect(try await Self.send(a, "s\(index)", #""cmd":"pause""#) == nil)
            }
        }
    }
}
