@testable import Downloads
import EarshotCore
import Foundation
@testable import Library
import Playback
import TestSupport
import Testing

/// Issue 18: a finished download is measured once (EBU R128, through a real mpv and ffmpeg's
/// `ebur128`), kept in the library and handed to the player by media URL; a file that is not
/// audio is left unmeasured and stays downloaded.
@Suite("Downloads measured for leveling", .serialized)
struct DownloadLoudnessTests {
    /// A 440 Hz sine peaking at −27 dBFS (RMS −30 dBFS): R128 reads about −30.7 LUFS (its K
    /// weighting is −0.7 dB at 440 Hz), true peak −27 dBTP.
    static let quiet = GeneratedAudio.wav(seconds: 6, sampleRate: 44_100, amplitude: 32_767 * pow(10, -27.0 / 20))

    @Test("a tone at −30 dBFS measures −30.7 LUFS with a −27 dBTP peak; stored, and known after a restart without measuring again")
    func measured() async throws {
        let calls = Counter()
        let measure: @Sendable (String) async -> Loudness? = { path in
            calls.add()
            return await MPVPlayer.measureLoudness(path: path)
        }
        try await DownloadHarness.with(episodes: 2, configure: { $0.measure = measure }) { h in
            h.server.set(h.path(0), .audio(Self.quiet))
            h.server.set(h.path(1), .audio(DownloadHarness.audio(40_000, seed: 18)))
            try await h.download(0)
            try await h.download(1)
            _ = try await h.waitForState(0, .done)
            _ = try await h.waitForState(1, .done)
            await h.manager.measured()
            let stored = try await h.store.downloadLoudness()
            let tone = try #require(stored[h.episode(0).id], "the tone was not measured: \(stored)")
            #expect(abs(tone.integrated - -30.7) < 0.5, "\(tone)")
            #expect(abs(tone.truePeak - -27) < 0.5, "\(tone)")
            #expect(stored[h.episode(1).id] == nil, "random bytes have no loudness")
            #expect(await h.manager.item(h.episode(1).id)?.state == .done, "and stay downloaded")
            #expect(h.manager.localFiles.loudness(forMediaURL: h.episode(0).mediaURL) == tone)
            #expect(calls.value == 2)

            // The next run knows it from the library.
            await h.manager.shutdown()
            let again = DownloadHarness.makeManager(store: h.store, directory: h.directory) { $0.measure = measure }
            await again.start()
            await again.measured()
            #expect(again.localFiles.loudness(forMediaURL: h.episode(0).mediaURL) == tone)
            #expect(calls.value == 3, "only the unmeasurable file is tried again")
            await again.shutdown()
        }
    }
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
