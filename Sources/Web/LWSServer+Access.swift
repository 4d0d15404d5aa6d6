import CWebSockets
import EarshotCore
import Foundation

extension LWSServer {
    /// Service thread: who sent this request (peer, cookie, proxy headers), as the gate judges it.
    /// With no gate (a bare transport in tests) everything is served, as before pairing existed.
    func admit(_ wsi: OpaquePointer, _ conn: Connection, method: String, path: String) -> Admission {
        conn.peer = peerAddress(wsi)
        guard let gate else { return Admission(requester: .host, verdict: .serve) }
        let forwarded = header(wsi, WSI_TOKEN_X_FORWARDED_FOR) != nil || header(wsi, WSI_TOKEN_HTTP_X_REAL_IP) != nil
            || customHeader(wsi, "forwarded:") != nil // RFC 7239: lws has no token for it
        let request = AdmissionRequest(method: method, path: path, peer: conn.peer,
                                       cookie: header(wsi, WSI_TOKEN_HTTP_COOKIE), forwarded: forwarded)
        let admission = gate.admit(request)
        conn.requester = admission.requester
        conn.device = admission.device
        return admission
    }

    /// The peer's IP address, without a reverse DNS lookup.
    func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A header lws has no token for; `name` is lower-case with its colon ("forwarded:").
    func customHeader(_ wsi: OpaquePointer, _ name: String) -> String? {
        let length = Int(lws_hdr_custom_length(wsi, name, Int32(name.utf8.count)))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), name, Int32(name.utf8.count)) >= 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Service thread: whether `host` names this server. On the LAN an address the machine got
    /// after start (a new DHCP lease) is learnt here: the interfaces are read again, at most every 5 s.
    func allowsHostRefreshing(_ host: String?) -> Bool {
        if policy.allowsHost(host) { return true }
        guard listensOnLAN, let host, Date().timeIntervalSince(namesReadAt) > 5 else { return false }
        namesReadAt = Date()
        policy.hostNames.formUnion(NetworkInterfaces.names())
        return policy.allowsHost(host)
    }

    // MARK: - Revocation

    /// Closes every connection of `device` (its sockets get close code 4401 "revoked"), from any thread.
    public func disconnect(device: Int64) {
        lock.lock(); defer { lock.unlock() }
        outboxKicks.append(device)
        if running, let context { lws_cancel_service(context) }
    }

    /// Service thread: carries out queued disconnects.
    func drainKicks() {
        lock.lock()
        let kicks = outboxKicks
        outboxKicks.removeAll()
        lock.unlock()
        for device in kicks {
            for (key, conn) in connections where conn.device == device {
                guard let wsi = wsiByClient[conn.id], self.key(wsi) == key else { continue }
                kick(wsi, conn)
            }
        }
    }

    /// Service thread: ends one connection now. A socket gets a close frame saying why; a plain
    /// HTTP connection (keep-alive) is dropped.
    func kick(_ wsi: OpaquePointer, _ conn: Connection) {
        guard !conn.kicked else { return }
        conn.kicked = true
        if conn.isSocket {
            var reason = Array("device revoked".utf8)
            lws_close_reason(wsi, lws_close_status(rawValue: 4401), &reason, reason.count)
            lws_callback_on_writable(wsi)
        } else {
            lws_set_timeout(wsi, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_ASYNC)
        }
    }
}
