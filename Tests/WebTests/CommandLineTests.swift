import Foundation
import TestSupport
import Testing

/// The `earshot` program itself, as a user runs it.
@Suite("The earshot command", .serialized)
struct CommandLineTests {
    static let binary = ServerHarness.repository.appendingPathComponent(".build/debug/earshot")

    struct Run { var status: Int32; var out: String; var err: String }

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        try await offThePool {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let outData = out.fileHandleForReading.readDataToEndOfFile()
            let errData = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                       err: String(decoding: errData, as: UTF8.self))
        }
    }

    @Test("subscribe URL adds a feed; a dead one fails with a message and exit status 1")
    func subscribe() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build the earshot product first")
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fixture = try FixtureHTTPServer()
        defer { fixture.stop() }
        fixture.set("/feed.xml", body: SubscriptionTests.feed(audioURL: fixture.url("/a.wav"), title: "CLI Show"))
        let ok = try await Self.run(["subscribe", fixture.url("/feed.xml").absoluteString, "--data", dir.path])
        #expect(ok.status == 0, "\(ok.err)")
        #expect(ok.out.contains("Subscribed to CLI Show"))
        let dead = try await Self.run(["subscribe", "http://127.0.0.1:9/feed.xml"], environment: ["EARSHOT_DATA": dir.path])
        #expect(dead.status == 1)
        #expect(dead.err.contains("Could not reach http://127.0.0.1:9/feed.xml"))
        let bad = try await Self.run(["serve", "--port", "http"])
        #expect(bad.status == 2)
        #expect(bad.err.contains("--port must be 0…65535"))
        #expect(bad.err.contains("Usage:"))
    }

    @Test("a library that is not a database is reported and left as it was")
    func brokenLibrary() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let junk = Data("this is not sqlite, but it is somebody's file".utf8)
        try junk.write(to: dir.file("library.sqlite"))
        let run = try await Self.run(["serve", "--port", "0", "--data", dir.path, "--audio-output", "null", "--no-demo"])
        #expect(run.status == 1)
        #expect(run.err.contains("cannot open the library"))
        #expect(try Data(contentsOf: dir.file("library.sqlite")) == junk)
    }

    /// Starts `earshot serve`, waits for its "serving on" line, runs `body` with the URL, then
    /// sends SIGTERM and returns the exit status.
    static func serving(_ arguments: [String], environment: [String: String],
                        _ body: (URL) async throws -> Void) async throws -> Int32 {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = out.fileHandleForReading
        let line: String = try await offThePool {
            var text = ""
            let deadline = Date().addingTimeInterval(20)
            while !text.contains("\n") && Date() < deadline {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        defer { if process.isRunning { process.terminate() } }
        let url = try #require(line.split(separator: " ").last.flatMap { URL(string: String($0).trimmingCharacters(in: .whitespacesAndNewlines)) },
                               "no URL in \(line)")
        #expect(line.hasPrefix("Earshot is serving on http://127.0.0.1:"))
        try await body(url)
        process.terminate() // SIGTERM: a clean quit
        return try await offThePool { process.waitUntilExit(); return process.terminationStatus }
    }

    static func podcastTitles(_ url: URL) async throws -> [String] {
        let port = try #require(url.port)
        let response = try await RawHTTP.request(port: port, path: "/api/podcasts").0
        let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        return (json["podcasts"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test("serve: settings from the environment, --no-demo, the XDG data folder, a clean SIGTERM")
    func serveSettings() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let environment = ["EARSHOT_PORT": "0", "EARSHOT_AUDIO_OUTPUT": "null", "XDG_DATA_HOME": dir.path, "EARSHOT_DATA": ""]
        let quiet = try await Self.serving(["serve", "--no-demo"], environment: environment) { url in
            #expect(url.port != 8080 && url.port != 0, "EARSHOT_PORT=0 picks a free port")
            let titles = try await Self.podcastTitles(url)
            #expect(titles.isEmpty, "--no-demo adds nothing")
        }
        #expect(quiet == 0)
        #expect(FileManager.default.fileExists(atPath: dir.file("earshot/library.sqlite").path),
                "the library lives in $XDG_DATA_HOME/earshot")

        // The flag wins over the environment; without --no-demo the demo arrives on first start.
        let other = TemporaryDirectory()
        defer { other.remove() }
        let demo = try await Self.serving(["serve", "--port", "0", "--data", other.path],
                                          environment: environment.merging(["EARSHOT_PORT": "1"]) { $1 }) { url in
            let titles = try await Self.podcastTitles(url)
            #expect(titles == ["Earshot Demo"])
        }
        #expect(demo == 0)
        #expect(FileManager.default.fileExists(atPath: other.file("library.sqlite").path))
    }
}
