import Foundation

/// Ctrl-C and SIGTERM as a stream, by the self-pipe trick: the handler (one `write`, which is
/// async-signal-safe) is in place the moment `signal` returns. A DispatchSource installs its
/// handler later, on another thread; a SIGTERM sent right after the URL line was printed could
/// come in between, meet `SIG_IGN`, and be lost (a test then waited for an exit that never came).
enum QuitSignals {
    /// The pipe's write end, for the handler (set once, before any handler is installed).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Starts catching SIGINT and SIGTERM; each arrives on the returned stream as its number.
    static func start() -> AsyncStream<Int32> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("pipe() failed: errno \(errno)") }
        writeEnd = ends[1]
        let readEnd = ends[0]
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let reader = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 { continuation.yield(Int32(byte)) }
        }
        reader.name = "quit-signals"
        reader.start()
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { sig in
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = write(QuitSignals.writeEnd, &byte, 1)
            }
        }
        return stream
    }
}
