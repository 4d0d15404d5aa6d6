import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

@Suite("WebSocket on a live server", .serialized)
struct SocketTests {
    @Test("a state snapshot on connect")
    func snapshotOnConnect() async throws {
        try await ServerHarness.with { h in
            let ws = try await h.socket()
            #expect(ws.isOpen)
            let first = try await ws.receiveJSON()
            #expect(first["type"] as? String == "state")
            #expect(first["seq"] is Int)
            #expect(first["episode"] is NSNull)
            #expect(first["paused"] as? Bool == true)
            for key in ["position", "duration", "rate", "volume", "muted", "buffering", "queue", "shuffle", "repeat", "chapters"] {
                #expect(first[key] != nil, "state lacks \(key)")
            }
        }
    }

    /// A new client is among those every change goes to from the moment it connects, and a state
    /// not yet written to it is replaced by the next (`SocketOutbox`): its snapshot must be queued in
    /// the engine's order, or a change published while the snapshot was on its way is replaced by the
    /// older snapshot and the client keeps the older state until something else changes (seen: a client
    /// connecting as mpv listed the outputs never had them). Clients connect as the engine changes the
    /// volume on its own (as mpv's events change it: not through a socket, whose commands are carried
    /// out one at a time with the connections' openings): each must end up with the new volume.
    @Test("a client connecting as the state changes ends up with the change")
    func snapshotInOrderWithChanges() async throws {
        try await ServerHarness.with { h in
            var stale: [Int] = []
            for round in 1...1500 {
                let volume = 40 + round % 50
                let engine = h.engine
                let change = Task {
                    try await Task.sleep(for: .microseconds(Int.random(in: 0...4_000)))
                    try await engine.handle(.volume(Double(volume)))
                }
                let client = try await h.socket()
                try await change.value
                // The change is published: the client must have it, now or next.
                do {
                    _ = try await client.receive(timeout: 2) { $0["type"] as? String == "state" && $0["volume"] as? Double == Double(volume) }
                } catch {
                    stale.append(round)
                }
            }
            #expect(stale.isEmpty, "clients left with the state before the change in rounds \(stale)")
        }
    }

    @Test("while playing: at least 4 time messages in 2.2 s, position advancing, seq increasing")
    func timeUpdates() async throws {
        try await ServerHarness.with { h in
            let ws = try await h.socket()
            _ = try await ws.receiveJSON()
            try await ws.send(#"{"id":1,"cmd":"play","episode":\#(h.episodes[0].id)}"#)
            _ = try await ws.receive { $0["type"] as? String == "ack" && $0["id"] as? Int == 1 }
            _ = try await ws.receive { $0["type"] as? String == "state" && ($0["buffering"] as? Bool) == false }
            var times: [[String: Any]] = []
            let start = Date()
            while Date().timeIntervalSince(start) < 2.2 {
                let message = try await ws.receiveJSON()
                if message["type"] as? String == "time" { times.append(message) }
            }
            #expect(times.count >= 4, "only \(times.count) time messages in 2.2 s")
            let positions = times.compactMap { $0["position"] as? Double }
            #expect(positions == positions.sorted() && (positions.last ?? 0) > (positions.first ?? 0))
            let seqs = times.compactMap { $0["seq"] as? Int }
            #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
            #expect(times.allSatisfy { $0["paused"] as? Bool == false && $0["rate"] as? Double == 1 })
        }
    }

    @Test("two clients both see one client's command")
    func twoClients() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()
            try await a.send(#"{"id":"x","cmd":"play","episode":\#(h.episodes[1].id)}"#)
            let ack = try await a.receive { $0["type"] as? String == "ack" }
            #expect(ack["id"] as? String == "x")
            let seen = try await b.receive { ($0["episode"] as? [String: Any])?["id"] as? Int == Int(h.episodes[1].id) }
            #expect((seen["episode"] as? [String: Any])?["title"] as? String == "Second tone")
            try await b.send(#"{"id":2,"cmd":"pause"}"#)
            _ = try await a.receive { $0["type"] as? String == "state" && $0["paused"] as? Bool == true }
            try await b.send(#"{"id":3,"cmd":"rate","value":1.5}"#)
            _ = try await a.receive { $0["type"] as? String == "state" && $0["rate"] as? Double == 1.5 }
        }
    }

    @Test("a foreign Origin or Host, or another path, cannot open the socket")
    func refusedSockets() async throws {
        try await ServerHarness.with { h in
            let evil = try await TestWebSocket.connect(port: h.port, origin: "http://evil.example")
            #expect(!evil.isOpen)
            #expect(await evil.socket.waitForClose())
            let portless = try await TestWebSocket.connect(port: h.port, origin: "http://127.0.0.1")
            #expect(!portless.isOpen, "origin on another port must not pass")
            let rebinding = try await TestWebSocket.connect(port: h.port, origin: "http://evil.example:\(h.port)", host: "evil.example:\(h.port)")
            #expect(!rebinding.isOpen)
            let wrongPath = try await TestWebSocket.connect(port: h.port, path: "/other", origin: "http://127.0.0.1:\(h.port)")
            #expect(!wrongPath.isOpen)
            // Our own page still gets in.
            #expect(try await h.socket().isOpen)
        }
    }

    @Test("junk frames get an error each and the server keeps serving")
    func junk() async throws {
        try await ServerHarness.with { h in
            let ws = try await h.socket()
            _ = try await ws.receiveJSON()
            let cases: [(String, String)] = [
                ("not json at all", "malformed JSON"),
                ("[1,2,3]", "a command must be a JSON object"),
                (#"{"id":7}"#, "missing \"cmd\""),
                (#"{"id":8,"cmd":"explode"}"#, "unknown command \"explode\""),
                (#"{"id":9,"cmd":"seek"}"#, "\"seek\" needs a number \"to\""),
                (#"{"id":10,"cmd":"rate","value":9}"#, "rate must be between 0.5 and 3"),
                (#"{"id":11,"cmd":"play","episode":424242}"#, "no episode with id 424242"),
                (#"{"id":12,"cmd":"pause"}"#, "nothing is playing"),
            ]
            for (frame, message) in cases {
                try await ws.send(frame)
                let reply = try await ws.receive { $0["type"] as? String != "state" }
                #expect(reply["type"] as? String == "error", "\(frame) → \(reply)")
                #expect(reply["message"] as? String == message, "\(frame) → \(reply)")
            }
            try await ws.sendFrame([0, 1, 2, 3], opcode: 0x2)
            let binary = try await ws.receiveJSONSkippingState()
            #expect(binary["type"] as? String == "error")
            #expect((binary["message"] as? String)?.contains("binary") == true)
            try await ws.send(#"{"id":13,"cmd":"pause","pad":""# + String(repeating: "x", count: 70_000) + #""}"#)
            let oversize = try await ws.receiveJSONSkippingState()
            #expect(oversize["type"] as? String == "error")
            #expect((oversize["message"] as? String)?.contains("too large") == true)
            // Still serving, and ids come back as sent.
            try await ws.send(#"{"id":{"n":14},"cmd":"volume","value":40}"#)
            let ack = try await ws.receiveJSONSkippingState()
            #expect(ack["type"] as? String == "ack")
            #expect((ack["id"] as? [String: Any])?["n"] as? Int == 14)
            #expect(try await h.http("/api/podcasts").status == 200)
        }
    }
}

extension TestWebSocket {
    func receiveJSONSkippingState() async throws -> [String: Any] { try await receive { $0["type"] as? String != "state" && $0["type"] as? String != "time" } }
}

@Suite("WebSocket frames that are not valid text", .serialized)
struct SocketEncodingTests {
    @Test("a text frame that is not UTF-8 gets an error, and the socket stays open")
    func invalidUTF8() async throws {
        try await ServerHarness.with { h in
            let ws = try await h.socket()
            _ = try await ws.receiveJSON()
            try await ws.sendFrame([0x7b, 0xff, 0xfe, 0x7d]) // "{", two bytes UTF-8 never uses, "}"
            let reply = try await ws.receiveJSONSkippingState()
            #expect(reply["type"] as? String == "error")
            #expect(reply["message"] as? String == "text frames must be UTF-8")
            try await ws.send(#"{"id":2,"cmd":"ping"}"#)
            let ack = try await ws.receiveJSONSkippingState()
            #expect(ack["type"] as? String == "ack")
            #expect(ack["id"] as? Int == 2)
        }
    }
}

@Suite("Up Next over the socket", .serialized)
struct QueueSocketTests {
    @Test("one client's queue commands reach every client's state")
    func queueCommands() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()
            let first = h.episodes[0].id, second = h.episodes[1].id
            try await a.send(#"{"id":1,"cmd":"play","episode":\#(first)}"#)
            try await a.send(#"{"id":2,"cmd":"queue.add","episode":\#(second)}"#)
            try await a.send(#"{"id":3,"cmd":"repeat","mode":"all"}"#)
            let seen = try await b.receive {
                $0["type"] as? String == "state" && ($0["queue"] as? [Int]) == [Int(first), Int(second)] && $0["repeat"] as? String == "all"
            }
            #expect(seen["shuffle"] as? Bool == false)
            try await b.send(#"{"id":4,"cmd":"next"}"#)
            _ = try await a.receive { ($0["episode"] as? [String: Any])?["id"] as? Int == Int(second) }
            try await b.send(#"{"id":5,"cmd":"queue.remove","episode":424242}"#)
            let error = try await b.receive { $0["type"] as? String == "error" }
            #expect(error["message"] as? String == "episode 424242 is not in the queue")
        }
    }
}

@Suite("Marking played by hand", .serialized)
struct MarkSocketTests {
    @Test("mark played / unplayed: ack, a library message to every client, the API agrees")
    func mark() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()
            let id = h.episodes[0].id
            try await a.send(#"{"id":1,"cmd":"mark","episode":\#(id),"played":true}"#)
            _ = try await a.receive { $0["type"] as? String == "ack" && $0["id"] as? Int == 1 }
            _ = try await b.receive { $0["type"] as? String == "library" }
            #expect((try await h.json("/api/episodes/\(id)")["episode"] as? [String: Any])?["played"] as? Bool == true)
            try await b.send(#"{"id":2,"cmd":"mark","episode":\#(id),"played":false}"#)
            // The ack comes once it is stored (a's next `library` could still be the first mark's).
            _ = try await b.receive { $0["type"] as? String == "ack" && $0["id"] as? Int == 2 }
            #expect((try await h.json("/api/episodes/\(id)")["episode"] as? [String: Any])?["played"] as? Bool == false)
            try await a.send(#"{"id":3,"cmd":"mark","episode":987654,"played":true}"#)
            let error = try await a.receive { $0["type"] as? String == "error" }
            #expect(error["message"] as? String == "no episode with id 987654")
        }
    }
}
