import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// A podcast's skips carried out on real mpv (`ao=null`): the intro, the outro, a chapter by its
/// title, each announced in `state.skipped` and undone with `skip.undo`.
@Suite("A podcast's skips on real mpv", .serialized)
struct PodcastSkipsEngineTests {
    @Test("intro: a fresh episode starts after it (mpv too); undo goes back to 0; kept in the library")
    func intro() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        try await h.engine.handle(.podcastSettings(podcast: h.fast.id, .init(introSkip: 5)))
        #expect(await h.engine.state.settings.podcasts[h.fast.id] == PodcastSkips(introSkip: 5))
        #expect(try await h.store.setting("playback.settings")?.contains(#""podcasts":{"\#(h.fast.id)":{"introSkip":5"#) == true)

        try await h.engine.handle(.play(episode: h.fastEpisodes[0].id))
        let skipped = await h.engine.state.skipped
        #expect(skipped == SkipNotice(kind: .intro, episode: h.fastEpisodes[0].id, from: 0, to: 5))
        #expect(await h.wait { !$0.buffering && !$0.paused && $0.position > 5.1 }, "plays on after the intro")
        #expect((h.engine.player.timePosition() ?? 0) >= 5, "mpv itself started at 5 s")

        try await h.engine.handle(.skipUndo)
        #expect(await h.engine.state.skipped == nil)
        let back = await h.wait { $0.position > 0.2 && $0.position < 2 }
        let position = await h.engine.state.position
        #expect(back, "back at the start: \(position)")
        await #expect(throws: CommandError("nothing was skipped just now")) { try await h.engine.handle(.skipUndo) }

        // Another podcast's episode has no intro skip.
        try await h.engine.handle(.play(episode: h.plainEpisode.id))
        #expect(await h.engine.state.position < 1)
        #expect(await h.engine.state.skipped == nil)
        await #expect(throws: CommandError("no podcast with id 999")) {
            try await h.engine.handle(.podcastSettings(podcast: 999, .init(introSkip: 5)))
        }
        await h.close()
    }

    @Test("the notice clears itself after 5 s")
    func noticeClears() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        try await h.engine.handle(.podcastSettings(podcast: h.fast.id, .init(introSkip: 3)))
        try await h.engine.handle(.play(episode: h.fastEpisodes[0].id))
        #expect(await h.engine.state.skipped?.kind == .intro)
        try await Task.sleep(for: .seconds(4))
        #expect(await h.engine.state.skipped != nil, "still shown after 4 s")
        #expect(await h.wait(timeout: 3) { $0.skipped == nil }, "gone after 5 s")
        #expect(h.states.last?["skipped"] is NSNull, "clients were told")
        await h.close()
    }

    @Test("outro: playing into it ends the episode, marked played; undo plays it again from there to its end")
    func outro() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        try await h.engine.handle(.podcastSettings(podcast: h.fast.id, .init(outroSkip: 18))) // a 30 s tone: the outro from 12 s
        let episode = h.fastEpisodes[0]
        try await h.engine.handle(.play(episode: episode.id))
        try await h.engine.handle(.seek(to: 10))
        #expect(await h.wait { $0.skipped?.kind == .outro }, "the outro was skipped")
        let skipped = try #require(await h.engine.state.skipped)
        #expect(skipped.from >= 12 && skipped.from < 13, "from \(skipped.from)")
        #expect(await h.wait { $0.paused || $0.episode?.id != episode.id }, "the episode ended")
        #expect(try await h.store.episode(id: episode.id)?.played == true, "marked played")

        try await h.engine.handle(.skipUndo)
        #expect(await h.wait { $0.episode?.id == episode.id && !$0.paused && $0.position > 12.2 }, "again, after where the outro began")
        #expect(await h.engine.state.skipped == nil)
        try await Task.sleep(for: .seconds(1.5))
        let state = await h.engine.state
        #expect(state.episode?.id == episode.id && !state.paused && state.position > 13.5, "plays on into the outro: \(state.position)")
        await h.close()
    }

    @Test("chapters by title: playing into one goes on at the next kept (the last: the end); a seek into one plays it")
    func chapters() async throws {
        let h = try await ControlsHarness()
        defer { h.directory.remove() }
        let episode = h.fastEpisodes[1] // chapters "One" at 0 and "Two" at 3 s
        try await h.engine.handle(.podcastSettings(podcast: h.fast.id, .init(skipChapters: ["two"])))
        try await h.engine.handle(.play(episode: episode.id))
        #expect(await h.wait { $0.chapters.count == 2 && !$0.buffering })
        try await h.engine.handle(.seek(to: 1.5))
        #expect(await h.wait { $0.skipped?.kind == .chapter }, "the chapter was skipped")
        let skipped = try #require(await h.engine.state.skipped)
        #expect(skipped.title == "Two", "\(skipped)")
        #expect(abs(skipped.to - 30) < 0.1, "\(skipped)")
        #expect(skipped.from > 2.95 && skipped.from < 4, "\(skipped)")
        #expect(await h.wait { $0.paused }, "the last chapter skipped: the episode ended")
        #expect(try await h.store.episode(id: episode.id)?.played == true)

        // Seeking into it plays it. (Loading it again by hand took the chapter's notice away.)
        try await h.engine.handle(.play(episode: episode.id))
        #expect(await h.engine.state.skipped == nil)
        try await h.engine.handle(.seek(to: 10))
        let inside = await h.wait { !$0.paused && $0.position > 11 }
        let now = await h.engine.state
        #expect(inside, "plays inside the chapter it seeked to: at \(now.position), paused \(now.paused), chapters \(now.chapters.count), skipped \(String(describing: now.skipped)), error \(now.error ?? "none")")
        #expect(await h.engine.state.skipped == nil)
        await h.close()
    }
}
