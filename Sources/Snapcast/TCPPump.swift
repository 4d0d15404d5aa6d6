import EarshotCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Feeds a snapserver's TCP source (`tcp://…?mode=server`: a snapserver on another machine, where
/// a pipe cannot reach). Snapcast's TCP source takes whatever arrives, as fast as it arrives, and
/// plays it at 1× — so the writer must pace itself. mpv writes into a pipe of Earshot's own (as it
/// would into a snapserver's); a thread of this pump reads it at 1× — 20 ms of 48000:16:2 every
/// 20 ms on a monotonic schedule, as snapserver's own pipe reader does — and sends it on. The pipe
/// then paces mpv just as a snapserver's does, and the pump holds it open, so mpv never waits for
/// a reader. The socket is made again every second while the snapserver is away (what mpv writes
/// meanwhile is read and dropped, so it never blocks).
public final class TCPPump: @unchecked Sendable {
    // @unchecked: `running` is behind `lock`; the thread owns the descriptors.
    public let fifoPath: String
    public let host: String
    public let port: Int
    private let lock = NSLock()
    private var running = false

    /// 20 ms of 48 kHz, 16-bit stereo.
    static let chunkBytes = 48000 * 4 / 50
    static let chunkNanoseconds: UInt64 = 20_000_000

    public init(fifoPath: String, host: String, port: Int) {
        self.fifoPath = fifoPath; self.host = host; self.port = port
    }

    /// Makes the pipe (when missing) and starts the thread.
    public func start() throws {
        var info = stat()
        if stat(fifoPath, &info) != 0 {
            guard mkfifo(fifoPath, 0o600) == 0 else {
                throw LineSocket.Failure(description: "cannot make the pipe \(fifoPath): \(String(cString: strerror(errno)))")
            }
        }
        let fd = open(fifoPath, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw LineSocket.Failure(description: "cannot open \(fifoPath): \(String(cString: strerror(errno)))") }
        lock.withLock { running = true }
        let thread = Thread { [self] in pump(fd) }
        thread.name = "snapcast-tcp"
        thread.start()
        Log.info("snapcast", "sending Earshot's audio to the snapserver's TCP source \(host):\(port)")
    }

    public func stop() { lock.withLock { running = false } }

    private var isRunning: Bool { lock.withLock { running } }

    private func pump(_ fifo: Int32) {
        defer { Glibc.close(fifo) }
        var socket: Int32 = -1
        var lastAttempt: UInt64 = 0
        var reported: String?
        var buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
        var next = DispatchTime.now().uptimeNanoseconds
        while isRunning {
            let now = DispatchTime.now().uptimeNanoseconds
            if socket < 0, now &- lastAttempt > 1_000_000_000 {
                lastAttempt = now
                do {
                    socket = try LineSocket.connectedSocket(host: host, port: port, timeout: 1)
                    reported = nil
                } catch {
                    // Tried again every second; said once per reason.
                    if "\(error)" != reported { Log.warning("snapcast", "\(error); trying again"); reported = "\(error)" }
                }
            }
            let count = buffer.withUnsafeMutableBytes { read(fifo, $0.baseAddress, $0.count) }
            if count > 0, socket >= 0 {
                var sent = 0
                while sent < count {
                    let n = buffer[sent..<count].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else {
                        Log.warning("snapcast", "the snapserver's TCP source \(host):\(port) closed: \(String(cString: strerror(errno)))")
                        Glibc.close(socket)
                        socket = -1
                        break
                    }
                    sent += n
                }
            }
            // On schedule: a late round does not make the next one early twice over.
            next &+= Self.chunkNanoseconds
            let after = DispatchTime.now().uptimeNanoseconds
            if next > after { usleep(UInt32((next - after) / 1000)) } else if after - next > 200_000_000 { next = after }
        }
        if socket >= 0 { Glibc.close(socket) }
    }
}
