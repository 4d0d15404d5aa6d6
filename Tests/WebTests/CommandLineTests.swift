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
}
