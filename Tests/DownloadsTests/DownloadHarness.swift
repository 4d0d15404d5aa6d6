@testable import Downloads
import EarshotCore
import Foundation
@testable import Library
import TestSupport
import Testing

/// A real library (SQLite file), a real HTTP server on loopback serving the episodes, and a
/// download manager writing into a temporary folder. Retries wait 50 ms instead of seconds.
struct DownloadHarness {
    let directory: TemporaryDirectory
    let store: LibraryStore
    let server: FixtureHTTPServer
    let manager: DownloadManager
    let podcast: Podcast
    /// Newest first, as the library lists them; episode `i` is served at `/audio/<i>.mp3`.
    let episodes: [Episode]

    static let fastRetry = DownloadRetry(delays: [0.05, 0.05, 0.05])

    var folder: URL { directory.url.appendingPathComponent("downloads") }

    /// `count` episodes (each's enclosure on the fixture server; `lengths[i]` as the feed's length).
    static func start(episodes count: Int = 1, lengths: [Int64] = [], reserve: Int64 = 0,
                      configure: (inout DownloadManager.Configuration) -> Void = { _ in }) async throws -> DownloadHarness {
        let directory = TemporaryDirectory(prefix: "earshot-downloads")
        let server = try FixtureHTTPServer()
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let items = (0..<count).map { i in
            FeedItem(guid: "e\(i)", title: "Episode \(i)", enclosureURL: server.url("/audio/\(i).mp3").absoluteString,
                     enclosureType: "audio/mpeg", enclosureLength: i < lengths.count ? lengths[i] : 0,
                     published: Date(timeIntervalSince1970: 1_700_000_000 + Double(count - i) * 86_400))
        }
        let podcast = try await store.subscribe(feedURL: server.url("/feed.xml").absoluteString,
                                                content: FeedContent(title: "Downloads Test", items: items))
        let manager = makeManager(store: store, directory: directory, reserve: reserve, configure: configure)
        await manager.start()
        let episodes = try await store.episodes(podcastID: podcast.id)
        return DownloadHarness(directory: directory, store: store, server: server, manager: manager,
                               podcast: podcast, episodes: episodes)
    }

    static func makeManager(store: LibraryStore, directory: TemporaryDirectory, reserve: Int64 = 0,
                            configure: (inout DownloadManager.Configuration) -> Void = { _ in }) -> DownloadManager {
        var configuration = DownloadManager.Configuration(folder: directory.url.appendingPathComponent("downloads"))
        configuration.retry = fastRetry
        configuration.reserveBytes = reserve
        configuration.publishInterval = 0.05
        configure(&configuration)
        return DownloadManager(store: store, configuration: configuration)
    }

    /// Runs `body` against a fresh harness and always stops it.
    static func with(episodes: Int = 1, lengths: [Int64] = [], reserve: Int64 = 0,
                     configure: (inout DownloadManager.Configuration) -> Void = { _ in },
                     _ body: (DownloadHarness) async throws -> Void) async throws {
        let h = try await start(episodes: episodes, lengths: lengths, reserve: reserve, configure: configure)
        do { try await body(h) } catch { await h.stop(); throw error }
        await h.stop()
    }

    func stop() async {
        await manager.shutdown()
        server.stop()
        directory.remove()
    }

    /// The episode served at `/audio/<index>.mp3`.
    func episode(_ index: Int) -> Episode {
        episodes.first { $0.guid == "e\(index)" }!
    }

    func path(_ index: Int) -> String { "/audio/\(index).mp3" }

    /// Sends a command and expects it to be accepted.
    func command(_ command: DownloadCommand) async throws {
        do { try await manager.handle(command) } catch { Issue.record("\(command) refused: \(error.message)"); throw error }
    }

    func download(_ index: Int) async throws { try await command(.download(episode: episode(index).id)) }

    /// Waits (up to `timeout` seconds) until episode `index`'s download satisfies `condition`; returns it.
    @discardableResult
    func wait(_ index: Int, timeout: Double = 20, _ what: String = "",
              until condition: @escaping (DownloadItem) -> Bool) async throws -> DownloadItem {
        let id = episode(index).id
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let item = await manager.item(id), condition(item) { return item }
            try await Task.sleep(for: .milliseconds(10))
        }
        let last = await manager.item(id)
        Issue.record("timed out waiting for \(what): \(String(describing: last))")
        throw CancellationError()
    }

    func waitForState(_ index: Int, _ state: DownloadState, timeout: Double = 20) async throws -> DownloadItem {
        try await wait(index, timeout: timeout, "\(state)") { $0.state == state }
    }

    /// The finished file's bytes.
    func file(_ item: DownloadItem) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(item.file))
    }

    func partSize(_ item: DownloadItem) -> Int64? {
        PartFile.size(atPath: folder.appendingPathComponent(item.file + ".part").path)
    }

    /// The requests the server saw for episode `index`'s file.
    func requests(_ index: Int) -> [FixtureHTTPServer.Request] {
        server.requests.filter { $0.target == path(index) }
    }

    /// `bytes` seeded random bytes: an "episode" no two tests share by accident.
    static func audio(_ bytes: Int, seed: UInt64) -> Data {
        var generator = SplitMix64(seed: seed)
        var data = Data(count: bytes)
        data.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for i in words.indices { words[i] = generator.next() }
            for i in (words.count * 8)..<bytes { raw[i] = UInt8(truncatingIfNeeded: generator.next()) }
        }
        // Start like an MP3 frame: nothing in these tests should look like a page by accident.
        data[0] = 0xFF; data[1] = 0xFB
        return data
    }
}

extension FixtureHTTPServer.Response {
    /// Audio with a strong ETag, optionally slowed or cut off.
    static func audio(_ body: Data, etag: String? = "\"v1\"", lastModified: String? = nil, delay: TimeInterval = 0,
                      chunk: Int = 64 * 1024, dropAfter: Int? = nil, ignoresRange: Bool = false) -> Self {
        var headers = ["Content-Type": "audio/mpeg"]
        if let etag { headers["ETag"] = etag }
        if let lastModified { headers["Last-Modified"] = lastModified }
        return Self(status: 200, headers: headers, body: body, chunkDelay: delay, chunkSize: chunk,
                    ignoresRange: ignoresRange, dropAfter: dropAfter)
    }
}
