import Dispatch
@testable import Feeds
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A large feed file is read by both threads of a split read at once (`SharedRead`): the buffer must hold
/// the file's bytes exactly, whichever thread read which chunk, and a file that changed size since it was
/// opened must not be read this way (the parser then reads it again, as it reads any other).
@Suite("A file read whole by two threads holds what one read holds")
struct SharedReadTests {
    /// Chunks the other thread read: written before it gives its `Handoff`, read after the wait.
    final class ChunkCount: @unchecked Sendable {
        var value = 0
    }

    static func file(_ bytes: [UInt8], in directory: TemporaryDirectory, named name: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test("chunks read from both ends, sizes on and around chunk boundaries, give the file's bytes (property)")
    func bothEndsGiveTheFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let chunk = SharedRead.chunkBytes
        var generator = SplitMix64(seed: 3)
        var helped = 0, alone = 0
        for size in [2 * chunk, 2 * chunk + 1, 3 * chunk - 1, 5 * chunk + chunk / 2, 9 * chunk + 17] {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let url = try Self.file(bytes, in: directory, named: "\(size).bin")
            for round in 0..<12 {
                let source = try FeedFile(url)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size + 1, alignment: 16)
                defer { buffer.deallocate() }
                let shared = SharedRead(source.descriptor, size: size, into: buffer)
                // The other thread starts now or a little later (as a woken thread does): any split of the chunks.
                let other = Handoff()
                let byOther = ChunkCount()
                let delay = round % 3 == 1 ? UInt32(generator.next() % 200) : 0
                DispatchQueue.global().async {
                    if delay > 0 { usleep(delay) }
                    byOther.value = shared.help()
                    other.give()  // after the count: the waiter reads it
                }
                #expect(shared.readAll(), "\(size)")
                other.wait()
                #expect(Array(buffer[..<size]) == bytes, "\(size), round \(round)")
                #expect(source.endsAtSize())
                if byOther.value > 0 { helped += 1 } else { alone += 1 }
            }
        }
        #expect(helped > 0, "the other thread read chunks in some rounds (\(helped) of \(helped + alone))")
    }

    @Test("a file that grew or shrank since it was opened is not read whole, and the parse reads it all the same")
    func changedSizeIsNotReadWhole() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let items = (0..<1_500).map { SplitReadTests.item($0, notes: String(repeating: "notes ", count: 20)) }
        let data = SplitReadTests.feed(items.joined())
        #expect(data.count >= 2 * SharedRead.chunkBytes)
        let url = try Self.file(Array(data), in: directory, named: "feed.xml")

        let grown = try FeedFile(url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n<!-- appended -->\n".utf8))
        try handle.close()
        let splitOfGrown = SplitRead()
        #expect(grown.readWhole(sharingWith: splitOfGrown) == nil, "grown: its end is not where it was")
        splitOfGrown.callOff()  // as the parser does when a file is not read whole: the other thread is let go

        let shrunk = try FeedFile(url)
        #expect(truncate(url.path, off_t(data.count / 2)) == 0)
        let splitOfShrunk = SplitRead()
        #expect(shrunk.readWhole(sharingWith: splitOfShrunk) == nil, "shrunk: chunks read short")
        splitOfShrunk.callOff()

        // Whole again: read whole, by both threads, and the podcast is the one a single read gives.
        try data.write(to: url)
        let whole = try FeedFile(url)
        let split = SplitRead()
        let read = try #require(whole.readWhole(sharingWith: split))
        #expect(Array(read.document) == Array(data))
        split.callOff()
        read.buffer.deallocate()
        let parsed = try FeedParser.parse(contentsOf: url, baseURL: FeedTapeTests.base)
        #expect(FeedTapeTests.difference(.parsed(parsed), SplitReadTests.one(data)) == nil)
    }
}
