import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port) serving a table of canned responses, for tests
/// that fetch feeds, artwork or audio over the network stack for real.
///
/// POSIX sockets; one background thread accepts, each connection gets a thread of its own and is closed
/// after one response (`Connection: close`). GET and HEAD requests for a 200 response honour a single
/// `Range` (206 / 416) and `If-Range`, so resumable downloads can be tested; a response can also be
/// slowed down, cut off, stripped of its length, or made to ignore ranges. Unknown paths get 404. Every request is
/// recorded (`requests`), so a test can check what a client sent (conditional GET headers, ranges).
///
/// Thread-safe: the table and the log sit behind a lock, so tests may change routes while clients fetch.
public final class FixtureHTTPServer: Sendable {
    /// A canned response.
    public struct Response: Sendable {
        public var status: Int
        /// Sent as given. `Content-Length` is added when absent (a test may set a false one on purpose).
        public var headers: [String: String]
        public var body: Data
        /// A pause between chunks of the body: makes a download slow enough to watch or cancel.
        public var chunkDelay: TimeInterval
        /// The size of those chunks.
        public var chunkSize = 64 * 1024
        /// Answer a `Range` request with 200 and the whole body, as servers without range support do.
        public var ignoresRange = false
        /// Close the connection after this many bytes of the body (a connection that breaks off).
        public var dropAfter: Int?
        /// Send no `Content-Length`: the body ends when the connection closes.
        public var omitsContentLength = false

        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(),
                    chunkDelay: TimeInterval = 0, chunkSize: Int = 64 * 1024, ignoresRange: Bool = false,
                    dropAfter: Int? = nil, omitsContentLength: Bool = false) {
            self.status = status
            self.headers = headers
            self.body = body
            self.chunkDelay = chunkDelay
            self.chunkSize = chunkSize
            self.ignoresRange = ignoresRange
            self.dropAfter = dropAfter
            self.omitsContentLength = omitsContentLength
        }

        /// A UTF-8 text body with its content type.
        public init(status: Int = 200, text: String, contentType: String = "text/plain; charset=utf-8",
                    headers: [String: String] = [:]) {
            var all = headers
            all["Content-Type"] = contentType
            self.init(status: status, headers: all, body: Data(text.utf8))
        }
    }

    /// A request as the server received it.
    public struct Request: Sendable, Equatable {
        public var method: String
        /// The request target as sent: path and query.
        public var target: String
        /// Header names lowercased.
        public var headers: [String: String]
        public var body: Data

        /// The value of header `name`, any case.
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: UInt16
    private let listener: Int32
    private let state = State()

    /// `http://127.0.0.1:<port>`
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts listening at once; the server runs until `stop()` or until it is released.
    public init(routes: [String: Response] = [:]) throws {
        let (listener, port) = try Self.makeListener()
        self.listener = listener
        self.port = port
        state.withLock { $0.routes = routes }
        let state = self.state
        let thread = Thread { Self.acceptLoop(listener: listener, state: state) }
        thread.name = "FixtureHTTPServer:\(port)"
        thread.start()
    }

    deinit { stop() }

    /// The absolute URL of `path` (which starts with `/`, and may carry a query) on this server.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// The response served at `path` (exact request target first, then the path without its query).
    public subscript(path: String) -> Response? {
        get { state.withLock { $0.routes[path] } }
        set { state.withLock { $0.routes[path] = newValue } }
    }

    /// Serves `body` at `path`.
    public func set(_ path: String, status: Int = 200, headers: [String: String] = [:], body: Data) {
        self[path] = Response(status: status, headers: headers, body: body)
    }

    /// Serves `response` at `path`.
    public func set(_ path: String, _ response: Response) { self[path] = response }

    /// Serves `responses` at `path` one request after another; the last one answers every request after.
    public func set(_ path: String, sequence responses: [Response]) {
        state.withLock {
            $0.routes[path] = responses.last
            $0.sequences[path] = Array(responses.dropLast())
        }
    }

    /// Every request received so far, oldest first.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// The most requests that were being answered at the same time.
    public var maxConcurrentRequests: Int { state.withLock { $0.maxConcurrent } }

    /// Stops accepting; connections already being served finish. Safe to call more than once.
    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        // Wakes the blocked accept(); the accept thread closes the socket itself, so the descriptor
        // cannot be reused by someone else while that thread might still touch it.
        _ = shutdown(listener, Int32(SHUT_RDWR))
    }

    // MARK: Socket plumbing

    private static func makeListener() throws(StartError) -> (Int32, UInt16) {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw StartError(description: "socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw StartError(description: "bind/listen on 127.0.0.1 failed: errno \(code)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private static func acceptLoop(listener: Int32, state: State) {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            let stopped = state.withLock { $0.stopped }
            if client < 0 {
                if stopped { return }
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // unrecoverable: tests will see connections refused
            }
            if stopped {
                close(client)
                return
            }
            let thread = Thread { Connection(fd: client, state: state).serve() }
            thread.start()
        }
    }

    /// The mutable part, behind a lock: the only `@unchecked Sendable` here, and every access is locked.
    final class State: @unchecked Sendable {
        struct Contents {
            var routes: [String: Response] = [:]
            var requests: [Request] = []
            var stopped = false
            /// Responses served before `routes`' one, first to last (`set(_:sequence:)`).
            var sequences: [String: [Response]] = [:]
            var concurrent = 0
            var maxConcurrent = 0
        }

        private let lock = NSLock()
        private var contents = Contents()

        func withLock<R>(_ body: (inout Contents) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&contents)
        }
    }
}

/// One accepted connection: read a request, answer it, close.
private struct Connection {
    let fd: Int32
    let state: FixtureHTTPServer.State

    func serve() {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard let request = readRequest() else { return }
        let response = state.withLock { contents -> FixtureHTTPServer.Response in
            contents.requests.append(request)
            contents.concurrent += 1
            contents.maxConcurrent = max(contents.maxConcurrent, contents.concurrent)
            let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.target
            for key in [request.target, path] {
                if var queued = contents.sequences[key], !queued.isEmpty {
                    let next = queued.removeFirst()
                    contents.sequences[key] = queued
                    return next
                }
            }
            return contents.routes[request.target] ?? contents.routes[path]
                ?? FixtureHTTPServer.Response(status: 404, text: "no fixture at \(request.target)\n")
        }
        defer { state.withLock { $0.concurrent -= 1 } }
        respond(to: request, with: response)
    }

    private func readRequest() -> FixtureHTTPServer.Request? {
        var buffer = [UInt8]()
        var headEnd: Int?
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while headEnd == nil {
            guard buffer.count < 64 * 1024 else { return nil }
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { return nil }
            let searchStart = max(0, buffer.count - 3)
            buffer.append(contentsOf: chunk[0..<received])
            headEnd = Self.find([13, 10, 13, 10], in: buffer, from: searchStart)
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[(headEnd + 4)...])
        let expected = min(Int(headers["content-length"] ?? "") ?? 0, 16 * 1_048_576)
        while body.count < expected {
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { break }
            body.append(contentsOf: chunk[0..<received])
        }
        return FixtureHTTPServer.Request(method: String(requestLine[0]), target: String(requestLine[1]),
                                         headers: headers, body: body)
    }

    private func respond(to request: FixtureHTTPServer.Request, with response: FixtureHTTPServer.Response) {
        var status = response.status
        var headers = response.headers
        var body = response.body
        let hasHeader = { (name: String) in headers.keys.contains { $0.lowercased() == name } }
        if status == 200, !hasHeader("content-range"), !response.ignoresRange, ["GET", "HEAD"].contains(request.method) {
            if !hasHeader("accept-ranges") { headers["Accept-Ranges"] = "bytes" }
            // If-Range as servers do it: the range only while the validator still names this body
            // (a strong ETag compared exactly, or the Last-Modified date); otherwise the whole body.
            let header = { (name: String) in headers.first { $0.key.lowercased() == name }?.value }
            let validator = request.header("if-range")
            let stillValid = validator.map { value in
                (header("etag").map { $0 == value && !$0.hasPrefix("W/") } ?? false) || header("last-modified") == value
            } ?? true
            if stillValid, let range = request.header("range") {
                switch Self.byteRange(range, length: body.count) {
                case .some(let bytes):
                    status = 206
                    headers["Content-Range"] = "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(body.count)"
                    body = body.subdata(in: bytes)
                case .none:
                    status = 416
                    headers["Content-Range"] = "bytes */\(body.count)"
                    body = Data()
                }
            }
        }
        let bodiless = request.method == "HEAD" || status == 204 || status == 304
        if !hasHeader("content-length"), status != 204, status != 304, !response.omitsContentLength {
            headers["Content-Length"] = String(body.count)
        }
        headers["Connection"] = "close"
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        guard send(Data(head.utf8)), !bodiless else { return }
        let chunkSize = max(1, response.chunkSize)
        let sent = min(body.count, response.dropAfter ?? body.count)
        var offset = 0
        while offset < sent {
            let end = min(offset + chunkSize, sent)
            guard send(body.subdata(in: offset..<end)) else { return }
            offset = end
            if response.chunkDelay > 0, offset < sent { Thread.sleep(forTimeInterval: response.chunkDelay) }
        }
    }

    /// Writes all of `data`; false when the client went away.
    private func send(_ data: Data) -> Bool {
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return data.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let written = posixSend(fd, raw.baseAddress! + sent, raw.count - sent, flags)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                sent += written
            }
            return true
        }
    }

    /// `bytes=a-b`, `bytes=a-`, `bytes=-n` within `length`; nil when unsatisfiable or malformed.
    static func byteRange(_ header: String, length: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = Int(spec[0].trimmingCharacters(in: .whitespaces))
        let last = Int(spec[1].trimmingCharacters(in: .whitespaces))
        switch (first, last) {
        case (let start?, let end?) where start <= end && start < length:
            return start..<min(end + 1, length)
        case (let start?, nil) where spec[1].isEmpty && start < length:
            return start..<length
        case (nil, let suffix?) where spec[0].isEmpty && suffix > 0 && length > 0:
            return max(0, length - suffix)..<length
        default:
            return nil
        }
    }

    static func find(_ pattern: [UInt8], in buffer: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        var index = start
        while index <= buffer.count - pattern.count {
            if buffer[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 410: return "Gone"
        case 416: return "Range Not Satisfiable"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status \(status)"
        }
    }
}

/// The C `send`, named apart from `Connection.send(_:)`.
private func posixSend(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, buffer, count, flags)
}
