@testable import Downloads
import EarshotCore
import Foundation
import TestSupport
import Testing

/// Downloads that must fail, each with a reason a listener can act on, and never leave a file
/// that looks like an episode.
@Suite("Downloads that fail clearly", .serialized)
struct DownloadFailureTests {
    @Test("an HTML page served as text/html fails and leaves nothing behind")
    func htmlByType() async throws {
        try await DownloadHarness.with { h in
            h.server.set(h.path(0), FixtureHTTPServer.Response(text: "<!doctype html><p>Please log in</p>", contentType: "text/html"))
            try await h.download(0)
            let failed = try await h.waitForState(0, .failed)
            #expect(failed.error?.contains("web page") == true, "\(failed.error ?? "")")
            #expect(!FileManager.default.fileExists(atPath: h.folder.appendingPathComponent(failed.file).path))
            #expect(h.localPath(for: 0) == nil)
        }
    }

    @Test("an HTML page served as audio/mpeg is caught by its first bytes")
    func htmlSniffed() async throws {
        try await DownloadHarness.with { h in
            let page = Data(("\u{FEFF}\n  <!DOCTYPE html><html><body>" + String(repeating: "parked domain ", count: 3_000)).utf8)
            h.server.set(h.path(0), FixtureHTTPServer.Response(status: 200, headers: ["Content-Type": "audio/mpeg"], body: page))
            try await h.download(0)
            let failed = try await h.waitForState(0, .failed)
            #expect(failed.error?.contains("web page") == true)
            #expect(h.partSize(failed) == nil, "the page is not kept as a partial file")
            #expect(!FileManager.default.fileExists(atPath: h.folder.appendingPathComponent(failed.file).path))
        }
    }

    @Test("404 fails at once, with the status")
    func notFound() async throws {
        try await DownloadHarness.with { h in
            try await h.download(0) // no route: the fixture answers 404
            let failed = try await h.waitForState(0, .failed)
            #expect(failed.error == "the server answered 404 Not Found")
            #expect(h.requests(0).count == 1, "a 404 is not retried")
        }
    }

    @Test("503 is retried on the backoff schedule, then fails")
    func unavailable() async throws {
        try await DownloadHarness.with { h in
            h.server.set(h.path(0), FixtureHTTPServer.Response(status: 503, text: "busy"))
            try await h.download(0)
            let failed = try await h.waitForState(0, .failed)
            #expect(failed.error?.contains("503") == true)
            #expect(h.requests(0).count == 1 + DownloadHarness.fastRetry.delays.count)
            #expect(failed.attempts == 4)
        }
    }

    @Test("a body without Content-Length that is shorter than the feed's length fails the size check")
    func sizeMismatch() async throws {
        try await DownloadHarness.with(lengths: [2_000_000]) { h in
            let body = DownloadHarness.audio(1_500_000, seed: 30)
            h.server.set(h.path(0), FixtureHTTPServer.Response(status: 200, headers: ["Content-Type": "audio/mpeg"], body: body,
                                                               omitsContentLength: true))
            try await h.download(0)
            let failed = try await h.waitForState(0, .failed)
            #expect(failed.error?.contains("the feed says 2000000 bytes") == true, "\(failed.error ?? "")")
            #expect(!FileManager.default.fileExists(atPath: h.folder.appendingPathComponent(failed.file).path))
        }
    }

    @Test("the same body with the feed's length right is accepted")
    func sizeMatchesFeed() async throws {
        try await DownloadHarness.with(lengths: [1_500_000]) { h in
            let body = DownloadHarness.audio(1_500_000, seed: 31)
            h.server.set(h.path(0), FixtureHTTPServer.Response(status: 200, headers: ["Content-Type": "audio/mpeg"], body: body,
                                                               omitsContentLength: true))
            try await h.download(0)
            let done = try await h.waitForState(0, .done)
            #expect(try h.file(done) == body)
        }
    }

    @Test("a redirect to a file: address is refused")
    func redirectToFile() async throws {
        try await DownloadHarness.with { h in
            h.server.set(h.path(0), FixtureHTTPServer.Response(status: 302, headers: ["Location": "file:///etc/passwd"]))
            try await h.download(0)
            let failed = try await h.waitForState(0, .failed)
            #expect(failed.error?.contains("not an http(s) address") == true, "\(failed.error ?? "")")
            #expect(!FileManager.default.fileExists(atPath: h.folder.appendingPathComponent(failed.file).path))
        }
    }

    @Test("too little disk space: a clear error before any byte, and the partial file is kept for later")
    func diskSpace() async throws {
        let body = DownloadHarness.audio(1_000_000, seed: 32)
        let h = try await DownloadHarness.start()
        h.server.set(h.path(0), .audio(body, delay: 0.05))
        try await h.download(0)
        try await h.wait(0, "some bytes") { $0.bytes >= 300_000 }
        try await h.command(.cancel(episode: h.episode(0).id))
        _ = try await h.waitForState(0, .paused)
        await h.manager.shutdown()
        let paused = try #require(await h.manager.item(h.episode(0).id))
        let partial = try #require(h.partSize(paused))
        #expect(partial >= 300_000 && partial < 1_000_000)

        // The same library and folder, now on a "full" disk: everything but an exabyte must stay free.
        let full = DownloadHarness.makeManager(store: h.store, directory: h.directory, reserve: 1 << 60)
        await full.start()
        h.server.set(h.path(0), .audio(body))
        try await full.handle(.download(episode: h.episode(0).id))
        let failed = try #require(await full.item(h.episode(0).id))
        #expect(failed.state == .failed)
        #expect(failed.error?.hasPrefix("not enough disk space") == true, "\(failed.error ?? "")")
        #expect(h.partSize(failed) == partial, "the partial file stays")
        let before = h.requests(0).count
        try await Task.sleep(for: .milliseconds(200))
        #expect(h.requests(0).count == before, "nothing was fetched")
        await full.shutdown()
        h.server.stop()
        h.directory.remove()
    }

    @Test("an episode whose address is not http(s) cannot be downloaded")
    func localAddress() async throws {
        try await DownloadHarness.with { h in
            let demo = try await h.store.subscribe(feedURL: "/demo/feed.xml", content: FeedContent(title: "Demo", items: [
                FeedItem(guid: "d", title: "Local", enclosureURL: "/demo/audio/01.mp3"),
            ]))
            let id = try #require(try await h.store.episodes(podcastID: demo.id).first?.id)
            await #expect(throws: CommandError("cannot download Local: its address is not http(s)")) {
                try await h.manager.handle(.download(episode: id))
            }
            await #expect(throws: CommandError("no episode with id 999999")) {
                try await h.manager.handle(.download(episode: 999_999))
            }
        }
    }
}
