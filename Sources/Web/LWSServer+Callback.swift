import CWebSockets
import EarshotCore
import Foundation

/// The one C entry point: finds the server from the context's user pointer.
func earshotLWSCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                        _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, len)
    }
    let server = Unmanaged<LWSServer>.fromOpaque(raw).takeUnretainedValue()
    return server.callback(wsi, reason, user, input, len)
}

extension LWSServer {
    /// Service thread: one lws event.
    func callback(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                  _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_HTTP:
            return beginHTTP(wsi, path: string(input, len))
        case LWS_CALLBACK_HTTP_BODY:
            let conn = connection(wsi)
            if conn.refused { return 0 }
            if conn.chunked != nil { return chunkedBody(wsi, conn, input, len) }
            if conn.body.count + len > Self.maxBody { conn.bodyTooLarge = true; conn.body = Data() }
            else if let input, len > 0 { conn.body.append(input.assumingMemoryBound(to: UInt8.self), count: len) }
            return 0
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            let conn = connection(wsi)
            if conn.refused { return 0 } // already answered 403/413; never carry it out
            if conn.bodyTooLarge { return refuse(wsi, conn, 413, "request body too large", close: true) }
            dispatch(conn)
            return 0
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return writeHTTP(wsi)
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return filterSocket(wsi)
        case LWS_CALLBACK_ESTABLISHED:
            let conn = connection(wsi)
            conn.isSocket = true
            socketContinuation.yield(.opened(conn.id))
            return 0
        case LWS_CALLBACK_RECEIVE:
            receiveFrame(wsi, input, len)
            return 0
        case LWS_CALLBACK_SERVER_WRITEABLE:
            if connections[key(wsi)]?.kicked == true { return -1 } // revoked: lws sends the close reason
            return writeSocket(wsi)
        case LWS_CALLBACK_CLOSED:
            if let conn = connections[key(wsi)], conn.isSocket {
                conn.isSocket = false
                socketContinuation.yield(.closed(conn.id))
            }
            return 0
        case LWS_CALLBACK_WSI_DESTROY:
            if let conn = connections.removeValue(forKey: key(wsi)) {
                wsiByClient[conn.id] = nil
                if conn.isSocket { socketContinuation.yield(.closed(conn.id)) }
            }
            return lws_callback_http_dummy(wsi, reason, user, input, len)
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            drainOutbox()
            drainKicks()
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, len)
        }
    }

    func key(_ wsi: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(wsi))) }

    /// The connection record for a wsi, made on first sight.
    func connection(_ wsi: OpaquePointer) -> Connection {
        if let conn = connections[key(wsi)] { return conn }
        let conn = Connection(id: nextClientID)
        nextClientID += 1
        connections[key(wsi)] = conn
        wsiByClient[conn.id] = wsi
        return conn
    }

    func string(_ input: UnsafeMutableRawPointer?, _ len: Int) -> String {
        guard let input, len > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: input, count: len), as: UTF8.self)
    }

    /// The URL's arguments. lws keeps each one url-decoded in a fragment of its own ("q=a b",
    /// "provider=x"); the whole header would join them with commas, so `?q=a&b=c` read as one
    /// value "a,b=c". A name without "=" has the value "".
    func queryArguments(_ wsi: OpaquePointer) -> [String: String] {
        let total = Int(lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS))
        guard total > 0 else { return [:] }
        var arguments: [String: String] = [:]
        var buffer = [CChar](repeating: 0, count: total + 1)
        for index in 0..<Self.maxQueryArguments {
            let copied = Int(lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, Int32(index)))
            guard copied >= 0 else { break }
            let text = String(decoding: buffer[0..<copied].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first, !name.isEmpty, arguments[String(name)] == nil else { continue } // the first one counts
            arguments[String(name)] = parts.count > 1 ? String(parts[1]) : ""
        }
        return arguments
    }

    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        let copied = Int(lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token))
        guard copied >= 0 else { return nil }
        return String(decoding: buffer[0..<copied].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - HTTP requests

    private func beginHTTP(_ wsi: OpaquePointer, path: String) -> Int32 {
        let conn = connection(wsi)
        conn.resetRequest()
        conn.path = path.isEmpty ? "/" : path
        conn.query = queryArguments(wsi)
        for (name, token) in [("host", WSI_TOKEN_HOST), ("origin", WSI_TOKEN_ORIGIN),
                              ("if-none-match", WSI_TOKEN_HTTP_IF_NONE_MATCH),
                              ("content-type", WSI_TOKEN_HTTP_CONTENT_TYPE),
                              ("content-length", WSI_TOKEN_HTTP_CONTENT_LENGTH),
                              ("transfer-encoding", WSI_TOKEN_HTTP_TRANSFER_ENCODING),
                              ("user-agent", WSI_TOKEN_HTTP_USER_AGENT), ("cookie", WSI_TOKEN_HTTP_COOKIE),
                              ("authorization", WSI_TOKEN_HTTP_AUTHORIZATION), ("range", WSI_TOKEN_HTTP_RANGE)] {
            if let value = header(wsi, token) { conn.headers[name] = value }
        }
        conn.method = method(wsi)
        guard allowsHostRefreshing(conn.headers["host"]) else {
            return refuse(wsi, conn, 403, "this server answers only to its own host name", close: true)
        }
        let changesState = !["GET", "HEAD", "OPTIONS"].contains(conn.method)
        if changesState, !policy.allowsOrigin(conn.headers["origin"], host: conn.headers["host"]) {
            return refuse(wsi, conn, 403, "cross-origin requests are refused", close: true)
        }
        // Pairing (LWSServer+Access): a stranger gets the pairing page or a refusal, before any body is read.
        let admission = admit(wsi, conn, method: conn.method, path: conn.path)
        switch admission.verdict {
        case .refuse(let status, let message): return refuse(wsi, conn, status, message, close: true)
        case .pairingOnly, .serve: break
        }
        let declared = Int(conn.headers["content-length"] ?? "") ?? 0
        if declared > Self.maxBody { return refuse(wsi, conn, 413, "request body too large", close: true) }
        if let encoding = conn.headers["transfer-encoding"] {
            // Chunked bodies are decoded here (ChunkedBody: lws hands them over raw); nothing else.
            guard encoding.trimmingCharacters(in: .whitespaces).lowercased() == "chunked",
                  ["POST", "PUT", "PATCH"].contains(conn.method) else {
                return refuse(wsi, conn, 411, "send the request body with a Content-Length or as Transfer-Encoding: chunked", close: true)
            }
            // Both framings at once is how requests are smuggled past proxies: refused.
            guard conn.headers["content-length"] == nil else {
                return refuse(wsi, conn, 400, "a request may not have both Content-Length and Transfer-Encoding", close: true)
            }
            conn.chunked = ChunkedBody(limit: Self.maxBody)
            return 0 // the body follows: LWS_CALLBACK_HTTP_BODY
        }
        if changesState && declared > 0 { return 0 } // the body follows: LWS_CALLBACK_HTTP_BODY
        dispatch(conn)
        return 0
    }

    /// A piece of a chunked body: decoded; the request is carried out once its last chunk is in, and
    /// the connection closes after the answer (lws still counts the body as going on).
    private func chunkedBody(_ wsi: OpaquePointer, _ conn: Connection, _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
        guard !conn.dispatched, let input, len > 0 else { return 0 }
        switch conn.chunked!.feed(UnsafeRawBufferPointer(start: input, count: len)) {
        case .needMore:
            return 0
        case .done:
            conn.body = Data(conn.chunked!.body)
            conn.closeAfterResponse = true
            dispatch(conn)
            return 0
        case .tooLarge:
            return refuse(wsi, conn, 413, "request body too large", close: true)
        case .malformed(let reason):
            return refuse(wsi, conn, 400, "malformed chunked body: \(reason)", close: true)
        }
    }

    private func method(_ wsi: OpaquePointer) -> String {
        let tokens: [(lws_token_indexes, String)] = [
            (WSI_TOKEN_GET_URI, "GET"), (WSI_TOKEN_POST_URI, "POST"), (WSI_TOKEN_HEAD_URI, "HEAD"),
            (WSI_TOKEN_PUT_URI, "PUT"), (WSI_TOKEN_DELETE_URI, "DELETE"), (WSI_TOKEN_OPTIONS_URI, "OPTIONS"),
            (WSI_TOKEN_PATCH_URI, "PATCH"),
        ]
        for (token, name) in tokens where lws_hdr_total_length(wsi, token) > 0 { return name }
        return "GET"
    }

    /// Hands the request to Swift on its own task; the answer comes back through the outbox.
    private func dispatch(_ conn: Connection) {
        // Once per request: a POST with "Content-Length: 0" is dispatched at once, and lws then
        // still fires BODY_COMPLETION for it.
        guard !conn.refused, !conn.dispatched else { return }
        conn.dispatched = true
        let request = conn.request
        let id = conn.id
        guard let handler else { return }
        Task { [weak self] in
            let response = await handler.respond(to: request)
            self?.deliver(response, to: id)
        }
    }

    /// Answers now (on the service thread) with an error, then closes the connection when asked.
    private func refuse(_ wsi: OpaquePointer, _ conn: Connection, _ status: Int, _ message: String, close: Bool) -> Int32 {
        conn.response = .error(status, message)
        conn.response?.headers.append(("connection", "close"))
        conn.headersSent = false
        conn.offset = 0
        conn.closeAfterResponse = close
        conn.refused = true
        lws_callback_on_writable(wsi)
        return 0
    }
}
