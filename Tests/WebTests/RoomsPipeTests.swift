import Foundation
import Snapcast
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The rooms' pipe: held open and cut to `RoomsPipeLink.pipeBytes`, so a writer running ahead
/// (mpv's SDL writer) is paced with at most that much waiting in it.
@Suite struct RoomsPipeTests {
    @Test func heldPipeTakesAtMostItsSize() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rooms-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("earshot.fifo").path
        #expect(mkfifo(path, 0o600) == 0)

        // No reader yet: a writer that will not wait is refused, as mpv's would wait for good.
        #expect(open(path, O_WRONLY | O_NONBLOCK) == -1 && errno == ENXIO)
        let held = try #require(RoomsPipeLink.hold(pipe: path))
        defer { close(held) }
        // Held: a writer opens at once, and the pipe takes pipeBytes before it would block.
        let writer = open(path, O_WRONLY | O_NONBLOCK)
        #expect(writer >= 0)
        defer { close(writer) }
        #expect(fcntl(writer, 1032) == Int32(RoomsPipeLink.pipeBytes)) // F_GETPIPE_SZ
        let chunk = [UInt8](repeating: 1, count: 1024)
        var taken = 0
        while true {
            let n = chunk.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            if n < 0 { #expect(errno == EAGAIN); break }
            taken += n
        }
        #expect(taken == RoomsPipeLink.pipeBytes)
        // Smaller than Linux's 64 KiB: that much would be 0.34 s of 48000:16:2 behind every pause.
        #expect(RoomsPipeLink.pipeBytes < 65536)
        #expect(RoomsPipeLink.hold(pipe: folder.appendingPathComponent("missing").path) == nil)
    }
}
