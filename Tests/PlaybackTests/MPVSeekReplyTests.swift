import Foundation
@testable import Playback
import Synchronization
import TestSupport
import Testing

/// mpv's answer to a seek, on a real player: a refusal carries mpv's own reason, which the engine logs.
@Suite("mpv seek replies", .serialized)
struct MPVSeekReplyTests {
    /// Every seek answer the player reports, in order (nil: taken in; else mpv's reason for refusing).
    final class Answers: Sendable {
        let list = Mutex<[String?]>([])

        /// Waits up to 5 s for answer number `index` (0-based).
        func answer(_ index: Int) async throws -> String?? {
            for _ in 0..<250 {
                if let answer = list.withLock({ index < $0.count ? $0[index] : Optional<String?>.none }) { return answer }
                try await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }
    }

    @Test("a seek with nothing loaded is refused with mpv's reason; one into a loaded file is taken in")
    func refusalCarriesReason() async throws {
        let player = try MPVPlayer(audioOutput: "null")
        let answers = Answers()
        // One reader for the player's whole life (the stream ends with `shutdown`).
        let reader = Task {
            for await event in player.events {
                if case .seekAnswered(let refusal) = event { answers.list.withLock { $0.append(refusal) } }
            }
        }
        defer { player.shutdown(); reader.cancel() }

        player.seek(to: 5)
        let refused = try await answers.answer(0)
        let reason = try #require(refused.flatMap { $0 }, "no refusal reported: \(String(describing: refused))")
        let saysWhy = reason.contains { $0.isLetter }
        #expect(saysWhy, "mpv's reason: \(reason)")

        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("tone.wav")
        try GeneratedAudio.wav(seconds: 20).write(to: file)
        player.load(file.path, start: 0, paused: true)
        // Seeks are refused until the file is loaded: ask until one is taken in.
        var taken = false
        var index = 1
        while !taken, index < 50 {
            player.seek(to: 5)
            let answer = try await answers.answer(index)
            #expect(answer != nil, "seek \(index) got no answer")
            taken = answer == .some(nil)
            index += 1
            if !taken { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(taken, "no seek into the loaded file was taken in")
    }
}
