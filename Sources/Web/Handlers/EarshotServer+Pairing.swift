import EarshotCore
import Foundation
import Mustache

/// Pairing a phone (docs/protocol.md "Pairing"): the host opens a code, a stranger sends it (or
/// the QR URL's secret) to `POST /api/pair` and gets a device cookie; the host lists and revokes.
extension EarshotServer {
    private struct PairBody: Decodable { var code: String?; var secret: String?; var name: String? }
    private struct DeviceBody: Encodable { var device: PairedDevice }
    private struct DevicesBody: Encodable { var devices: [PairedDevice] }
    private struct RevokedBody: Encodable { var revoked: Int64 }
    private struct WhoBody: Encodable { var requester: String; var device: PairedDevice? }
    struct PairingBody: Encodable {
        struct Open: Encodable {
            var code: String
            /// Seconds left, and the same as a Unix time.
            var expiresIn: Double
            var expires: Double
            /// What the QR code says: the pairing page with the one-time secret in its fragment.
            var url: String?
            /// The pairing page on each of this machine's LAN addresses and names (to type).
            var urls: [String]
        }
        struct Paired: Encodable { var device: PairedDevice; var secondsAgo: Double }
        var pairing: Open?
        /// Whether the server listens on the LAN (`--lan`); without it no phone can reach it.
        var lan: Bool
        var lastPaired: Paired?

        // Spelled out so that an absent code is `"pairing": null` on the wire, not a missing key.
        enum CodingKeys: String, CodingKey { case pairing, lan, lastPaired }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pairing, forKey: .pairing)
            try container.encode(lan, forKey: .lan)
            try container.encode(lastPaired, forKey: .lastPaired)
        }
    }

    /// Loads the paired devices and puts this server in charge of admissions. Before `transport.start`.
    func startPairing() async throws {
        devices.load(try await store.deviceTokenHashes())
        transport.gate = self
    }

    // MARK: - Strangers

    /// `GET /pair`, and any page a stranger asks for: the pairing page. Paired already: back to the app.
    func pairingPage(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.requester == .stranger else { return HTTPResponse(status: 303, headers: [("location", "/")]) }
        let html = try templates.render("pairing", ["version": .string(assetVersion)])
        var headers = [("cache-control", "no-store")]
        // A cookie the server does not know (revoked, or from another library): make the browser drop it.
        if request.headers["cookie"].flatMap(DeviceToken.fromCookieHeader) != nil {
            headers.append(("set-cookie", DeviceToken.clearCookie))
        }
        return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", headers: headers, body: Data(html.utf8))
    }

    /// `POST /api/pair`: the code (or secret) for a device cookie.
    func pair(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.requester == .stranger else { throw HTTPError(409, "this browser is paired already") }
        let body = try request.decodeJSON(PairBody.self, hint: "send {\"code\": \"123456\"} (or the secret of the pairing link)")
        let proof: PairingProof
        if let secret = body.secret, Hex.isHex(secret, count: 32) { proof = .secret(secret) }
        else if let typed = body.code, let code = PairingState.normalizedCode(typed) { proof = .code(code) }
        else { throw HTTPError.badRequest("the code is six digits") }

        switch await pairingDesk.attempt(proof, from: request.peer) {
        case .paired:
            let token = await pairingDesk.newToken()
            let name = DeviceName.choose(typed: body.name, userAgent: request.headers["user-agent"])
            let device = try await store.addDevice(name: name, tokenHash: token.hash)
            devices.add(id: device.id, hash: token.hash)
            await pairingDesk.paired(device)
            transport.send(.devices)
            var response = try HTTPResponse.json(DeviceBody(device: device), status: 201)
            response.headers.append(("set-cookie", token.setCookie))
            return response
        case .wrong:
            throw HTTPError(403, "wrong code")
        case .invalidated:
            throw HTTPError(403, "wrong code, and too many wrong tries: open a new code on the Earshot machine")
        case .noCode:
            throw HTTPError(410, "no pairing code is open: open one in Earshot on its own machine (Devices)")
        case .throttled(let seconds):
            throw HTTPError(429, "too many wrong tries from this device: wait \(seconds) s", headers: ["retry-after": String(seconds)])
        }
    }

    // MARK: - The host

    /// `/api/pairing`: `GET` the code as it stands, `POST` opens a new one (201), `DELETE` closes it.
    func pairingCode(_ request: HTTPRequest) async throws -> HTTPResponse {
        switch request.method {
        case "POST":
            _ = await pairingDesk.open()
            transport.send(.devices)
            return try .json(await pairingStatus(request), status: 201)
        case "DELETE":
            await pairingDesk.close()
            transport.send(.devices)
            return try .json(await pairingStatus(request))
        default:
            return try .json(await pairingStatus(request))
        }
    }

    /// `GET /api/pairing/qr.svg`: the open code's link as a QR code.
    func pairingQRCode(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let session = await pairingDesk.current(), let url = pairingURL(session, host: request.query["host"]) else {
            throw HTTPError.notFound("no pairing code is open")
        }
        let svg = try QRCode(url).svg()
        return HTTPResponse(status: 200, contentType: "image/svg+xml", headers: [("cache-control", "no-store")],
                            body: Data(svg.utf8))
    }

    func listDevices(_ request: HTTPRequest) async throws -> HTTPResponse {
        try .json(DevicesBody(devices: try await pairedDevices()))
    }

    func removeDevice(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.id()
        guard try await revoke(id) else { throw HTTPError.notFound("no device \(id)") }
        return try .json(RevokedBody(revoked: id))
    }

    /// `GET /api/device`: who this browser is; `DELETE`: a device unpairs itself.
    func thisDevice(_ request: HTTPRequest) async throws -> HTTPResponse {
        switch (request.method, request.requester) {
        case ("DELETE", .device(let id)):
            _ = try await revoke(id)
            var response = try HTTPResponse.json(RevokedBody(revoked: id))
            response.headers.append(("set-cookie", DeviceToken.clearCookie))
            return response
        case ("DELETE", _):
            throw HTTPError.badRequest("this machine's own browser is not a paired device")
        case (_, .device(let id)):
            return try .json(WhoBody(requester: "device", device: try await pairedDevices().first { $0.id == id }))
        default:
            return try .json(WhoBody(requester: "host", device: nil))
        }
    }

    /// Forgets a device and closes its connections at once. False when there was none.
    func revoke(_ id: Int64) async throws -> Bool {
        devices.remove(id: id) // first: from now on its cookie is a stranger's, its frames are dropped
        transport.disconnect(device: id)
        let removed = try await store.removeDevice(id: id)
        if removed { transport.send(.devices) }
        return removed
    }

    /// The stored devices, each with the newest sighting (memory is up to a minute ahead of the library).
    func pairedDevices() async throws -> [PairedDevice] {
        try await store.devices().map { device in
            var device = device
            if let seen = devices.lastSeen(device.id)?.timeIntervalSince1970 { device.lastSeen = max(device.lastSeen, seen) }
            return device
        }.sorted { $0.lastSeen > $1.lastSeen }
    }

    func pairingStatus(_ request: HTTPRequest) async -> PairingBody {
        let now = PairingDesk.now()
        var body = PairingBody(pairing: nil, lan: configuration.lan, lastPaired: nil)
        if let session = await pairingDesk.current() {
            let left = session.remaining(now: now)
            body.pairing = .init(code: session.code, expiresIn: left, expires: Date().timeIntervalSince1970 + left,
                                 url: pairingURL(session, host: request.query["host"]),
                                 urls: lanNames().map { "http://\($0):\(port)\(PairingAccess.pairingPath)" })
        }
        if let last = await pairingDesk.lastPaired {
            body.lastPaired = .init(device: last.device, secondsAgo: now - last.at)
        }
        return body
    }

    /// The names a phone can use for this machine, the likeliest first (NetworkInterfaces.ranked).
    func lanNames() -> [String] {
        guard configuration.lan else { return [] }
        let addresses = NetworkInterfaces.ranked(NetworkInterfaces.ipv4Addresses())
        let local = NetworkInterfaces.hostName().map { ($0.split(separator: ".").first.map(String.init) ?? $0) + ".local" }
        // IPv6 last: most phones at home reach the IPv4 address or the .local name first.
        return addresses + (local.map { [$0] } ?? []) + NetworkInterfaces.ipv6Addresses().map { "[\($0)]" }
    }

    /// The QR code's URL: the pairing page on `host` (one of `lanNames`, else the likeliest), with
    /// the secret in the fragment: browsers never send a fragment, so it stays out of logs and
    /// Referer, and a link previewer that fetches the URL cannot spend it.
    func pairingURL(_ session: PairingSession, host: String?) -> String? {
        let names = lanNames()
        guard let name = host.flatMap({ names.contains($0) ? $0 : nil }) ?? names.first else { return nil }
        return "http://\(name):\(port)\(PairingAccess.pairingPath)#s=\(session.secret)"
    }
}
