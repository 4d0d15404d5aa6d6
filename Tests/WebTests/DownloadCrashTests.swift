import Foundation
import TestSupport
import Testing

/// `kill -9` of the real `earshot serve` in the middle of a download: the restart continues from
/// the partial file with a Range request starting exactly where it ended, and the file comes out whole.
@Suite("Downloads survive kill -9", .serialized)
struct DownloadCrashTests {
    static func downloads(_ port: Int) async throws -> [[String: Any]] {
        try #require(try await CrashRecoveryTests.json(port, "/api/downloads")["items"] as? [[String: Any]])
    }

    @Test("kill -9 mid-download, restart: Range from the partial size, a byte-identical file")
    func killNine() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let media = try FixtureHTTPServer()
        defer { media.stop() }
        var generator = SplitMix64(seed: 99)
        let body = Data((0..<3_000_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        let audio = { (delay: TimeInterval) in
            FixtureHTTPServer.Response(status: 200, headers: ["Content-Type": "audio/mpeg", "ETag": "\"crash-1\""], body: body,
                                       chunkDelay: delay, chunkSize: 32 * 1024)
        }
        media.set("/show.mp3", audio(0.05)) // about 20 KB a tenth of a second: a few seconds in all
        media.set("/feed.xml", FixtureHTTPServer.Response(text: """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Crash Show</title>
            <item><guid>c1</guid><title>Long one</title>
            <enclosure url="\(media.url("/show.mp3").absoluteString)" type="audio/mpeg" length="3000000"/></item>
            </channel></rss>
            """, contentType: "application/rss+xml"))

        let arguments = ["serve", "--port", "0", "--data", dir.path, "--audio-output", "null", "--no-demo"]
        let first = try await CrashRecoveryTests.launch(arguments)
        defer { if first.process.isRunning { first.process.terminate() } }
        let subscribed = try await RawHTTP.request(port: first.port, method: "POST", path: "/api/subscriptions",
                                                   headers: ["Content-Type": "application/json"], body: Data(#"{"url":"\#(media.url("/feed.xml").absoluteString)"}"#.utf8)).0
        try #require(subscribed.status == 201, "\(subscribed.text)")
        let podcast = try #require((try JSONSerialization.jsonObject(with: subscribed.body) as? [String: Any])?["podcast"] as? [String: Any])
        let podcastID = try #require(podcast["id"] as? Int)
        let episodes = try #require(try await CrashRecoveryTests.json(first.port, "/api/podcasts/\(podcastID)/episodes")["episodes"] as? [[String: Any]])
        let episodeID = try #require(episodes.first?["id"] as? Int)

        let ws = try await TestWebSocket.connect(port: first.port, origin: "http://127.0.0.1:\(first.port)")
        try await ws.send(#"{"id":1,"cmd":"download","episode":\#(episodeID)}"#)
        _ = try await ws.receive { $0["type"] as? String == "ack" && $0["id"] as? Int == 1 }
        var bytes = 0
        let deadline = Date().addingTimeInterval(20)
        while bytes < 600_000, Date() < deadline {
            bytes = try await Self.downloads(first.port).first?["bytes"] as? Int ?? 0
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(bytes >= 600_000, "the download never got going")
        kill(first.process.processIdentifier, SIGKILL)
        try await offThePool { first.process.waitUntilExit() }
        #expect(first.process.terminationReason == .uncaughtSignal)

        let part = dir.url.appendingPathComponent("downloads/\(podcastID)/\(episodeID).mp3.part")
        let partial = try #require(try FileManager.default.attributesOfItem(atPath: part.path)[.size] as? NSNumber).intValue
        #expect(partial >= 600_000 && partial < body.count, "partial \(partial)")
        #expect(try Data(contentsOf: part) == body.prefix(partial), "the partial file is a prefix of the file")
        let requestsBefore = media.requests.filter { $0.target == "/show.mp3" }.count

        media.set("/show.mp3", audio(0)) // the rest comes quickly
        let second = try await CrashRecoveryTests.launch(arguments)
        defer { second.process.terminate() }
        var state = ""
        let until = Date().addingTimeInterval(30)
        while state != "done", Date() < until {
            state = try await Self.downloads(second.port).first?["state"] as? String ?? ""
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(state == "done")
        let file = dir.url.appendingPathComponent("downloads/\(podcastID)/\(episodeID).mp3")
        #expect(try Data(contentsOf: file) == body, "byte for byte")
        #expect(!FileManager.default.fileExists(atPath: part.path))
        let resumed = media.requests.filter { $0.target == "/show.mp3" }.dropFirst(requestsBefore)
        #expect(resumed.count == 1)
        #expect(resumed.first?.header("range") == "bytes=\(partial)-", "continued from the partial size \(partial)")
        #expect(resumed.first?.header("if-range") == "\"crash-1\"")
    }
}
