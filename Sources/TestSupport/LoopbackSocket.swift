import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection to 127.0.0.1 for tests that must control every byte on the wire
/// (Host and Origin headers, WebSocket frames) — what URLSession would rewrite or hide.
public final class LoopbackSocket: @unchecked Sendable {
    // @unchecked: one test uses one socket from one task at a time.
    private let fd: Int32
    private var buffer = [UInt8]()
    public private(set) var isClosed = false

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Connects to 127.0.0.1, or to `ipv6` (an IPv6 address such as "::1") when given.
    public init(port: Int, timeout: Double = 5, ipv6: String? = nil) throws {
        fd = socket(ipv6 == nil ? AF_INET : AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let rc: Int32
        if let ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, ipv6, &address.sin6_addr) == 1 else {
                close(fd); throw Failure(description: "not an IPv6 address: \(ipv6)")
            }
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard rc == 0 else { close(fd); throw Failure(description: "connect to port \(port) failed (errno \(errno))") }
    }

    deinit { close(fd) }

    public func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send failed (errno \(errno))") }
            sent += n
        }
    }

    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Reads more bytes into the buffer; false on EOF, throws on timeout.
    @discardableResult
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { isClosed = true; return false }
        if n < 0 {
            if errno == ECONNRESET { isClosed = true; return false }
            throw Failure(description: "timed out waiting for the server (errno \(errno))")
        }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Exactly `count` bytes.
    public func read(count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw Failure(description: "connection closed after \(buffer.count) of \(count) bytes") }
        }
        let result = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return result
    }

    /// Bytes up to and including `delimiter`.
    public func read(until delimiter: [UInt8]) throws -> [UInt8] {
        while true {
            if let range = find(delimiter) {
                let result = Array(buffer[0..<range])
                buffer.removeFirst(range)
                return result
            }
            guard try fill() else { throw Failure(description: "connection closed before the delimiter") }
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i] == needle[0] {
            if Array(buffer[i..<(i + needle.count)]) == needle { return i + needle.count }
        }
        return nil
    }

    /// Whatever arrives within `seconds` (buffered bytes included).
    func readAvailable(within seconds: Double) -> [UInt8] {
        let deadline = Date().addingTimeInterval(seconds)
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while Date() < deadline {
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&pollFD, 1, left) > 0, (try? fill()) == true else { break }
        }
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server closed the connection within `timeout` (reading and dropping data).
    public func waitForClose(timeout: Double = 3) async -> Bool {
        (try? await offThePool { self.waitForCloseBlocking(timeout: timeout) }) ?? false
    }

    func waitForCloseBlocking(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            do { if try !fill() { return true } } catch { return isClosed }
            buffer.removeAll()
        }
        return false
    }
}

/// One HTTP/1.1 exchange over a fresh loopback connection, with the headers exactly as given.
public struct RawHTTP {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// `timeout`: how long the answer may take (seconds without a byte).
    public static func request(port: Int, method: String = "GET", path: String, headers: [String: String] = [:],
                               body: Data = Data(), timeout: Double = 5) async throws -> (Response, LoopbackSocket) {
        try await offThePool { try requestBlocking(port: port, method: method, path: path, headers: headers, body: body, timeout: timeout) }
    }

    static func requestBlocking(port: Int, method: String, path: String, headers: [String: String],
                                body: Data, timeout: Double = 5) throws -> (Response, LoopbackSocket) {
        let socket = try LoopbackSocket(port: port, timeout: timeout)
        var lines = ["\(method) \(path) HTTP/1.1"]
        var all = headers
        if all["Host"] == nil { all["Host"] = "127.0.0.1:\(port)" }
        // A HEAD's answer has no body: asked to close after it, the server ends the wait for one that
        // should not come (else up to 0.3 s a request, `readResponse`).
        if method == "HEAD", all["Connection"] == nil { all["Connection"] = "close" }
        if !body.isEmpty || method == "POST" { all["Content-Length"] = "\(body.count)" }
        for (k, v) in all.sorted(by: { $0.key < $1.key }) { lines.append("\(k): \(v)") }
        try socket.write(lines.joined(separator: "\r\n") + "\r\n\r\n")
        if !body.isEmpty {
            do {
                try socket.write([UInt8](body))
            } catch let failure as LoopbackSocket.Failure
                where failure.description.hasSuffix("(errno \(EPIPE))") || failure.description.hasSuffix("(errno \(ECONNRESET))") {
                // A server may answer before it has read the whole body (a 413 on a declared length too
                // large) and close: the rest of the body has nowhere to go, but the answer is there to read.
            }
        }
        return (try readResponse(socket, head: method == "HEAD"), socket)
    }

    /// Reads one response. For a HEAD the body is whatever arrives until the server closes the
    /// connection, or within 0.3 s: it should be nothing.
    public static func readResponse(_ socket: LoopbackSocket, head isHead: Bool = false) throws -> Response {
        let head = String(decoding: try socket.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw LoopbackSocket.Failure(description: "bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        if isHead { return Response(status: status, headers: headers, body: Data(socket.readAvailable(within: 0.3))) }
        let body = length > 0 ? Data(try socket.read(count: length)) : Data()
        return Response(status: status, headers: headers, body: body)
    }
}
