import Foundation

/// A minimal RFC 6455 client for tests: handshake, masked text frames out, frames in.
public final class TestWebSocket: @unchecked Sendable {
    public let socket: LoopbackSocket
    public private(set) var handshakeStatus = 0

    /// Connects to `/ws` (or `path`) with the given Origin (nil sends none), Host and other headers
    /// (a Cookie, say).
    public static func connect(port: Int, path: String = "/ws", origin: String? = nil, host: String? = nil,
                               headers: [String: String] = [:]) async throws -> TestWebSocket {
        try await offThePool { try TestWebSocket(port: port, path: path, origin: origin, host: host, headers: headers) }
    }

    init(port: Int, path: String, origin: String?, host: String?, headers: [String: String] = [:]) throws {
        socket = try LoopbackSocket(port: port)
        var request = [
            "GET \(path) HTTP/1.1",
            "Host: \(host ?? "127.0.0.1:\(port)")",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13",
        ]
        if let origin { request.append("Origin: \(origin)") }
        request += headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        try socket.write(request.joined(separator: "\r\n") + "\r\n\r\n")
        do {
            let head = String(decoding: try socket.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
            let parts = head.split(separator: " ")
            handshakeStatus = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        } catch {
            handshakeStatus = 0 // closed without an answer: refused
        }
    }

    public var isOpen: Bool { handshakeStatus == 101 }

    /// Sends one frame (text by default), masked as a client must.
    public func send(_ text: String, opcode: UInt8 = 0x1) async throws { try await sendFrame(Array(text.utf8), opcode: opcode) }

    public func sendFrame(_ payload: [UInt8], opcode: UInt8 = 0x1, fin: Bool = true) async throws {
        try await offThePool { try self.sendFrameBlocking(payload, opcode: opcode, fin: fin) }
    }

    func sendFrameBlocking(_ payload: [UInt8], opcode: UInt8 = 0x1, fin: Bool = true) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        if payload.count < 126 { frame.append(0x80 | UInt8(payload.count)) }
        else if payload.count < 65536 {
            frame.append(0x80 | 126); frame.append(UInt8(payload.count >> 8)); frame.append(UInt8(payload.count & 0xff))
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xff)) }
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try socket.write(frame)
    }

    /// The next text message (control frames are skipped; a close frame throws).
    public func receive() async throws -> String {
        try await offThePool { try self.receiveBlocking() }
    }

    func receiveBlocking() throws -> String {
        while true {
            let head = try socket.read(count: 2)
            let opcode = head[0] & 0x0f
            var length = Int(head[1] & 0x7f)
            if length == 126 { let b = try socket.read(count: 2); length = Int(b[0]) << 8 | Int(b[1]) }
            else if length == 127 { length = try socket.read(count: 8).reduce(0) { $0 << 8 | Int($1) } }
            let payload = try socket.read(count: length)
            switch opcode {
            case 0x1: return String(decoding: payload, as: UTF8.self)
            case 0x8: throw LoopbackSocket.Failure(description: "server closed the socket")
            default: continue
            }
        }
    }

    /// The next message decoded as a JSON object.
    public func receiveJSON() async throws -> [String: Any] {
        let text = try await receive()
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw LoopbackSocket.Failure(description: "not a JSON object: \(text)")
        }
        return object
    }

    /// Reads messages until one satisfies `match` (or the deadline passes).
    public func receive(timeout: Double = 5, until match: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let message = try await receiveJSON()
            if match(message) { return message }
        }
        throw LoopbackSocket.Failure(description: "no matching message within \(timeout) s")
    }
}
