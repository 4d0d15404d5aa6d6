import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// The listening log on real mpv (`ao=null`, a real SQLite file): played spans with their wall
/// time, split at a pause and a seek, the episode that plays to its end counted once, and kept
/// for the next run.
@Suite("The listening log on real mpv", .serialized)
struct ListeningLogEngineTests {
    @Test("spans: 1.5 s, a pause, a seek, 1.5 s more and to the end of a 4 s episode; what was heard, finished once, kept")
    func spans() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let h = try await ControlsHarness(seconds: 8, directory: directory)
        try await h.engine.handle(.play(episode: h.plainEpisode.id))
        #expect(await h.wait { !$0.buffering && !$0.paused && $0.position > 0.05 })
        try await Task.sleep(for: .seconds(1.5))
        try await h.engine.handle(.pause)
        try await Task.sleep(for: .seconds(0.5)) // paused: not listening
        try await h.engine.handle(.seek(to: 4))
        try await h.engine.handle(.resume)
        #expect(await h.wait(timeout: 8) { $0.paused && $0.position >= 7.9 }, "played to its end")
        let stats = try await h.engine.listeningStats(.week)
        let spans = try await h.store.listeningSpans()
        #expect(abs(stats.listenedSeconds - 5.5) <= 0.6, "\(stats.listenedSeconds) s heard: \(spans)")
        #expect(stats.finished == 1)
        #expect(stats.podcasts.map(\.title) == ["Plain"])
        #expect(spans.count >= 2, "a pause ends a span: \(spans)")
        #expect(spans.first.map { $0.from < 0.2 && abs($0.to - 1.5) < 0.4 } == true, "the first span: 0 to about 1.5 s: \(spans)")
        #expect(spans.last?.finished == true && spans.last.map { $0.from >= 3.9 } == true, "the last from the seek to the end: \(spans)")
        #expect(abs(stats.savedSeconds.speed) < 0.01, "1× saves nothing")
        await h.close()

        // The next run reads them back.
        let again = try await ControlsHarness(seconds: 8, directory: directory)
        let kept = try await again.engine.listeningStats(.all)
        #expect(kept.listenedSeconds == stats.listenedSeconds && kept.finished == 1)
        await again.close()
    }
}
