@testable import Downloads
@testable import EarshotCore // fixtures: stored rows built field by field
import Foundation
@testable import Library
import TestSupport
import Testing

/// Restarts, progress messages, deleting, and the two policies.
@Suite("The download manager over time", .serialized)
struct DownloadLifecycleTests {
    @Test("at start: an interrupted download resumes from its partial file, orphaned .part files go, missing files are forgotten")
    func recovery() async throws {
        let h = try await DownloadHarness.start(episodes: 3)
        let body = DownloadHarness.audio(1_000_000, seed: 40)
        h.server.set(h.path(0), .audio(body, delay: 0.05))
        h.server.set(h.path(1), .audio(DownloadHarness.audio(100_000, seed: 41)))
        try await h.download(1)
        let finished = try await h.waitForState(1, .done)
        try await h.download(0)
        try await h.wait(0, "some bytes") { $0.bytes >= 200_000 }
        await h.manager.flush()
        // As after a crash: the transfer is gone mid-way, its row still says downloading.
        await h.manager.shutdown()
        try await Task.sleep(for: .milliseconds(200))
        let stored = try #require(try await h.store.download(episodeID: h.episode(0).id))
        #expect(stored.state == .downloading && stored.etag == "\"v1\"")
        let partial = try #require(h.partSize(stored))
        // An orphan (no download claims it), and the finished file removed behind our back.
        let orphan = h.folder.appendingPathComponent("\(h.podcast.id)/999.mp3.part")
        try Data("leftover".utf8).write(to: orphan)
        try FileManager.default.removeItem(at: h.folder.appendingPathComponent(finished.file))

        h.server.set(h.path(0), .audio(body))
        let again = DownloadHarness.makeManager(store: h.store, directory: h.directory)
        await again.start()
        #expect(!FileManager.default.fileExists(atPath: orphan.path), "the orphan is deleted")
        #expect(await again.item(h.episode(1).id) == nil, "the download whose file vanished is forgotten")
        let deadline = Date().addingTimeInterval(20)
        while await again.item(h.episode(0).id)?.state != .done, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let done = try #require(await again.item(h.episode(0).id))
        #expect(done.state == .done)
        #expect(try h.file(done) == body)
        #expect(h.requests(0).last?.header("range") == "bytes=\(partial)-", "continued where the partial file ended")
        await again.shutdown()
        h.server.stop()
        h.directory.remove()
    }

    @Test("a partial file already whole (416 to its range) becomes the file")
    func alreadyComplete() async throws {
        let h = try await DownloadHarness.start()
        let body = DownloadHarness.audio(300_000, seed: 42)
        await h.manager.shutdown()
        // The process died after the last byte was written, before the check and the rename.
        let id = h.episode(0).id
        var item = DownloadItem.queued(episodeID: id, url: h.episode(0).mediaURL, enclosureLength: 0,
                                       file: "\(h.podcast.id)/\(id).mp3", now: Date())
        item.state = .downloading
        item.etag = "\"v1\""
        try await h.store.saveDownload(item)
        try FileManager.default.createDirectory(at: h.folder.appendingPathComponent("\(h.podcast.id)"), withIntermediateDirectories: true)
        try body.write(to: h.folder.appendingPathComponent(item.file + ".part"))
        h.server.set(h.path(0), .audio(body))
        let again = DownloadHarness.makeManager(store: h.store, directory: h.directory)
        await again.start()
        let deadline = Date().addingTimeInterval(10)
        while await again.item(id)?.state != .done, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let done = try #require(await again.item(id))
        #expect(done.state == .done)
        #expect(try h.file(done) == body)
        #expect(h.requests(0).last?.header("range") == "bytes=300000-")
        await again.shutdown()
        h.server.stop()
        h.directory.remove()
    }

    @Test("progress reaches listeners at most every publish interval, rising, from one owner")
    func progressMessages() async throws {
        try await DownloadHarness.with(episodes: 2, configure: { $0.publishInterval = 0.25 }) { h in
            let bodies = [DownloadHarness.audio(1_000_000, seed: 43), DownloadHarness.audio(800_000, seed: 44)]
            for i in 0..<2 { h.server.set(h.path(i), .audio(bodies[i], delay: 0.1)) }
            let log = MessageLog()
            await h.manager.addListener { log.append(ServerMessage.downloads($0).encoded()) }
            try await h.download(0)
            try await h.download(1)
            for i in 0..<2 { _ = try await h.waitForState(i, .done) }
            try await Task.sleep(for: .milliseconds(400)) // the last message
            let messages = log.messages
            #expect(messages.count >= 4)
            let gaps = zip(messages, messages.dropFirst()).map { $1.at.timeIntervalSince($0.at) }
            #expect(gaps.allSatisfy { $0 >= 0.2 }, "gaps \(gaps)")
            let fractions = messages.compactMap { $0.summary["fraction"] as? Double }
            #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "the aggregate never goes back: \(fractions)")
            let last = try #require(messages.last)
            #expect(last.summary["label"] as? String == "2 of 2 downloaded, 100 %")
            #expect(last.summary["running"] as? Bool == false)
            #expect(messages.contains { ($0.summary["label"] as? String)?.hasPrefix("0 of 2 downloaded") == true })
        }
    }

    @Test("delete removes the file and the entry; auto-download never fetches it again by itself")
    func deleteAndAuto() async throws {
        try await DownloadHarness.with(episodes: 3) { h in
            for i in 0..<3 { h.server.set(h.path(i), .audio(DownloadHarness.audio(50_000, seed: 50 + UInt64(i)))) }
            try await h.store.setPlayed(episodeID: h.episode(1).id, played: true)
            // Newest two: episode 0 (downloaded), episode 1 (played: skipped, and 2 is not looked at).
            try await h.command(.auto(podcast: h.podcast.id, newest: 2))
            let auto = try await h.waitForState(0, .done)
            #expect(auto.automatic)
            #expect(await h.manager.item(h.episode(1).id) == nil)
            #expect(await h.manager.item(h.episode(2).id) == nil)
            try await h.command(.delete(episode: h.episode(0).id))
            #expect(await h.manager.item(h.episode(0).id) == nil)
            #expect(!FileManager.default.fileExists(atPath: h.folder.appendingPathComponent(auto.file).path))
            #expect(h.localPath(for: 0) == nil)
            await h.manager.libraryChanged() // e.g. after a refresh: the policy runs again
            #expect(await h.manager.item(h.episode(0).id) == nil, "deleted by hand stays deleted")
            await h.manager.flush()
            #expect(try await h.store.setting("downloads.settings")?.contains("\"autoDownload\":{\"\(h.podcast.id)\":2}") == true)
            // By hand it comes back.
            try await h.download(0)
            _ = try await h.waitForState(0, .done)
            await #expect(throws: CommandError("episode 999 has no download")) { try await h.manager.handle(.delete(episode: 999)) }
        }
    }

    @Test("cleanup deletes downloads played at least N days ago, and only those")
    func cleanup() async throws {
        try await DownloadHarness.with(episodes: 2) { h in
            for i in 0..<2 { h.server.set(h.path(i), .audio(DownloadHarness.audio(40_000, seed: 60 + UInt64(i)))) }
            for i in 0..<2 { try await h.download(i) }
            let old = try await h.waitForState(0, .done)
            _ = try await h.waitForState(1, .done)
            for i in 0..<2 { try await h.store.setPlayed(episodeID: h.episode(i).id, played: true) }
            // Episode 0 was played ten days ago, episode 1 just now.
            let id = h.episode(0).id
            try await h.store.withDatabase { db in
                try db.run("UPDATE episodes SET position_updated_at = ? WHERE id = ?", [Date().addingTimeInterval(-10 * 86_400), id])
            }
            try await h.command(.settings(.init(deletePlayedAfterDays: .some(7))))
            #expect(await h.manager.item(h.episode(0).id) == nil)
            #expect(!FileManager.default.fileExists(atPath: h.folder.appendingPathComponent(old.file).path))
            #expect(await h.manager.item(h.episode(1).id)?.state == .done)
        }
    }

    @Test("raising the concurrency starts more at once")
    func concurrencySetting() async throws {
        try await DownloadHarness.with(episodes: 4) { h in
            for i in 0..<4 { h.server.set(h.path(i), .audio(DownloadHarness.audio(300_000, seed: 70 + UInt64(i)), delay: 0.05)) }
            try await h.command(.settings(.init(concurrency: 4)))
            for i in 0..<4 { try await h.download(i) }
            for i in 0..<4 { _ = try await h.waitForState(i, .done) }
            #expect(h.server.maxConcurrentRequests == 4)
            #expect(await h.manager.message().settings.concurrency == 4)
        }
    }
}

/// The `downloads` messages a listener got, with when.
final class MessageLog: @unchecked Sendable {
    struct Entry {
        let at: Date
        let summary: [String: Any]
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    func append(_ text: String) {
        let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        let entry = Entry(at: Date(), summary: json?["summary"] as? [String: Any] ?? [:])
        lock.withLock { entries.append(entry) }
    }

    var messages: [Entry] { lock.withLock { entries } }
}
