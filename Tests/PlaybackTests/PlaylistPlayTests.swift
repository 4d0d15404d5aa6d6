import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// `playlist.play` carried out by the engine on real mpv: Up Next becomes the playlist, the
/// episode playing before is saved, repeat and shuffle are kept, and the queue then advances
/// through the playlist by itself.
@Suite("Playing a playlist on real mpv", .serialized)
struct PlaylistPlayTests {
    typealias Setup = QueueEngineTests.Setup

    @Test("the queue becomes the playlist, the first plays, what played before is saved, the rest follows")
    func playReplacesQueue() async throws {
        let s = try await Setup.make(seconds: 3)
        defer { s.directory.remove() }
        let (a, b, c) = (s.ids[0], s.ids[1], s.ids[2])
        try await s.engine.handle(.play(episode: c))
        try await s.engine.handle(.queueAdd(episode: a, at: .end))
        // Paused a little way in, so a loaded machine cannot carry c on to its end meanwhile.
        try #require(await s.wait { $0.episode?.id == c && !$0.buffering && $0.position > 0.5 })
        try await s.engine.handle(.pause)
        try #require(await s.engine.state.position < 2.5)
        let list = try await s.store.createPlaylist(name: "B then A", episodes: [b, a])

        try await s.engine.handle(.playlist(.play(playlist: list.id, episode: nil)))
        #expect(await s.engine.state.queue == [b, a], "c, which the playlist lacks, left Up Next")
        #expect(await s.engine.state.episode?.id == b)
        let saved = try #require(try await s.store.episode(id: c))
        #expect(saved.position > 0.4 && !saved.played, "c's position was saved on the switch")
        #expect(await s.wait { $0.episode?.id == b && !$0.paused && $0.position > 0.2 }, "b plays")
        #expect(await s.wait { $0.episode?.id == a && !$0.paused && $0.position > 0.2 }, "a follows b by itself")
        #expect(await s.wait { $0.episode?.id == a && $0.paused }, "repeat off: the queue ends after a")
        #expect(try await s.store.episode(id: b)?.played == true)
        await s.engine.shutdown()
    }

    @Test("a chosen start; shuffle and repeat stay as set; empty or unknown playlists are refused")
    func startShuffleAndErrors() async throws {
        let s = try await Setup.make(seconds: 30)
        defer { s.directory.remove() }
        let (a, b, c) = (s.ids[0], s.ids[1], s.ids[2])
        let list = try await s.store.createPlaylist(name: "All", episodes: [a, b, c])
        try await s.engine.handle(.repeatMode(.all))
        try await s.engine.handle(.playlist(.play(playlist: list.id, episode: b)))
        let started = await s.engine.state
        #expect(started.episode?.id == b && started.queue == [a, b, c])
        #expect(await s.engine.state.repeatMode == .all)
        try await s.engine.handle(.next)
        #expect(await s.engine.state.episode?.id == c, "next follows the playlist's order")

        try await s.engine.handle(.shuffle(true))
        try await s.engine.handle(.playlist(.play(playlist: list.id, episode: nil)))
        let state = await s.engine.state
        #expect(state.shuffle && state.episode?.id == a && state.queue.first == a && Set(state.queue) == [a, b, c])
        try await s.engine.handle(.shuffle(false))
        #expect(await s.engine.state.queue == [a, b, c], "shuffle off gives the playlist's order back")

        let empty = try await s.store.createPlaylist(name: "Empty")
        await #expect(throws: CommandError("the playlist \"Empty\" is empty")) {
            try await s.engine.handle(.playlist(.play(playlist: empty.id, episode: nil)))
        }
        await #expect(throws: CommandError("no playlist with id 999")) {
            try await s.engine.handle(.playlist(.play(playlist: 999, episode: nil)))
        }
        await #expect(throws: CommandError("episode 999 is not in the playlist \"All\"")) {
            try await s.engine.handle(.playlist(.play(playlist: list.id, episode: 999)))
        }
        #expect(await s.engine.state.queue == [a, b, c], "refused plays leave Up Next alone")
        await s.engine.shutdown()
    }
}
