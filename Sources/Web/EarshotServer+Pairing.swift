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

    /// What pairing answers before the normal routes: everything a stranger may get, the pairing
    /// and device APIs, and the JSON content-type rule. nil: route as usual.
    func pairingResponse(_ request: HTTPRequest) async -> HTTPResponse? {
        if let refused = Self.checkContentType(request) { return refused }
        if request.pairingOnly { return await strangerResponse(request) }
        let parts = request.path.split(separator: "/").map(String.init)
        switch (request.method, request.path) {
        case ("GET", PairingAccess.pairingPath), ("HEAD", PairingAccess.pairingPath):
            return HTTPResponse(status: 303, headers: [("location", "/")]) // paired already
        case ("POST", PairingAccess.pairAPIPath):
            return .error(409, "this browser is paired already")
        case (_, "/api/device"):
            return await selfAPI(request)
        default: break
        }
        guard parts.count >= 2, parts[0] == "api", parts[1] == "pairing" || parts[1] == "devices" else {
            return await devicePage(request)
        }
        // The gate lets only the host get here; say so again rather than trust one place.
        guard request.requester == .host else { return .error(403, "only the Earshot machine's own browser can do this") }
        return parts[1] == "pairing" ? await pairingAPI(request, parts) : await devicesAPI(request, parts)
    }

    // MARK: - Strangers

    private func strangerResponse(_ request: HTTPRequest) async -> HTTPResponse {
        if request.path == PairingAccess.pairAPIPath {
            guard request.method == "POST" else { return .error(405, "POST the code as JSON") }
            return await pair(request)
        }
        if PairingAccess.pairingFiles.contains(request.path) {
            return files.respond(to: request) ?? .error(404, "no such file: \(request.path)")
        }
        do {
            let html = try templates.render("pairing", ["version": .string(assetVersion)])
            var headers = [("cache-control", "no-store")]
            // A cookie the server does not know (revoked, or from another library): make the browser drop it.
            if request.headers["cookie"].flatMap(DeviceToken.fromCookieHeader) != nil {
                headers.append(("set-cookie", DeviceToken.clearCookie))
            }
            return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", headers: headers, body: Data(html.utf8))
        } catch {
            return .error(500, "could not render the pairing page: \(error)")
        }
    }

    /// `POST /api/pair`: the code (or secret) for a device cookie.
    private func pair(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = try? JSONDecoder().decode(PairBody.self, from: request.body) else {
            return .error(400, "send {\"code\": \"123456\"} (or the secret of the pairing link)")
        }
        let proof: PairingProof
        if let secret = body.secret, Hex.isHex(secret, count: 32) { proof = .secret(secret) }
        else if let typed = body.code, let code = PairingState.normalizedCode(typed) { proof = .code(code) }
        else { return .error(400, "the code is six digits") }

        switch await pairingDesk.attempt(proof, from: request.peer) {
        case .paired:
            let token = await pairingDesk.newToken()
            let name = DeviceName.choose(typed: body.name, userAgent: request.headers["user-agent"])
            do {
                let device = try await store.addDevice(name: name, tokenHash: token.hash)
                devices.add(id: device.id, hash: token.hash)
                await pairingDesk.paired(device)
                var response = HTTPResponse.json(DeviceBody(device: device), status: 201)
                response.headers.append(("set-cookie", token.setCookie))
                return response
            } catch {
                return .error(500, "could not keep the device: \(error)")
            }
        case .wrong:
            return .error(403, "wrong code")
        case .invalidated:
            return .error(403, "wrong code, and too many wrong tries: open a new code on the Earshot machine")
        case .noCode:
            return .error(410, "no pairing code is open: open one in Earshot on its own machine (Devices)")
        case .throttled(let seconds):
            var response = HTTPResponse.error(429, "too many wrong tries from this device: wait \(seconds) s")
            response.headers.append(("retry-after", String(seconds)))
            return response
        }
    }

    // MARK: - The host

    private func pairingAPI(_ request: HTTPRequest, _ parts: [String]) async -> HTTPResponse {
        switch (request.method, parts.count) {
        case ("GET", 2), ("HEAD", 2):
            return .json(await pairingStatus(request))
        case ("POST", 2):
            _ = await pairingDesk.open()
            return .json(await pairingStatus(request), status: 201)
        case ("DELETE", 2):
            await pairingDesk.close()
            return .json(await pairingStatus(request))
        case ("GET", 3) where parts[2] == "qr.svg", ("HEAD", 3) where parts[2] == "qr.svg":
            guard let session = await pairingDesk.current(), let url = pairingURL(session, host: request.query["host"]) else {
                return .error(404, "no pairing code is open")
            }
            do {
                let svg = try QRCode(url).svg()
                return HTTPResponse(status: 200, contentType: "image/svg+xml", headers: [("cache-control", "no-store")],
                                    body: Data(svg.utf8))
            } catch {
                return .error(500, "could not make the QR code: \(error)")
            }
        default:
            return .error(405, "\(request.method) is not allowed on \(request.path)")
        }
    }

    private func devicesAPI(_ request: HTTPRequest, _ parts: [String]) async -> HTTPResponse {
        do {
            switch (request.method, parts.count) {
            case ("GET", 2), ("HEAD", 2):
                return .json(DevicesBody(devices: try await pairedDevices()))
            case ("DELETE", 3):
                guard let id = Int64(parts[2]) else { return .error(404, "no device \(parts[2])") }
                guard try await revoke(id) else { return .error(404, "no device \(id)") }
                return .json(RevokedBody(revoked: id))
            default:
                return .error(405, "\(request.method) is not allowed on \(request.path)")
            }
        } catch {
            return .error(500, "the library could not answer: \(error)")
        }
    }

    /// `GET /api/device`: who this browser is; `DELETE`: a device unpairs itself.
    private func selfAPI(_ request: HTTPRequest) async -> HTTPResponse {
        do {
            switch (request.method, request.requester) {
            case ("GET", .host), ("HEAD", .host):
                return .json(WhoBody(requester: "host", device: nil))
            case ("GET", .device(let id)), ("HEAD", .device(let id)):
                return .json(WhoBody(requester: "device", device: try await pairedDevices().first { $0.id == id }))
            case ("DELETE", .device(let id)):
                _ = try await revoke(id)
                var response = HTTPResponse.json(RevokedBody(revoked: id))
                response.headers.append(("set-cookie", DeviceToken.clearCookie))
                return response
            case ("DELETE", _):
                return .error(400, "this machine's own browser is not a paired device")
            default:
                return .error(405, "\(request.method) is not allowed on \(request.path)")
            }
        } catch {
            return .error(500, "the library could not answer: \(error)")
        }
    }

    /// Forgets a device and closes its connections at once. False when there was none.
    func revoke(_ id: Int64) async throws -> Bool {
        devices.remove(id: id) // first: from now on its cookie is a stranger's, its frames are dropped
        transport.disconnect(device: id)
        return try await store.removeDevice(id: id)
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
        return addresses + (local.map { [$0] } ?? [])
    }

    /// The QR code's URL: the pairing page on `host` (one of `lanNames`, else the likeliest), with
    /// the secret in the fragment: browsers never send a fragment, so it stays out of logs and
    /// Referer, and a link previewer that fetches the URL cannot spend it.
    func pairingURL(_ session: PairingSession, host: String?) -> String? {
        let names = lanNames()
        guard let name = host.flatMap({ names.contains($0) ? $0 : nil }) ?? names.first else { return nil }
        return "http://\(name):\(port)\(PairingAccess.pairingPath)#s=\(session.secret)"
    }

    /// A paired device's page: the app, with its cookie set again so it lives another 400 days.
    private func devicePage(_ request: HTTPRequest) async -> HTTPResponse? {
        guard case .device = request.requester, Self.isPagePath(request.path),
              let token = request.headers["cookie"].flatMap(DeviceToken.fromCookieHeader),
              var response = await page(request) else { return nil }
        response.headers.append(("set-cookie", token.setCookie))
        return response
    }
}
