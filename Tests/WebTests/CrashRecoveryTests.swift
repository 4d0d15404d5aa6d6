import Foundation
import TestSupport
import Testing

/// `kill -9` of the real `earshot serve`: what was being listened to survives, give or take 5 s.
@Suite("Crash recovery of the earshot program", .serialized)
struct CrashRecoveryTests {
    /// A running `earshot serve` and its port.
    struct Running {
        let process: Process
        let port: Int
    }

    /// Starts the debug binary and waits for its "serving on" line.
    static func launch(_ arguments: [String]) async throws -> Running {
        let binary = CommandLineTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the earshot product first")
        let (process, line) = try await CommandLineTests.start(arguments)
        let port = line.split(separator: ":").last.flatMap { Int($0.filter(\.isNumber)) }
        if port == nil { process.terminate() }
        return Running(process: process, port: try #require(port, "no URL in \(line)"))
    }

    static func json(_ port: Int, _ path: String) async throws -> [String: Any] {
        let response = try await RawHTTP.request(port: port, path: path).0
        try #require(response.status == 200, "\(path): \(response.status)")
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    /// The stored (saved) position, as the library has it.
    static func storedPosition(_ port: Int, _ id: Int) async throws -> Double {
        let episode = try #require(try await json(port, "/api/episodes/\(id)")["episode"] as? [String: Any])
        return try #require(episode["position"] as? Double)
    }

    /// The engine's live position.
    static func livePosition(_ port: Int) async throws -> Double {
        try #require(try await json(port, "/api/state")["position"] as? Double)
    }

    @Test("kill -9 while playing loses at most 5 s of position, at 1× and at 2×; the restart resumes there")
    func killNine() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let arguments = ["serve", "--port", "0", "--data", dir.path, "--audio-output", "null"]
        let first = try await Self.launch(arguments)
        defer { if first.process.isRunning { first.process.terminate() } }
        let port = first.port

        // The demo podcast's longest episode (about a minute): time for 10 s at 1× and 6 s at 2×.
        let episodes = try #require(try await Self.json(port, "/api/episodes?limit=100")["episodes"] as? [[String: Any]])
        let demo = episodes.filter { $0["podcast"] as? String == "Earshot Demo" }
        let episode = try #require(demo.max { ($0["duration"] as? Double ?? 0) < ($1["duration"] as? Double ?? 0) })
        let id = try #require(episode["id"] as? Int)
        try #require((episode["duration"] as? Double ?? 0) > 40)

        let ws = try await TestWebSocket.connect(port: port, origin: "http://127.0.0.1:\(port)")
        try await ws.send(#"{"id":1,"cmd":"play","episode":\#(id)}"#)
        _ = try await ws.receive { $0["type"] as? String == "ack" && $0["id"] as? Int == 1 }

        // Watch the library from outside while it plays: every position it stores, and the live one.
        var stored: [Double] = []
        var live = 0.0
        func watch(for seconds: Double) async throws {
            let until = Date().addingTimeInterval(seconds)
            while Date() < until {
                let saved = try await Self.storedPosition(port, id)
                if saved != stored.last { stored.append(saved) }
                live = try await Self.livePosition(port)
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        try await watch(for: 10)
        try await ws.send(#"{"id":2,"cmd":"rate","value":2}"#)
        _ = try await ws.receive { $0["type"] as? String == "ack" && $0["id"] as? Int == 2 }
        try await watch(for: 6)
        live = try await Self.livePosition(port)
        kill(first.process.processIdentifier, SIGKILL)
        try await offThePool { first.process.waitUntilExit() }
        #expect(first.process.terminationReason == .uncaughtSignal && first.process.terminationStatus == SIGKILL)

        // At most 5 s of media between saves (~4.5 s of wall time at 1×, ~2 s at 2×).
        #expect(stored.count >= 6, "saves seen: \(stored)")
        let gaps = zip(stored, stored.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 > 0 && $0 <= 5 }, "stored positions \(stored)")
        let lastSaved = try #require(stored.last)
        #expect(live > 20 && live - lastSaved <= 5, "live \(live) at the kill, last saved \(lastSaved)")

        // The restart finds the last save (SQLite's WAL survived the kill) and resumes there.
        let second = try await Self.launch(arguments)
        defer { second.process.terminate() }
        let recovered = try await Self.storedPosition(second.port, id)
        // A save may land between the last look and the kill; nothing seen saved may be lost.
        #expect(recovered >= lastSaved - 0.001 && recovered <= live + 0.5, "recovered \(recovered), last seen saved \(lastSaved)")
        #expect(recovered > 0 && live - recovered <= 5, "lost \(live - recovered) s")
        let again = try await TestWebSocket.connect(port: second.port, origin: "http://127.0.0.1:\(second.port)")
        try await again.send(#"{"id":1,"cmd":"play","episode":\#(id)}"#)
        let resumed = try await again.receive {
            $0["type"] as? String == "state" && $0["buffering"] as? Bool == false && $0["episode"] is [String: Any]
        }
        let position = try #require(resumed["position"] as? Double)
        #expect(position >= recovered - 0.1 && position < recovered + 1.5, "resumed at \(position), stored \(recovered)")
    }
}
