import Foundation
import Testing
import TestSupport
@testable import Web

/// `ChunkedBody`: the framing of a chunked request body taken off, however the bytes arrive.
@Suite struct ChunkedBodyTests {
    static func feed(_ body: inout ChunkedBody, _ text: String) -> ChunkedBody.Progress {
        Array(text.utf8).withUnsafeBytes { body.feed($0) }
    }

    @Test("property: any body, any chunk sizes, split anywhere on the wire, decodes to itself")
    func anySplit() {
        var generator = SplitMix64(seed: 411)
        for _ in 0..<400 {
            let length = Int(generator.next() % 3000)
            let payload = (0..<length).map { _ in UInt8(generator.next() % 256) }
            var wire: [UInt8] = []
            var offset = 0
            while offset < payload.count {
                let size = min(payload.count - offset, Int(generator.next() % 700) + 1)
                let ext = generator.next() % 5 == 0 ? ";name=value" : ""
                wire += Array((String(size, radix: 16, uppercase: generator.next() % 2 == 0) + ext + "\r\n").utf8)
                wire += payload[offset..<(offset + size)] + Array("\r\n".utf8)
                offset += size
            }
            wire += Array((generator.next() % 3 == 0 ? "0\r\nExpires: never\r\n\r\n" : "0\r\n\r\n").utf8)
            var body = ChunkedBody(limit: 1 << 20)
            var cut = 0
            var progress = ChunkedBody.Progress.needMore
            while cut < wire.count {
                let next = min(wire.count, cut + Int(generator.next() % 50) + 1)
                progress = wire[cut..<next].withUnsafeBytes { body.feed($0) }
                cut = next
            }
            #expect(progress == .done)
            #expect(body.body == payload)
        }
    }

    @Test func brokenFramingAndTooMuchAreSaid() {
        var notHex = ChunkedBody(limit: 100)
        #expect(Self.feed(&notHex, "xyz\r\nabc\r\n0\r\n\r\n") == .malformed("a chunk size that is not hexadecimal"))
        var noCRLF = ChunkedBody(limit: 100)
        #expect(Self.feed(&noCRLF, "3\r\nabcX") == .malformed("a chunk not followed by CRLF"))
        var tooMuch = ChunkedBody(limit: 10)
        #expect(Self.feed(&tooMuch, "6\r\nabcdef\r\n") == .needMore)
        #expect(Self.feed(&tooMuch, "6\r\nabcdef\r\n") == .tooLarge)
        var endless = ChunkedBody(limit: 10)
        #expect(Self.feed(&endless, String(repeating: "1", count: ChunkedBody.maximumLine + 1)) == .malformed("a chunk line longer than 4096 bytes"))
        var empty = ChunkedBody(limit: 10)
        #expect(Self.feed(&empty, "0\r\n\r\n") == .done && empty.body.isEmpty)
    }
}
