import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// Hand-off to a phone's own player (issue 16), the server's half: the `handoff.*` commands on a
/// live socket, and `/api/episodes/{id}/listen` — our own copy with `Range`, else a redirect.
/// The phone's half runs in a real browser (Tests/e2e/test_handoff.py).
@Suite("Hand-off to a phone: commands and the episode's audio", .serialized)
struct HandoffTests {
    @Test("take pauses the speakers and saves; the phone's reports move the library and the paused player; give plays from there")
    func commands() async throws {
        try await ServerHarness.with { h in
            let ws = try await h.socket()
            let episode = h.episodes[0]
            #expect(try await ws.reply(1, #""cmd":"play","episode":\#(episode.id)"#)["type"] as? String == "ack")
            #expect(try await ws.reply(2, #""cmd":"seek","to":12"#)["type"] as? String == "ack")
            for _ in 0..<50 where !(await h.engine.isPlayingHere(episode.id)) { try await Task.sleep(for: .milliseconds(100)) }

            #expect(try await ws.reply(3, #""cmd":"handoff.take","episode":\#(episode.id)"#)["type"] as? String == "ack")
            #expect(await h.engine.state.paused)
            let saved = try #require(try await h.store.episode(id: episode.id)).position
            #expect(abs(saved - 12) < 1.5, "saved where the speakers paused: \(saved)")

            #expect(try await ws.reply(4, #""cmd":"handoff.position","episode":\#(episode.id),"position":31.5"#)["type"] as? String == "ack")
            #expect(try await h.store.episode(id: episode.id)?.position == 31.5)
            #expect(await h.engine.state.position == 31.5, "the paused player follows the phone")

            #expect(try await ws.reply(5, #""cmd":"handoff.give","episode":\#(episode.id),"position":40"#)["type"] as? String == "ack")
            #expect(await h.engine.isPlayingHere(episode.id))
            let position = await h.engine.state.position
            #expect(position >= 39.5 && position < 42, "the speakers go on from the phone's position: \(position)")
            // While the speakers play it, a late report from the phone changes nothing.
            _ = try await ws.reply(6, #""cmd":"handoff.position","episode":\#(episode.id),"position":5"#)
            #expect(await h.engine.state.position >= 39.5)

            // The phone reached the end: played. (After mpv has echoed the resume: a pause sent before
            // that echo is undone by it — the engine takes mpv's `pause` reports as changes from elsewhere.)
            try await Task.sleep(for: .milliseconds(500))
            _ = try await ws.reply(7, #""cmd":"handoff.take","episode":\#(episode.id)"#)
            #expect(await h.engine.state.paused)
            _ = try await ws.reply(8, #""cmd":"handoff.position","episode":\#(episode.id),"position":59.8"#)
            #expect(try await h.store.episode(id: episode.id)?.played == true)

            for (id, bad) in [(9, #""cmd":"handoff.position","episode":\#(episode.id),"position":-1"#),
                              (10, #""cmd":"handoff.give","episode":\#(episode.id)"#), (11, #""cmd":"handoff.take","episode":99999"#)] {
                #expect(try await ws.reply(id, bad)["type"] as? String == "error", "\(bad)")
            }
        }
    }

    @Test("/api/episodes/{id}/listen: our copy in pieces with Range (206, 416), the feed's own address otherwise (302)")
    func listen() async throws {
        try await ServerHarness.with { h in
            // The harness's episodes are files of ours (a path): answered as the bundled demo is.
            let demoEpisodes = try await h.store.subscribe(feedURL: "/demo/feed.xml", content: FeedContent(title: "Demo", items: [
                FeedItem(guid: "d", title: "Demo one", enclosureURL: "/demo/audio/02-browser.mp3", enclosureType: "audio/mpeg", duration: 66),
                FeedItem(guid: "r", title: "Remote", enclosureURL: "https://cdn.example/remote.mp3", enclosureType: "audio/mpeg"),
                FeedItem(guid: "x", title: "Not the web", enclosureURL: "ftp://example/x.mp3"),
            ]))
            let episodes = try await h.store.episodes(podcastID: demoEpisodes.id)
            let local = try #require(episodes.first { $0.guid == "d" })
            let file = try Data(contentsOf: ServerHarness.repository.appendingPathComponent("Public/demo/audio/02-browser.mp3"))

            let first = try await h.http("/api/episodes/\(local.id)/listen", headers: ["Range": "bytes=0-"])
            #expect(first.status == 206 && first.headers["content-type"] == "audio/mpeg" && first.headers["accept-ranges"] == "bytes")
            let piece = min(file.count, MediaFile.maxPiece)
            #expect(first.headers["content-range"] == "bytes 0-\(piece - 1)/\(file.count)" && first.body == file.prefix(piece))
            let middle = try await h.http("/api/episodes/\(local.id)/listen", headers: ["Range": "bytes=1000-1999"])
            #expect(middle.status == 206 && middle.body == file.subdata(in: 1000..<2000))
            let tail = try await h.http("/api/episodes/\(local.id)/listen", headers: ["Range": "bytes=-100"])
            #expect(tail.body == file.suffix(100) && tail.headers["content-range"] == "bytes \(file.count - 100)-\(file.count - 1)/\(file.count)")
            let past = try await h.http("/api/episodes/\(local.id)/listen", headers: ["Range": "bytes=\(file.count)-"])
            #expect(past.status == 416 && past.headers["content-range"] == "bytes */\(file.count)")
            let whole = try await h.http("/api/episodes/\(local.id)/listen")
            #expect(whole.status == 200 && whole.body == file)

            let remote = try await h.http("/api/episodes/\(episodes.first { $0.guid == "r" }!.id)/listen")
            #expect(remote.status == 302 && remote.headers["location"] == "https://cdn.example/remote.mp3")
            #expect(try await h.http("/api/episodes/\(episodes.first { $0.guid == "x" }!.id)/listen").status == 404)
            #expect(try await h.http("/api/episodes/99999/listen").status == 404)
        }
    }

    @Test("Range headers: the first range, suffixes, open ends; anything else is the whole file")
    func ranges() {
        #expect(MediaFile.requested("bytes=0-", size: 100) == .range(0...99))
        #expect(MediaFile.requested("bytes=10-20", size: 100) == .range(10...20))
        #expect(MediaFile.requested("bytes=10-2000", size: 100) == .range(10...99))
        #expect(MediaFile.requested("bytes=-30", size: 100) == .range(70...99))
        #expect(MediaFile.requested("bytes=-300", size: 100) == .range(0...99))
        #expect(MediaFile.requested("bytes=0-9, 20-29", size: 100) == .range(0...9))
        #expect(MediaFile.requested("bytes=100-", size: 100) == .unsatisfiable)
        for ignored in [nil, "", "items=0-5", "bytes=5-1", "bytes=x-", "bytes=-0", "bytes=--3"] {
            #expect(MediaFile.requested(ignored, size: 100) == nil, "\(ignored ?? "nil")")
        }
    }
}
