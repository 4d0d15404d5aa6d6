import Downloads
import EarshotCore
import Foundation
import Library
import Playback
import TestSupport
import Testing
@testable import Web

/// A real Earshot server with downloads on: real SQLite, real mpv (`ao=null`), a fixture HTTP
/// server on loopback serving generated audio, the engine's media resolver asking the download
/// manager for a local file first (as `earshot serve` wires it).
struct DownloadServer {
    let directory: TemporaryDirectory
    let media: FixtureHTTPServer
    let store: LibraryStore
    let downloads: DownloadManager
    let engine: PlaybackEngine
    let server: EarshotServer
    let episodes: [Episode]
    let audio: Data

    var port: Int { server.port }

    static func start() async throws -> DownloadServer {
        let directory = TemporaryDirectory()
        let media = try FixtureHTTPServer()
        let wav = try GeneratedAudio.writeWAV(to: directory.file("tone.wav"), seconds: 30)
        let audio = try Data(contentsOf: wav)
        media.set("/tone.wav", FixtureHTTPServer.Response(status: 200, headers: ["Content-Type": "audio/wav", "ETag": "\"t1\""], body: audio))
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let podcast = try await store.subscribe(feedURL: media.url("/feed.xml").absoluteString, content: FeedContent(
            title: "Offline", items: [
                FeedItem(guid: "a", title: "Tone", enclosureURL: media.url("/tone.wav").absoluteString,
                         enclosureType: "audio/wav", duration: 30, published: Date(timeIntervalSince1970: 1_780_000_000)),
                FeedItem(guid: "b", title: "Missing", enclosureURL: media.url("/missing.mp3").absoluteString,
                         published: Date(timeIntervalSince1970: 1_770_000_000)),
            ]))
        var configuration = DownloadManager.Configuration(folder: directory.url.appendingPathComponent("downloads"))
        configuration.reserveBytes = 0
        configuration.retry = DownloadRetry(delays: [])
        configuration.publishInterval = 0.1
        let downloads = DownloadManager(store: store, configuration: configuration)
        let localFiles = downloads.localFiles
        let engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store) { url in
            localFiles.path(forMediaURL: url) ?? url
        }
        await engine.start()
        let server = try EarshotServer(configuration: ServerConfiguration(
            port: 0, publicDirectory: ServerHarness.repository.appendingPathComponent("Public"),
            templatesDirectory: ServerHarness.repository.appendingPathComponent("Templates")),
            store: store, engine: engine, downloads: downloads, refreshSchedule: nil)
        try await server.start()
        await downloads.start()
        return DownloadServer(directory: directory, media: media, store: store, downloads: downloads, engine: engine,
                              server: server, episodes: try await store.episodes(podcastID: podcast.id), audio: audio)
    }

    static func with(_ body: (DownloadServer) async throws -> Void) async throws {
        let s = try await start()
        do { try await body(s) } catch { await s.stop(); throw error }
        await s.stop()
    }

    func stop() async {
        server.stop()
        await downloads.shutdown()
        await engine.shutdown()
        media.stop()
        directory.remove()
    }

    func socket() async throws -> TestWebSocket {
        try await TestWebSocket.connect(port: port, origin: "http://127.0.0.1:\(port)")
    }

    /// Sends a command and returns its reply (`ack` or `error`).
    func command(_ ws: TestWebSocket, _ id: Int, _ json: String) async throws -> [String: Any] {
        try await ws.send(#"{"id":\#(id),\#(json)}"#)
        return try await ws.receive { ($0["type"] as? String == "ack" || $0["type"] as? String == "error") && $0["id"] as? Int == id }
    }

    /// The next `downloads` message whose item for `episode` satisfies `match`.
    func downloads(_ ws: TestWebSocket, episode: Int64, timeout: Double = 15,
                   _ match: @escaping ([String: Any]) -> Bool) async throws -> [String: Any] {
        try await ws.receive(timeout: timeout) { message in
            guard message["type"] as? String == "downloads", let items = message["items"] as? [[String: Any]],
                  let item = items.first(where: { ($0["episode"] as? Int).map(Int64.init) == episode }) else { return false }
            return match(item)
        }
    }
}

@Suite("Downloads through the server", .serialized)
struct DownloadServerTests {
    @Test("download over the socket: ack, live downloads messages to every client, GET /api/downloads")
    func overTheSocket() async throws {
        try await DownloadServer.with { s in
            let ws = try await s.socket()
            let watcher = try await s.socket()
            let first = try await watcher.receive { $0["type"] as? String == "downloads" }
            #expect((first["items"] as? [Any])?.isEmpty == true, "every client gets the downloads on connect")
            let id = s.episodes[0].id
            #expect(try await s.command(ws, 1, #""cmd":"download","episode":\#(id)"#)["type"] as? String == "ack")
            let done = try await s.downloads(watcher, episode: id) { $0["state"] as? String == "done" }
            let summary = try #require(done["summary"] as? [String: Any])
            #expect(summary["label"] as? String == "1 of 1 downloaded, 100 %")
            let api = try await RawHTTP.request(port: s.port, path: "/api/downloads").0
            #expect(api.status == 200)
            let body = try #require(try JSONSerialization.jsonObject(with: api.body) as? [String: Any])
            let item = try #require((body["items"] as? [[String: Any]])?.first)
            #expect(item["episode"] as? Int == Int(id) && item["state"] as? String == "done" && item["title"] as? String == "Tone")
            #expect(item["bytes"] as? Int == s.audio.count)

            let error = try await s.command(ws, 2, #""cmd":"download","episode":\#(id)"#)
            #expect(error["message"] as? String == "already downloaded")
            let missing = try await s.command(ws, 3, #""cmd":"download","episode":\#(s.episodes[1].id)"#)
            #expect(missing["type"] as? String == "ack")
            let failed = try await s.downloads(watcher, episode: s.episodes[1].id) { $0["state"] as? String == "failed" }
            let failedItem = (failed["items"] as? [[String: Any]])?.first { $0["state"] as? String == "failed" }
            #expect(failedItem?["error"] as? String == "the server answered 404 Not Found")
            #expect(try await s.command(ws, 4, #""cmd":"download.delete","episode":\#(id)"#)["type"] as? String == "ack")
            _ = try await watcher.receive { ($0["items"] as? [[String: Any]])?.count == 1 }
            #expect(try await RawHTTP.request(port: s.port, method: "POST", path: "/api/downloads").0.status == 405)
            #expect(try await RawHTTP.request(port: s.port, path: "/downloads").0.status == 200, "the Downloads page")
        }
    }

    @Test("a downloaded episode plays from its file with the network gone, from where the listener left off")
    func offline() async throws {
        try await DownloadServer.with { s in
            let episode = s.episodes[0]
            // Listened to 7 s of it while streaming.
            try await s.store.savePosition(episodeID: episode.id, position: 7)
            try await s.downloads.handle(.download(episode: episode.id))
            var deadline = Date().addingTimeInterval(15)
            while await s.downloads.item(episode.id)?.state != .done, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let local = try #require(s.downloads.localFiles.path(forMediaURL: episode.mediaURL))
            #expect(try Data(contentsOf: URL(fileURLWithPath: local)) == s.audio)
            s.media.stop() // the network is gone
            let before = s.media.requests.count

            let ws = try await s.socket()
            #expect(try await s.command(ws, 1, #""cmd":"play","episode":\#(episode.id)"#)["type"] as? String == "ack")
            let playing = try await ws.receive(timeout: 10) {
                $0["type"] as? String == "state" && $0["buffering"] as? Bool == false && $0["paused"] as? Bool == false
                    && $0["episode"] is [String: Any]
            }
            #expect(playing["error"] is NSNull)
            let start = try #require(playing["position"] as? Double)
            #expect(start >= 6.9 && start < 8.5, "resumed at \(start)")
            deadline = Date().addingTimeInterval(10)
            var position = start
            while position < start + 1.5, Date() < deadline {
                let time = try await ws.receive(timeout: 5) { $0["type"] as? String == "time" }
                position = time["position"] as? Double ?? position
            }
            #expect(position >= start + 1.5, "it plays: \(start) → \(position)")
            #expect(s.media.requests.count == before, "nothing was fetched")
        }
    }

    @Test("without a download manager, download commands say downloads are off")
    func off() async throws {
        try await ServerHarness.with { h in
            let ws = try await h.socket()
            try await ws.send(#"{"id":1,"cmd":"download","episode":\#(h.episodes[0].id)}"#)
            let reply = try await ws.receive { $0["id"] as? Int == 1 }
            #expect(reply["message"] as? String == "downloads are off on this server")
            #expect(try await h.http("/api/downloads").status == 404)
        }
    }

    @Test("a slow client's outbox keeps only the newest downloads message, replies and state untouched")
    func outbox() {
        var box = SocketOutbox()
        box.push(.init(kind: .downloads, text: "d1"))
        box.push(.init(kind: .other, text: "ack1"))
        box.push(.init(kind: .downloads, text: "d2"))
        box.push(.init(kind: .state, text: "s1"))
        #expect(box.messages.map(\.text) == ["ack1", "d2", "s1"])
        box.push(.init(kind: .state, text: "s2"))
        #expect(box.messages.map(\.text) == ["ack1", "d2", "s2"], "a state leaves the downloads alone")
    }
}
