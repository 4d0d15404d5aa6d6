import CWebSockets
import EarshotCore
import Foundation

extension LWSServer {
    /// Bytes written per writeable callback: lws sends one chunk, then asks again.
    static let chunkSize = 32 << 10

    /// Service thread: headers first, then the body a chunk per writeable callback.
    func writeHTTP(_ wsi: OpaquePointer) -> Int32 {
        guard let conn = connections[key(wsi)], let response = conn.response else { return 0 }
        let pre = earshot_lws_pre()
        if !conn.headersSent {
            var buffer = [UInt8](repeating: 0, count: pre + 4096)
            let ok = buffer.withUnsafeMutableBufferPointer { buf -> Bool in
                let start = buf.baseAddress! + pre
                var p: UnsafeMutablePointer<UInt8>? = start
                let end = buf.baseAddress! + buf.count - 1
                if lws_add_http_common_headers(wsi, UInt32(response.status), response.contentType,
                                               lws_filepos_t(response.body.count), &p, end) != 0 { return false }
                for (name, value) in response.headers + Self.securityHeaders {
                    let n = Array((name + ":").utf8) + [0]
                    let v = Array(value.utf8)
                    if lws_add_http_header_by_name(wsi, n, v, Int32(v.count), &p, end) != 0 { return false }
                }
                return lws_finalize_write_http_header(wsi, start, &p, end) == 0
            }
            guard ok else { return -1 }
            conn.headersSent = true
            conn.offset = 0
            // HEAD: the same headers (Content-Length included), no body.
            if response.body.isEmpty || conn.method == "HEAD" { return finishHTTP(wsi, conn) }
            lws_callback_on_writable(wsi)
            return 0
        }
        let remaining = response.body.count - conn.offset
        let count = min(remaining, Self.chunkSize)
        let final = count == remaining
        var buffer = [UInt8](repeating: 0, count: pre + count)
        response.body.copyBytes(to: &buffer[pre], from: conn.offset..<(conn.offset + count))
        let written = buffer.withUnsafeMutableBufferPointer { buf in
            lws_write(wsi, buf.baseAddress! + pre, count, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP)
        }
        guard written >= count else { return -1 }
        conn.offset += count
        if final { return finishHTTP(wsi, conn) }
        lws_callback_on_writable(wsi)
        return 0
    }

    private func finishHTTP(_ wsi: OpaquePointer, _ conn: Connection) -> Int32 {
        conn.response = nil
        if conn.closeAfterResponse { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// Sent with every answer: feed text never runs as script, pages are never framed.
    static let securityHeaders: [(String, String)] = [
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
        ("content-security-policy",
         // ws: and wss: spelled out: older Safari does not count the page's own socket as 'self'.
         // media-src http: https:: a phone that takes an episode along plays it from the feed's own
         // address (audio only: no script, no frame, nothing of the page's).
         "default-src 'self'; img-src * data: blob:; media-src 'self' blob: http: https:; connect-src 'self' ws: wss:; " +
         "script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; " +
         "frame-ancestors 'none'; form-action 'self'"),
    ]

    // MARK: - WebSocket

    /// Service thread: the upgrade is allowed only on /ws, from our own Host and an Origin that
    /// matches it, and only for the host or a paired device (401 for a stranger: pair first).
    func filterSocket(_ wsi: OpaquePointer) -> Int32 {
        let path = header(wsi, WSI_TOKEN_GET_URI) ?? ""
        let host = header(wsi, WSI_TOKEN_HOST)
        guard path == "/ws", allowsHostRefreshing(host), policy.allowsOrigin(header(wsi, WSI_TOKEN_ORIGIN), host: host)
        else {
            _ = lws_return_http_status(wsi, 403, "refused")
            return -1
        }
        let admission = admit(wsi, connection(wsi), method: "GET", path: path)
        guard admission.verdict == .serve else {
            if case .refuse(let status, _) = admission.verdict { _ = lws_return_http_status(wsi, UInt32(status), "refused") }
            else { _ = lws_return_http_status(wsi, 401, "refused") }
            return -1
        }
        return 0
    }

    /// Service thread: reassembles a message from frames and chunks; one event per message.
    func receiveFrame(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ len: Int) {
        let conn = connection(wsi)
        // Revoked, even if the close is not out yet: nothing more from it reaches the engine.
        if conn.kicked { return }
        if let device = conn.device, let gate, !gate.isPaired(device) { kick(wsi, conn); return }
        if lws_is_first_fragment(wsi) != 0 && conn.rx.isEmpty && !conn.rxTooLarge {
            conn.rxBinary = lws_frame_is_binary(wsi) != 0
        }
        if !conn.rxTooLarge {
            if conn.rx.count + len > Self.maxFrame {
                conn.rxTooLarge = true
                conn.rx = Data()
            } else if let input, len > 0 {
                conn.rx.append(input.assumingMemoryBound(to: UInt8.self), count: len)
            }
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return }
        defer { conn.rx = Data(); conn.rxTooLarge = false; conn.rxBinary = false }
        if conn.rxTooLarge {
            socketContinuation.yield(.rejected(conn.id, "message too large (the limit is \(Self.maxFrame / 1024) KiB)"))
        } else if conn.rxBinary {
            socketContinuation.yield(.rejected(conn.id, "binary frames are not understood; send JSON text"))
        } else if let text = String(validating: conn.rx, as: UTF8.self) {
            if admitCommand(from: conn.id) {
                socketContinuation.yield(.text(conn.id, text))
            } else {
                // Answered here, on the service thread: the queue it would join is the problem.
                conn.outbox.push(SocketOutbox.Message(.error(id: .null, message: "too many commands at once; wait for replies")))
                lws_callback_on_writable(wsi)
            }
        } else {
            socketContinuation.yield(.rejected(conn.id, "text frames must be UTF-8"))
        }
    }

    /// Service thread: one queued message per writeable callback.
    func writeSocket(_ wsi: OpaquePointer) -> Int32 {
        guard let conn = connections[key(wsi)], let message = conn.outbox.pop() else { return 0 }
        let pre = earshot_lws_pre()
        let bytes = Array(message.text.utf8)
        var buffer = [UInt8](repeating: 0, count: pre + bytes.count)
        buffer.replaceSubrange(pre..<(pre + bytes.count), with: bytes)
        let written = buffer.withUnsafeMutableBufferPointer { buf in
            lws_write(wsi, buf.baseAddress! + pre, bytes.count, LWS_WRITE_TEXT)
        }
        guard written >= bytes.count else { return -1 }
        if !conn.outbox.isEmpty { lws_callback_on_writable(wsi) }
        return 0
    }

    /// Service thread: moves what other threads queued onto the connections.
    func drainOutbox() {
        lock.lock()
        let responses = outboxResponses
        let messages = outboxMessages
        outboxResponses.removeAll(keepingCapacity: true)
        outboxMessages.removeAll(keepingCapacity: true)
        lock.unlock()

        for (id, response) in responses {
            guard let wsi = wsiByClient[id], let conn = connections[key(wsi)] else { continue }
            conn.response = response
            if conn.closeAfterResponse { conn.response?.headers.append(("connection", "close")) }
            conn.headersSent = false
            conn.offset = 0
            lws_callback_on_writable(wsi)
        }
        guard !messages.isEmpty else { return }
        var touched = Set<ClientID>()
        for (target, message) in messages {
            if let target {
                guard let wsi = wsiByClient[target], let conn = connections[key(wsi)], conn.isSocket else { continue }
                conn.outbox.push(message)
                touched.insert(target)
            } else {
                for conn in connections.values where conn.isSocket {
                    conn.outbox.push(message)
                    touched.insert(conn.id)
                }
            }
        }
        for id in touched {
            if let wsi = wsiByClient[id] { lws_callback_on_writable(wsi) }
        }
    }
}
