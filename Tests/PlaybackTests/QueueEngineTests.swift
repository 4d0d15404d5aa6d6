import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// Up Next carried out by the engine on real mpv: auto-advance, repeat, next/previous, persistence.
@Suite("Up Next on real mpv", .serialized)
struct QueueEngineTests {
    struct Setup {
        let directory: TemporaryDirectory
        let store: LibraryStore
        let engine: PlaybackEngine
        let ids: [Int64]

        static func make(seconds: Double = 2, directory: TemporaryDirectory = TemporaryDirectory()) async throws -> Setup {
            let store = try LibraryStore(path: directory.file("library.sqlite").path)
            var items: [FeedItem] = []
            for name in ["a", "b", "c"] {
                let file = directory.file("\(name).wav")
                if !FileManager.default.fileExists(atPath: file.path) { try GeneratedAudio.writeWAV(to: file, seconds: seconds) }
                items.append(FeedItem(guid: name, title: "Tone \(name)", enclosureURL: file.path, duration: seconds,
                                      published: Date(timeIntervalSince1970: 1_700_000_000 + Double(items.count) * 86_400)))
            }
            let podcast = try await store.subscribe(feedURL: "http://127.0.0.1/q.xml", content: FeedContent(title: "Q", items: items))
            let episodes = try await store.episodes(podcastID: podcast.id)
            let byGuid = Dictionary(uniqueKeysWithValues: episodes.map { ($0.guid, $0.id) })
            let engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store)
            await engine.start()
            return Setup(directory: directory, store: store, engine: engine, ids: ["a", "b", "c"].map { byGuid[$0]! })
        }

        func wait(timeout: Double = 8, until condition: @escaping (PlaybackState) -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition(await engine.state) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
    }

    @Test("playing puts the episode at the head; queued episodes follow by themselves when one ends")
    func autoAdvance() async throws {
        let s = try await Setup.make()
        defer { s.directory.remove() }
        try await s.engine.handle(.play(episode: s.ids[0]))
        try await s.engine.handle(.queueAdd(episode: s.ids[1], at: .end))
        #expect(await s.engine.state.queue == [s.ids[0], s.ids[1]])
        #expect(await s.wait { $0.episode?.id == s.ids[1] && !$0.paused && $0.position > 0.2 }, "B follows A")
        #expect(try await s.store.episode(id: s.ids[0])?.played == true)
        // The end of the queue with repeat off: B ends, nothing follows, the player rests on B.
        #expect(await s.wait { $0.episode?.id == s.ids[1] && $0.paused })
        await s.engine.shutdown()
    }

    @Test("repeat one plays the same episode again; repeat all starts the queue over")
    func repeatModes() async throws {
        let s = try await Setup.make()
        defer { s.directory.remove() }
        try await s.engine.handle(.play(episode: s.ids[0]))
        try await s.engine.handle(.queueAdd(episode: s.ids[1], at: .end))
        try await s.engine.handle(.repeatMode(.one))
        #expect(await s.engine.state.repeatMode == .one)
        // A ends and A starts again (position back near 0, still A).
        #expect(await s.wait { $0.episode?.id == s.ids[0] && $0.position > 1.1 })
        #expect(await s.wait { $0.episode?.id == s.ids[0] && !$0.paused && $0.position < 1 && $0.position > 0.1 })
        try await s.engine.handle(.repeatMode(.all))
        #expect(await s.wait { $0.episode?.id == s.ids[1] && !$0.paused })
        #expect(await s.wait { $0.episode?.id == s.ids[0] && !$0.paused }, "after B, the queue starts over")
        await s.engine.shutdown()
    }

    @Test("next, previous (restart past 3 s), remove, move, clear, shuffle; errors say why")
    func commands() async throws {
        let s = try await Setup.make(seconds: 30)
        defer { s.directory.remove() }
        try await s.engine.handle(.play(episode: s.ids[0]))
        try await s.engine.handle(.queueAdd(episode: s.ids[1], at: .end))
        try await s.engine.handle(.queueAdd(episode: s.ids[2], at: .next))
        #expect(await s.engine.state.queue == [s.ids[0], s.ids[2], s.ids[1]])
        try await s.engine.handle(.next)
        #expect(await s.engine.state.episode?.id == s.ids[2])
        try await s.engine.handle(.seek(to: 10))
        try await s.engine.handle(.previous)
        #expect(await s.engine.state.episode?.id == s.ids[2], "past 3 s, previous restarts")
        #expect(await s.engine.state.position == 0)
        try await s.engine.handle(.previous)
        #expect(await s.engine.state.episode?.id == s.ids[0])
        try await s.engine.handle(.queueMove(from: 2, to: 0))
        #expect(await s.engine.state.queue == [s.ids[1], s.ids[0], s.ids[2]])
        try await s.engine.handle(.queueRemove(episode: s.ids[2]))
        await #expect(throws: CommandError("episode \(s.ids[2]) is not in the queue")) {
            try await s.engine.handle(.queueRemove(episode: s.ids[2]))
        }
        await #expect(throws: CommandError("no episode with id 999")) { try await s.engine.handle(.queueAdd(episode: 999, at: .end)) }
        try await s.engine.handle(.shuffle(true))
        #expect(await s.engine.state.shuffle)
        #expect(await s.engine.state.queue.first == s.ids[0], "shuffle keeps the playing episode first")
        try await s.engine.handle(.shuffle(false))
        #expect(await s.engine.state.queue == [s.ids[1], s.ids[0]])
        try await s.engine.handle(.queueClear)
        #expect(await s.engine.state.queue == [s.ids[0]], "clear keeps the playing episode")
        await #expect(throws: CommandError("nothing after this in the queue")) { try await s.engine.handle(.next) }
        await s.engine.shutdown()
    }

    @Test("previous after resuming deep in an episode goes back to the resume point; twice within 3 s to the start")
    func previousAfterResuming() async throws {
        let s = try await Setup.make(seconds: 40)
        defer { s.directory.remove() }
        try await s.store.savePosition(episodeID: s.ids[1], position: 25)
        try await s.engine.handle(.play(episode: s.ids[1]))
        #expect(await s.wait { $0.position >= 25 && !$0.buffering }, "resumed at 25 s")
        try await s.engine.handle(.queueAdd(episode: s.ids[0], at: .end))
        try await s.engine.handle(.queueMove(from: 1, to: 0))
        #expect(await s.engine.state.queue == [s.ids[0], s.ids[1]])
        try await s.engine.handle(.seek(to: 31))
        try await s.engine.handle(.previous)
        #expect(await s.engine.state.episode?.id == s.ids[1])
        #expect(await s.engine.state.position == 25, "the first press goes back to where this listening began")
        try await s.engine.handle(.previous)
        #expect(await s.engine.state.position == 0, "a second press within 3 s goes to the start")
        try await s.engine.handle(.previous)
        #expect(await s.engine.state.episode?.id == s.ids[0], "at the start, previous is the episode before")
        // Started from the top (position 0 for this one): previous past 3 s restarts at 0 at once.
        try await s.engine.handle(.seek(to: 10))
        try await s.engine.handle(.previous)
        #expect(await s.engine.state.episode?.id == s.ids[0])
        #expect(await s.engine.state.position == 0)
        await s.engine.shutdown()
    }

    @Test("the queue, shuffle and repeat survive a restart")
    func persistence() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try await Setup.make(seconds: 30, directory: directory)
        try await first.engine.handle(.play(episode: first.ids[1]))
        try await first.engine.handle(.queueAdd(episode: first.ids[2], at: .end))
        try await first.engine.handle(.queueAdd(episode: first.ids[0], at: .end))
        try await first.engine.handle(.repeatMode(.all))
        let before = await first.engine.state.queue
        await first.engine.shutdown()

        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store)
        await engine.start()
        #expect(await engine.state.queue == before)
        #expect(await engine.state.repeatMode == .all)
        await engine.shutdown()
    }
}
