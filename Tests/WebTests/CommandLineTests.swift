import Foundation
@testable import Library
import TestSupport
import Testing
import Web

/// The `earshot` program itself, as a user runs it.
@Suite("The earshot command", .serialized)
struct CommandLineTests {
    static let binary = ServerHarness.repository.appendingPathComponent(".build/debug/earshot")

    struct Run { var status: Int32; var out: String; var err: String }

    static func run(_ arguments: [String], environment: [String: String] = [:], input: Data? = nil) async throws -> Run {
        try await offThePool {
            let process = Process()
            let stdin = Pipe()
            if input != nil { process.standardInput = stdin }
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            if let input {
                stdin.fileHandleForWriting.write(input)
                try stdin.fileHandleForWriting.close()
            }
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

    @Test("sync-user NAME: the password from standard input, or one made and printed once; bad ones change nothing")
    func syncUser() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        func account() async throws -> (user: String, hash: String)? {
            let store = try LibraryStore(path: dir.file("library.sqlite").path)
            guard let text = try await store.setting("sync.account"),
                  let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let user = object["user"] as? String, let hash = object["hash"] as? String else { return nil }
            return (user, hash)
        }
        let chosen = try await Self.run(["sync-user", "ann", "--data", dir.path], input: Data("my sofa password\n".utf8))
        #expect(chosen.status == 0 && chosen.out.contains("Sync is on for ann") && !chosen.out.contains("shown this once"), "\(chosen.err)")
        let first = try #require(try await account())
        #expect(first.user == "ann" && PasswordHash.verify("my sofa password", against: first.hash))
        #expect(!PasswordHash.verify("my sofa password\n", against: first.hash), "the line break is not part of it")

        let made = try await Self.run(["sync-user", "bob", "--data", dir.path], input: Data())
        #expect(made.status == 0, "\(made.err)")
        let line = try #require(made.out.split(separator: "\n").first { $0.hasPrefix("Password (shown this once): ") })
        let password = String(line.dropFirst("Password (shown this once): ".count))
        #expect(password.count == 23)
        let second = try #require(try await account())
        #expect(second.user == "bob" && PasswordHash.verify(password, against: second.hash))

        for (arguments, input, words) in [(["sync-user", "a b"], "long enough pass\n", "user name"), (["sync-user", "carol"], "short\n", "8 characters")] {
            let refused = try await Self.run(arguments + ["--data", dir.path], input: Data(input.utf8))
            #expect(refused.status == 1 && refused.err.contains(words), "\(refused.err)")
        }
        #expect(try await account()?.user == "bob", "a refused change leaves the account as it was")
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

    @Test("a library a newer Earshot wrote is not opened: a clear message, a non-zero exit, the file unchanged")
    func futureLibrary() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("library.sqlite").path
        do {
            let db = try Database(path: path)
            var newer = LibrarySchema.migrator
            newer.register("v42-something-new") { db in try db.execute("CREATE TABLE something_new(x)") }
            try newer.migrate(db)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for arguments in [["serve", "--port", "0", "--audio-output", "null"], ["refresh"], ["export"]] {
            let run = try await Self.run(arguments + ["--data", dir.path])
            #expect(run.status != 0, "\(arguments): exit \(run.status)")
            #expect(run.err.contains(#"earshot: library.sqlite was written by a newer Earshot (migration "v42-something-new"); not touching it"#),
                    "\(arguments): \(run.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(arguments): the file changed")
        }
    }

    /// Starts the real binary with `arguments` and returns it with the first line it prints (the
    /// "serving on URL" line), read off the cooperative pool within 20 s.
    static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Process, String) {
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
        return (process, line)
    }

    /// Starts `earshot serve`, waits for its "serving on" line, runs `body` with the URL, then
    /// sends SIGTERM and returns the exit status.
    static func serving(_ arguments: [String], environment: [String: String],
                        _ body: (URL) async throws -> Void) async throws -> Int32 {
        let (process, line) = try await start(arguments, environment: environment)
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

    @Test("serve reads earshot.conf ($XDG_CONFIG_HOME/earshot); the environment and flags win; a bad line stops it")
    func settingsFile() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let folder = dir.file("config/earshot")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("earshot.conf")
        try "# the living-room box\nport = 1\nno-demo = yes\naudio-output = null\ndata = \(dir.path)/data\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": dir.file("config").path, "EARSHOT_PORT": "0", "EARSHOT_DATA": ""]
        let status = try await Self.serving(["serve"], environment: environment) { url in
            #expect(url.port != 1, "EARSHOT_PORT wins over the file's port")
            let titles = try await Self.podcastTitles(url)
            #expect(titles.isEmpty, "no-demo = yes from the file")
        }
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.file("data/library.sqlite").path), "data = … from the file")
        let other = TemporaryDirectory()
        defer { other.remove() }
        _ = try await Self.serving(["serve", "--data", other.path], environment: environment) { _ in }
        #expect(FileManager.default.fileExists(atPath: other.file("library.sqlite").path), "--data wins over the file")

        try "port = 0\nvolume = 11\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = try await Self.run(["serve"], environment: environment)
        #expect(bad.status == 2)
        #expect(bad.err.contains("\(file.path): line 2: unknown key \"volume\""), "\(bad.err)")
        let missing = try await Self.run(["serve", "--config", dir.file("nowhere.conf").path], environment: environment)
        #expect(missing.status == 2 && missing.err.contains("cannot read the settings file"), "\(missing.err)")
    }

    @Test("serve: --itunes-url and EARSHOT_PODCASTINDEX_* reach directory search; a base that is not http(s) is refused")
    func directoryOptions() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let directory = try FixtureHTTPServer()
        defer { directory.stop() }
        directory.set("/search", body: Data(DirectorySearchTests.iTunesAnswer.utf8))
        directory.set("/pi/api/1.0/search/byterm", body: Data(DirectorySearchTests.podcastIndexAnswer.utf8))
        let environment = ["EARSHOT_AUDIO_OUTPUT": "null", "EARSHOT_PODCASTINDEX_URL": directory.url("/pi").absoluteString,
                           "EARSHOT_PODCASTINDEX_KEY": "k", "EARSHOT_PODCASTINDEX_SECRET": "s"]
        let status = try await Self.serving(["serve", "--port", "0", "--data", dir.path, "--no-demo",
                                             "--itunes-url", directory.baseURL.absoluteString], environment: environment) { url in
            for (provider, title) in [("itunes", "LINUX Unplugged"), ("podcastindex", "Linux Voice")] {
                let port = try #require(url.port)
                let data = try await RawHTTP.request(port: port, path: "/api/directory/search?q=linux&provider=\(provider)").0.body
                let results = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["results"] as? [[String: Any]],
                                           "\(String(decoding: data, as: UTF8.self))")
                #expect(results.first?["title"] as? String == title, "\(provider)")
            }
        }
        #expect(status == 0)
        #expect(directory.requests.contains { $0.target.hasPrefix("/pi/api/1.0/search/byterm?") && $0.header("x-auth-key") == "k" })
        let refused = try await Self.run(["serve", "--port", "0", "--data", dir.path, "--itunes-url", "ftp://example.org"])
        #expect(refused.status == 2 && refused.err.contains("--itunes-url must be an http or https address"), "\(refused.err)")
    }

    static let conformance = ServerHarness.repository.deletingLastPathComponent().appendingPathComponent("shared/conformance")

    @Test("parse --json speaks podcastparser's schema; --timing prints the parse time; junk fails clearly")
    func parse() async throws {
        let feed = Self.conformance.appendingPathComponent("podcastparser/episode_podcast_person.rss")
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: feed.deletingPathExtension().appendingPathExtension("json"))) as? [String: Any])
        let run = try await Self.run(["parse", feed.path, "--json"])
        #expect(run.status == 0, "\(run.err)")
        let got = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        // Every key podcastparser has, with its value; Earshot's extras ride along under "earshot".
        func same(_ a: Any?, _ b: Any) -> Bool { a.map { NSDictionary(dictionary: ["v": $0]) } == NSDictionary(dictionary: ["v": b]) }
        for (key, value) in expected where key != "episodes" { #expect(same(got[key], value), "\(key)") }
        let gotEpisodes = try #require(got["episodes"] as? [[String: Any]])
        let expectedEpisodes = try #require(expected["episodes"] as? [[String: Any]])
        #expect(gotEpisodes.count == expectedEpisodes.count)
        for (mine, theirs) in zip(gotEpisodes, expectedEpisodes) {
            for (key, value) in theirs { #expect(same(mine[key], value), "episode \(key)") }
            #expect(mine["earshot"] is [String: Any], "Earshot's own fields ride along")
        }
        #expect(got["earshot"] is [String: Any])

        let timing = try await Self.run(["parse", feed.path, "--timing", "--repeat", "3"])
        #expect(timing.status == 0)
        #expect(timing.out.range(of: #"^parse_ms=[0-9]+\.[0-9]{3} items=1\n$"#, options: .regularExpression) != nil, "\(timing.out)")

        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try Data("<html><body>not a feed</body></html>".utf8).write(to: dir.file("page.html"))
        let junk = try await Self.run(["parse", dir.file("page.html").path])
        #expect(junk.status == 1)
        #expect(junk.err.contains("is not a feed Earshot can read"))
        let missing = try await Self.run(["parse", dir.file("nothing.xml").path])
        #expect(missing.status == 1)
        #expect(missing.err.contains("cannot read"))
    }

    @Test("import FILE, export and refresh work on the library with no server")
    func opmlAndRefresh() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fixture = try FixtureHTTPServer()
        defer { fixture.stop() }
        fixture.set("/a.xml", body: SubscriptionTests.feed(audioURL: fixture.url("/a.wav"), title: "Show A"))
        fixture.set("/b.xml", body: SubscriptionTests.feed(audioURL: fixture.url("/b.wav"), title: "Show B"))
        let opml = """
            <?xml version="1.0"?><opml version="2.0"><head><title>x</title></head><body>
            <outline text="folder"><outline text="A" type="rss" xmlUrl="\(fixture.url("/a.xml").absoluteString)"/></outline>
            <outline text="B" type="rss" xmlUrl="\(fixture.url("/b.xml").absoluteString)"/>
            <outline text="dead" type="rss" xmlUrl="\(fixture.url("/dead.xml").absoluteString)"/>
            </body></opml>
            """
        try Data(opml.utf8).write(to: dir.file("subs.opml"))
        let imported = try await Self.run(["import", dir.file("subs.opml").path, "--data", dir.path])
        #expect(imported.status == 3, "some failed: \(imported.out)")
        #expect(imported.out.contains("3 found, 2 added, 0 already subscribed, 1 failed"))

        let exported = try await Self.run(["export", "--data", dir.path])
        #expect(exported.status == 0)
        #expect(exported.out.contains("xmlUrl=\"\(fixture.url("/a.xml").absoluteString)\""))
        #expect(exported.out.contains("text=\"Show B\""))
        #expect(!exported.out.contains("dead.xml"))

        let refreshed = try await Self.run(["refresh", "--data", dir.path])
        #expect(refreshed.status == 0, "\(refreshed.out) \(refreshed.err)")
        #expect(refreshed.out.contains("2 feeds refreshed, 0 failed"))
        fixture.set("/b.xml", status: 410, body: Data("gone".utf8))
        let gone = try await Self.run(["refresh", "--data", dir.path])
        #expect(gone.status == 3)
        #expect(gone.out.contains("failed  Show B"))

        try Data("not opml".utf8).write(to: dir.file("junk.opml"))
        let junk = try await Self.run(["import", dir.file("junk.opml").path, "--data", dir.path])
        #expect(junk.status == 1)
        #expect(junk.err.contains("nothing was imported"))
    }
}
