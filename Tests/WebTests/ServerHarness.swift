import EarshotCore
import Foundation
import Library
import Playback
import TestSupport
import Testing
@testable import Web

/// A real Earshot server on an ephemeral loopback port: real SQLite, real mpv (`ao=null`),
/// the repository's own Public/ and Templates/.
struct ServerHarness {
    let directory: TemporaryDirectory
    let ownsDirectory: Bool
    let store: LibraryStore
    let engine: PlaybackEngine
    let server: EarshotServer
    let podcast: Podcast
    let episodes: [Episode]

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    var port: Int { server.port }

    /// `libraryAt`: a folder the caller keeps (and removes), so a second server opens the same
    /// library as after a restart; by default a fresh folder removed at `stop()`.
    static func start(libraryAt kept: TemporaryDirectory? = nil,
                      configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> ServerHarness {
        let directory = kept ?? TemporaryDirectory()
        let audio = try GeneratedAudio.writeWAV(to: directory.file("tone.wav"), seconds: 60)
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let podcast = try await store.subscribe(feedURL: "http://127.0.0.1/test.xml", content: FeedContent(
            title: "Test Tones <b>&amp; friends</b>", author: "Harness", items: [
                FeedItem(guid: "a", title: "First tone", summary: "Notes with <script>alert(1)</script>",
                         enclosureURL: audio.path, duration: 60, published: Date(timeIntervalSince1970: 1_780_000_000)),
                FeedItem(guid: "b", title: "Second tone", enclosureURL: audio.path, duration: 60,
                         published: Date(timeIntervalSince1970: 1_770_000_000)),
            ]))
        let episodes = try await store.episodes(podcastID: podcast.id)
        let engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store)
        await engine.start()
        var configuration = ServerConfiguration(port: 0, publicDirectory: repository.appendingPathComponent("Public"),
                                                templatesDirectory: repository.appendingPathComponent("Templates"))
        // No test reaches the internet: a directory no test set up refuses at once (port 9 on loopback
        // listens to nobody), where the real ones took their 8 s timeout here, unreachable.
        for provider in DirectoryProvider.allCases { configuration.directoryBaseURLs[provider] = "http://127.0.0.1:9" }
        configure(&configuration)
        let server = try EarshotServer(configuration: configuration, store: store, engine: engine)
        try await server.start()
        return ServerHarness(directory: directory, ownsDirectory: kept == nil, store: store, engine: engine, server: server,
                             podcast: podcast, episodes: episodes)
    }

    /// Runs `body` against a fresh server and always stops it, even when the body throws.
    static func with(libraryAt kept: TemporaryDirectory? = nil, configure: (inout ServerConfiguration) -> Void = { _ in },
                     _ body: (ServerHarness) async throws -> Void) async throws {
        let h = try await start(libraryAt: kept, configure: configure)
        do { try await body(h) } catch { await h.stop(); throw error }
        await h.stop()
    }

    func stop() async {
        server.stop()
        await engine.shutdown()
        if ownsDirectory { directory.remove() }
    }

    /// GET/POST with the server's own Host, no Origin, unless told otherwise.
    func http(_ path: String, method: String = "GET", headers: [String: String] = [:], body: Data = Data()) async throws -> RawHTTP.Response {
        try await RawHTTP.request(port: port, method: method, path: path, headers: headers, body: body).0
    }

    func json(_ path: String) async throws -> [String: Any] {
        let response = try await http(path)
        try #require(response.status == 200, "\(path): \(response.status) \(response.text)")
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    func socket(origin: String? = nil) async throws -> TestWebSocket {
        try await TestWebSocket.connect(port: port, origin: origin ?? "http://127.0.0.1:\(port)")
    }
}

extension TestWebSocket {
    /// Sends `command` (the frame's fields after `"id"`, e.g. `"cmd":"play","episode":3`) with `id`
    /// and returns its reply (`ack` or `error`), skipping the broadcasts in between.
    func reply(_ id: Int, _ command: String) async throws -> [String: Any] {
        try await send(#"{"id":\#(id),\#(command)}"#)
        return try await receive { ($0["type"] as? String == "ack" || $0["type"] as? String == "error") && $0["id"] as? Int == id }
    }
}
