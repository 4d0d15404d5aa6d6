import EarshotCore
import Foundation
import Library
@testable import Playback
import TestSupport
import Testing

/// Chapters inside the media file, as real mpv (`ao=null`) reads them from the shared samples
/// (`../shared/conformance/audio`, values from its README).
@Suite("In-file chapters on real mpv", .serialized)
struct InFileChapterTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/conformance/audio", isDirectory: true)

    /// The README's four titles of the Auphonic samples (UTF-16 with surrogate pairs in ID3).
    static let auphonic: [(Double, String)] = [(0, "Chapter 1 - ❤️😊"), (3, "Chapter 2 - ßöÄ"), (6, "Chapter 3 - 爱"), (9, "Chapter 4")]

    /// file → expected (start seconds, title). The README's table, start times from ms.
    static let expected: [(String, [(Double, String)])] = [
        ("auphonic.mp3", auphonic),                                          // ID3v2.3 CHAP + CTOC
        ("hindenburg-journalist-pro.mp3", [(0, "Chapter Marker 1"), (5.006, "Chapter Marker 2")]),
        ("mp3chaps-py.mp3", [(0, "Start"), (7, "Chapter 1"), (9, "Chapter 2"), (11, "Chapter 3")]), // ID3v2.4, extended header
        ("ffmpeg-txxx-comment.mp3", []),                                     // no chapters
        ("nero-chapters.m4a", auphonic),                                     // MP4 Nero chpl
        ("auphonic.ogg", auphonic),                                          // Vorbis CHAPTERxxx comments
        ("auphonic.opus", auphonic),
        // Not asserted by the README ("for QuickTime-chapter support only"); these are the values
        // ffprobe reports. Hindenburg's titles start with a newline and tabs, which cleaning removes.
        ("auphonic.m4a", auphonic),
        ("hindenburg-journalist-pro.m4a", [(0, "URL Title for Chapter 1"), (5.005, "URL Title for Chapter 2")]),
    ]

    @Test("every sample's chapters reach the state with the README's titles and start times")
    func samplesMatchTheReadme() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try LibraryStore(path: dir.file("library.sqlite").path)
        let items = Self.expected.enumerated().map { index, sample in
            FeedItem(guid: sample.0, title: sample.0, enclosureURL: Self.samples.appendingPathComponent(sample.0).path,
                     published: Date(timeIntervalSince1970: 1_700_000_000 - Double(index)))
        }
        let podcast = try await store.subscribe(feedURL: "http://127.0.0.1/samples.xml", content: FeedContent(title: "Samples", items: items))
        let episodes = try await store.episodes(podcastID: podcast.id)
        let engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store)
        await engine.start()

        for (file, chapters) in Self.expected {
            let episode = try #require(episodes.first { $0.guid == file })
            try await engine.handle(.play(episode: episode.id))
            try await engine.handle(.pause) // the samples are 10 s long: no end-of-file mid-test
            let ready = await wait(engine) { !$0.buffering && $0.chapters.count == chapters.count && $0.duration > 5 }
            try await Task.sleep(for: .milliseconds(200)) // nothing else arrives later
            let state = await engine.state
            #expect(ready, "\(file): \(state.chapters)")
            #expect(state.chapters.map(\.title) == chapters.map(\.1), "\(file)")
            #expect(state.chapters.count == chapters.count, "\(file)")
            // mpv's timeline starts at the first audio frame: an MP3's encoder delay (25 ms in
            // these, ffprobe's start_time) comes off every time it reports, chapters included.
            // The state is in that timeline, the one seeks use; the README counts from the tag.
            let offset = try #require(Double(engine.player.property("demuxer-start-time") ?? ""), "\(file): no start time")
            #expect(offset >= 0 && offset < 0.03, "\(file): starts at \(offset)")
            for (got, want) in zip(state.chapters, chapters) {
                let expected = max(0, want.0 - offset)
                #expect(abs(got.start - expected) < 0.002, "\(file): \(got.title) starts at \(got.start), not \(expected)")
            }
            let source = await engine.chapterSources.source
            #expect(source == (chapters.isEmpty ? nil : .file), "\(file)")
            #expect(state.chapter == (chapters.isEmpty ? -1 : 0), "\(file)")
            #expect(state.error == nil, "\(file): \(state.error ?? "")")
        }
        await engine.shutdown()
    }

    private func wait(_ engine: PlaybackEngine, timeout: Double = 8, until condition: (PlaybackState) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(await engine.state) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(await engine.state)
    }
}
