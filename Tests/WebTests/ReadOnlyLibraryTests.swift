import EarshotCore
import Foundation
@testable import Library
import TestSupport
import Testing
@testable import Web

/// The library stops taking writes mid-run (`PRAGMA query_only`: SQLite then refuses every write
/// with SQLITE_READONLY, as with a read-only file): nothing is lost quietly, and every client is told
/// why in words (a full disk says so too: Tests/host/test_disk_full.py).
@Suite("A library that cannot be written", .serialized)
struct ReadOnlyLibraryTests {
    static func notice(_ message: [String: Any]) -> String? {
        guard message["type"] as? String == "state" else { return nil }
        return message["notice"] as? String
    }

    @Test("failed saves of the position and Up Next are a notice on every client; played marks an error; all stored once writable")
    func notices() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            for socket in [a, b] { _ = try await socket.receive { $0["type"] as? String == "state" } }
            let episode = h.episodes[0].id
            try await a.send(#"{"id":1,"cmd":"play","episode":\#(episode)}"#)
            _ = try await a.receive { $0["type"] as? String == "state" && $0["paused"] as? Bool == false && $0["buffering"] as? Bool == false }
            try await a.send(#"{"id":2,"cmd":"seek","to":20}"#)
            _ = try await a.receive { $0["type"] as? String == "ack" && $0["id"] as? Int == 2 }
            #expect(try await h.store.episode(id: episode)?.position == 20, "writable: the seek was stored")

            try await h.store.withDatabase { try $0.execute("PRAGMA query_only=1") }
            try await a.send(#"{"id":3,"cmd":"seek","to":42}"#)
            for socket in [a, b] {
                let state = try await socket.receive { Self.notice($0)?.hasPrefix("Could not save the position") == true }
                #expect(Self.notice(state) == "Could not save the position in First tone: the library's file cannot be written (read-only).")
            }
            #expect(try await h.store.episode(id: episode)?.position == 20, "nothing was written")

            try await a.send(#"{"id":4,"cmd":"queue.add","episode":\#(h.episodes[1].id)}"#)
            for socket in [a, b] {
                _ = try await socket.receive { Self.notice($0) == "Could not save Up Next: the library's file cannot be written (read-only)." }
            }
            try await a.send(#"{"id":5,"cmd":"mark","episode":\#(h.episodes[1].id),"played":true}"#)
            let refused = try await a.receive { $0["id"] as? Int == 5 }
            #expect(refused["type"] as? String == "error")
            #expect(refused["message"] as? String == "could not save the played mark: the library's file cannot be written (read-only)")

            // Writable again: the next save stores where the listener is, and resuming clears the notice.
            try await h.store.withDatabase { try $0.execute("PRAGMA query_only=0") }
            try await a.send(#"{"id":6,"cmd":"pause"}"#)
            _ = try await a.receive { $0["type"] as? String == "ack" && $0["id"] as? Int == 6 }
            let stored = try #require(try await h.store.episode(id: episode)?.position)
            #expect(stored >= 42 && stored < 50, "the position after the failed saves is stored: \(stored)")
            _ = try await b.receive { $0["type"] as? String == "state" && $0["paused"] as? Bool == true }
            try await a.send(#"{"id":7,"cmd":"resume"}"#)
            let cleared = try await b.receive { $0["type"] as? String == "state" && $0["paused"] as? Bool == false }
            #expect(cleared["notice"] is NSNull)
        }
    }
}
