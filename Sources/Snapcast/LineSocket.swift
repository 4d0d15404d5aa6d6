import EarshotCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection that carries lines (snapserver's JSON-RPC: one JSON text a line, its own lines
/// ending in `\r\n`). A thread of its own blocks in `read` and hands each line to `onLine`; `send`
/// may be called from anywhere. Plain POSIX sockets: the only code here that touches them.
final class LineSocket: @unchecked Sendable {
    // @unchecked: `fd` is set once; `closed` and writes are behind `lock`.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private let lock = NSLock()
    private var closed = false

    /// Connects to `host` (a name or an address) on `port` within `timeout` seconds.
    init(host: String, port: Int, timeout: Double = 3) throws {
        fd = try Self.connectedSocket(host: host, port: port, timeout: timeout)
    }

    /// A connected TCP socket (nodelay) to `host:port`, each address tried within `timeout` seconds;
    /// the caller owns it. Also `TCPPump`'s.
    static func connectedSocket(host: String, port: Int, timeout: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &found)
        guard rc == 0, let first = found else {
            throw Failure(description: "cannot find \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(first) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen, timeout: timeout) {
                var on: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                return fd
            }
            lastError = String(cString: strerror(errno))
            Glibc.close(fd)
        }
        throw Failure(description: "cannot connect to \(host):\(port): \(lastError)")
    }

    /// A connect that gives up after `timeout` (a dead host would otherwise take minutes).
    private static func connect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, timeout: Double) -> Bool {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        if Glibc.connect(fd, address, length) == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { errno = ETIMEDOUT; return false }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
        errno = error
        return error == 0
    }

    /// Reads on a thread of its own until the peer closes or `close()`: each line (without its
    /// `\r\n`) to `onLine`, then `onClose` once.
    func start(onLine: @escaping @Sendable (String) -> Void, onClose: @escaping @Sendable () -> Void) {
        let fd = self.fd
        let thread = Thread {
            var pending = [UInt8]()
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: chunk[0..<count])
                while let newline = pending.firstIndex(of: 0x0A) {
                    var line = pending[..<newline]
                    if line.last == 0x0D { line = line.dropLast() }
                    let text = String(decoding: line, as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if !text.isEmpty { onLine(text) }
                }
                // A line longer than 16 MiB is no snapserver's: give up on this connection.
                if pending.count > 16 << 20 { break }
            }
            onClose()
        }
        thread.name = "snapcast-control"
        thread.start()
    }

    /// Writes `line` and a newline; false when the connection is gone.
    @discardableResult
    func send(_ line: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !closed else { return false }
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Ends the connection; the reading thread sees it and says `onClose`.
    func close() {
        lock.lock(); defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        shutdown(fd, Int32(SHUT_RDWR))
    }

    deinit { Glibc.close(fd) }
}
