import Testing
import TestSupport
@testable import Feeds

/// The eight-bytes-at-a-time masks against their byte-by-byte definitions, and the text scanners that use
/// them against a byte-by-byte scan, on inputs made of the bytes that matter (spaces, markup, controls,
/// UTF-8) so that every mix of them lands in every position of a word.
struct ByteWordTests {
    @Test func masksMatchTheirDefinitionsForEveryByteInEveryPosition() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let word = bytes.withUnsafeBufferPointer { ByteWord.load($0, at: 0) }
            for probe: UInt8 in [0x00, 0x20, 0x26, 0x3C, 0x5D, 0x7F, 0x80, 0xFF, bytes[0], bytes[7]] {
                #expect(ByteWord.equal(word, probe) == Self.mask(bytes) { $0 == probe })
            }
            for limit: UInt8 in [1, 0x09, 0x0E, 0x21, 0x80] {
                #expect(ByteWord.below(word, limit) == Self.mask(bytes) { $0 < limit })
            }
        }
    }

    @Test func runsEndWhereAByteByByteScanEndsThem() {
        // Mostly letters, so that whole words of eight run on; the rest are the bytes that end or split runs.
        let letters: [UInt8] = Array("abcxyz".utf8) + [0xC3, 0xA9, 0xE2, 0x80, 0x94]
        let others: [UInt8] = Array("<&>]".utf8) + [0x20, 0x20, 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x01, 0x7F, 0x00]
        var generator = SplitMix64(seed: 11)
        var longRuns = 0
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 48) + 1
            let bytes = (0..<length).map { _ -> UInt8 in
                let pick = generator.next()
                return pick % 100 < 80 ? letters[Int(pick / 100 % UInt64(letters.count))]
                    : others[Int(pick / 100 % UInt64(others.count))]
            }
            bytes.withUnsafeBufferPointer { buffer in
                for start in 1...length {
                    let end = HTMLSanitizer.endOfRun(buffer, from: start)
                    #expect(end == Self.scalarRun(buffer, from: start, ordinary: HTMLSanitizer.isOrdinary))
                    if end - start >= 16 { longRuns += 1 }
                    #expect(HTMLToText.endOfRun(buffer, from: start)
                            == Self.scalarRun(buffer, from: start, ordinary: HTMLToText.isOrdinary))
                }
            }
        }
        #expect(longRuns > 10_000, "the inputs must exercise the word-at-a-time path")
    }

    private static func mask(_ bytes: [UInt8], _ test: (UInt8) -> Bool) -> UInt64 {
        var mask: UInt64 = 0
        for (index, byte) in bytes.enumerated() where test(byte) { mask |= 0x80 << (8 * UInt64(index)) }
        return mask
    }

    private static func scalarRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, ordinary: (UInt8) -> Bool) -> Int {
        var cursor = start
        while cursor < bytes.count {
            if ordinary(bytes[cursor]) {
                cursor += 1
            } else if bytes[cursor] == 0x20, cursor + 1 < bytes.count, ordinary(bytes[cursor + 1]) {
                cursor += 2
            } else {
                break
            }
        }
        return cursor
    }
}
