@testable import Downloads
import EarshotCore
import Foundation
import TestSupport
import Testing

/// Downloads that must end with a file byte-for-byte the same as the server's, whatever happens on the way.
@Suite("Downloads that succeed", .serialized)
struct DownloadResumeTests {
    @Test("a plain download lands whole in <podcast>/<episode>.mp3, no .part left, the player finds it")
    func plain() async throws {
        try await DownloadHarness.with { h in
            let body = DownloadHarness.audio(2_000_000, seed: 1)
            h.server.set(h.path(0), .audio(body))
            try await h.download(0)
            let done = try await h.waitForState(0, .done)
            #expect(try h.file(done) == body)
            #expect(done.file == "\(h.podcast.id)/\(h.episode(0).id).mp3")
            #expect(h.partSize(done) == nil)
            #expect(done.bytes == 2_000_000 && done.total == 2_000_000)
            let local = h.localPath(for: 0)
            #expect(local == h.folder.appendingPathComponent(done.file).standardizedFileURL.path)
            await h.manager.flush()
            #expect(try await h.store.download(episodeID: h.episode(0).id)?.state == .done, "the library knows")
        }
    }

    @Test("cancel keeps the partial file; download again continues with Range + If-Range from its size")
    func cancelAndResume() async throws {
        try await DownloadHarness.with { h in
            let body = DownloadHarness.audio(1_500_000, seed: 2)
            h.server.set(h.path(0), .audio(body, delay: 0.05))
            try await h.download(0)
            try await h.wait(0, "some bytes") { $0.bytes > 300_000 }
            try await h.command(.cancel(episode: h.episode(0).id))
            let paused = try await h.waitForState(0, .paused)
            try await Task.sleep(for: .milliseconds(300)) // the transfer lets go of the file
            let partial = try #require(h.partSize(paused))
            #expect(partial > 0 && partial < 1_500_000)
            h.server.set(h.path(0), .audio(body))
            try await h.download(0)
            let done = try await h.waitForState(0, .done)
            #expect(try h.file(done) == body)
            let resumed = try #require(h.requests(0).last)
            #expect(resumed.header("range") == "bytes=\(partial)-")
            #expect(resumed.header("if-range") == "\"v1\"")
        }
    }

    @Test("a connection that breaks off mid-body is retried from where it broke")
    func droppedConnection() async throws {
        try await DownloadHarness.with { h in
            let body = DownloadHarness.audio(1_200_000, seed: 3)
            h.server.set(h.path(0), sequence: [.audio(body, dropAfter: 700_000), .audio(body)])
            try await h.download(0)
            let done = try await h.waitForState(0, .done)
            #expect(try h.file(done) == body)
            let seen = h.requests(0)
            #expect(seen.count == 2)
            #expect(seen.first?.header("range") == nil)
            #expect(seen.last?.header("range") == "bytes=700000-")
        }
    }

    @Test("a server that answers a Range request with 200 gets the whole file written from the start")
    func rangeIgnored() async throws {
        try await DownloadHarness.with { h in
            let body = DownloadHarness.audio(1_000_000, seed: 4)
            h.server.set(h.path(0), sequence: [.audio(body, dropAfter: 400_000), .audio(body, ignoresRange: true)])
            try await h.download(0)
            let done = try await h.waitForState(0, .done)
            #expect(try h.file(done) == body, "no splice of 400 KB + the whole file")
            #expect(h.requests(0).last?.header("range") == "bytes=400000-")
        }
    }

    @Test("a file changed on the server (new ETag) is downloaded afresh, never spliced onto the old one")
    func changedFile() async throws {
        try await DownloadHarness.with { h in
            let old = DownloadHarness.audio(1_000_000, seed: 5)
            let new = DownloadHarness.audio(1_100_000, seed: 6)
            h.server.set(h.path(0), sequence: [.audio(old, etag: "\"v1\"", dropAfter: 500_000), .audio(new, etag: "\"v2\"")])
            try await h.download(0)
            let done = try await h.waitForState(0, .done)
            #expect(try h.file(done) == new)
            #expect(h.requests(0).last?.header("if-range") == "\"v1\"", "asked for the old version's rest")
        }
    }

    @Test("a weak ETag is no validator: the retry starts from byte 0 without Range")
    func weakETag() async throws {
        try await DownloadHarness.with { h in
            let body = DownloadHarness.audio(900_000, seed: 7)
            h.server.set(h.path(0), sequence: [.audio(body, etag: "W/\"weak\"", dropAfter: 300_000), .audio(body, etag: "W/\"weak\"")])
            try await h.download(0)
            let done = try await h.waitForState(0, .done)
            #expect(try h.file(done) == body)
            let last = try #require(h.requests(0).last)
            #expect(last.header("range") == nil && last.header("if-range") == nil)
        }
    }

    @Test("Last-Modified alone is a validator: If-Range carries the date")
    func lastModified() async throws {
        try await DownloadHarness.with { h in
            let body = DownloadHarness.audio(900_000, seed: 8)
            let date = "Tue, 03 Mar 2026 10:00:00 GMT"
            h.server.set(h.path(0), sequence: [.audio(body, etag: nil, lastModified: date, dropAfter: 300_000),
                                               .audio(body, etag: nil, lastModified: date)])
            try await h.download(0)
            let done = try await h.waitForState(0, .done)
            #expect(try h.file(done) == body)
            let last = try #require(h.requests(0).last)
            #expect(last.header("range") == "bytes=300000-" && last.header("if-range") == date)
        }
    }

    @Test("redirects are followed; the redirect's own body is not kept")
    func redirect() async throws {
        try await DownloadHarness.with { h in
            let body = DownloadHarness.audio(300_000, seed: 9)
            // With a body of its own, as many servers send: it must not end up in the file.
            h.server.set(h.path(0), FixtureHTTPServer.Response(status: 302, headers: ["Location": "/cdn/real.mp3"],
                                                               body: Data("<html>Moved</html>".utf8)))
            h.server.set("/cdn/real.mp3", .audio(body))
            try await h.download(0)
            let done = try await h.waitForState(0, .done)
            #expect(try h.file(done) == body)
        }
    }

    @Test("at most `concurrency` downloads run at once; the rest wait their turn")
    func concurrency() async throws {
        try await DownloadHarness.with(episodes: 5) { h in
            let bodies = (0..<5).map { DownloadHarness.audio(400_000, seed: 20 + UInt64($0)) }
            for i in 0..<5 { h.server.set(h.path(i), .audio(bodies[i], delay: 0.03)) }
            for i in 0..<5 { try await h.download(i) }
            var most = 0
            for _ in 0..<40 {
                let running = await h.manager.message().items.filter { $0.state == .downloading }.count
                most = max(most, running)
                try await Task.sleep(for: .milliseconds(25))
            }
            for i in 0..<5 {
                let done = try await h.waitForState(i, .done)
                #expect(try h.file(done) == bodies[i])
            }
            #expect(most == 2)
            #expect(h.server.maxConcurrentRequests == 2)
        }
    }
}

extension DownloadHarness {
    func localPath(for index: Int) -> String? {
        manager.localFiles.path(forMediaURL: episode(index).mediaURL)
    }
}
