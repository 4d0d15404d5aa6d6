import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// Pairing against a real server. A stranger is a request forwarded by a proxy on this machine
/// (X-Forwarded-For); Tests/e2e/test_lan.py does the same from a real LAN client in a network namespace.
@Suite("Pairing a device", .serialized)
struct PairingServerTests {
    static let android = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36"

    @Test("a stranger gets the pairing page and its files, and nothing else: no library, API or socket")
    func strangerSeesOnlyPairing() async throws {
        try await ServerHarness.with { h in
            let page = try await h.http("/", headers: Stranger.forwarded)
            #expect(page.status == 200 && page.text.contains("Pair this device"))
            #expect(!page.text.contains("Test Tones") && !page.text.contains("First tone"), "the library is not in it")
            #expect(!page.text.contains("/js/app.js"))
            for path in ["/player", "/podcast/\(h.podcast.id)", "/pair"] {
                #expect(try await h.http(path, headers: Stranger.forwarded).text.contains("Pair this device"), "\(path)")
            }
            for path in ["/css/pairing.css", "/js/pair.js", "/js/views/pairing.js", "/js/views/stranger-form.js", "/js/sync-login.js"] {
                #expect(try await h.http(path, headers: Stranger.forwarded).status == 200, "\(path)")
            }
            for path in ["/api/state", "/api/podcasts", "/api/episodes/\(h.episodes[0].id)", "/js/app.js", "/js/core/socket.js",
                         "/api/devices", "/api/pairing", "/api/device", "/media/keepalive.mp3"] {
                let refused = try await h.http(path, headers: Stranger.forwarded)
                #expect(refused.status == 401, "\(path): \(refused.status)")
                #expect(!refused.text.contains("Test Tones"))
            }
            let subscribe = try await h.http("/api/subscriptions", method: "POST", headers: Stranger.headers(port: h.port, json: true),
                                             body: Data(#"{"url":"http://127.0.0.1:9/x.xml"}"#.utf8))
            #expect(subscribe.status == 401)
            let socket = try await TestWebSocket.connect(port: h.port, origin: "http://127.0.0.1:\(h.port)", headers: Stranger.forwarded)
            #expect(!socket.isOpen && socket.handshakeStatus == 401, "upgrade: \(socket.handshakeStatus)")
            // Any of the proxy headers makes a loopback request a stranger's.
            for header in ["Forwarded", "X-Real-IP", "X-Forwarded-For"] {
                #expect(try await h.http("/api/state", headers: [header: "for=10.1.2.3"]).status == 401, "\(header)")
            }
            // The host (loopback, not forwarded) still gets everything.
            #expect(try await h.http("/").text.contains("Test Tones"))
            #expect(try await h.socket().isOpen)
        }
    }

    @Test("the code pairs a device: an HttpOnly SameSite=Strict cookie, the app, the socket — and the hash alone is stored")
    func pairWithCode() async throws {
        try await ServerHarness.with { h in
            let (code, body) = try await h.openCode()
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            let expiresIn = try #require((body["pairing"] as? [String: Any])?["expiresIn"] as? Double)
            #expect(expiresIn > 110 && expiresIn <= 120)
            let wrong = String(code.reversed()) == code ? "000000" : String(code.reversed())
            #expect(try await h.pair(["code": wrong]).status == 403)

            let right = try await h.pair(["code": String(code.prefix(3)) + " " + String(code.suffix(3))], userAgent: Self.android)
            #expect(right.status == 201, "\(right.text)")
            let setCookie = try #require(right.headers["set-cookie"])
            for part in ["HttpOnly", "SameSite=Strict", "Path=/"] { #expect(setCookie.contains(part), "\(setCookie)") }
            let cookie = String(try #require(setCookie.split(separator: ";").first))
            let token = try #require(DeviceToken(cookie.dropFirst("earshot_device=".count)))
            #expect(right.text.contains("Chrome on Android"))
            #expect(try await h.pair(["code": code]).status == 410, "a code pairs one device")

            let state = try await h.http("/api/state", headers: Stranger.headers(port: h.port, cookie: cookie))
            #expect(state.status == 200)
            let page = try await h.http("/", headers: Stranger.headers(port: h.port, cookie: cookie))
            #expect(page.text.contains("Test Tones") && page.headers["set-cookie"]?.contains(token.value) == true,
                    "the app, and the cookie renewed")
            let ws = try await TestWebSocket.connect(port: h.port, origin: "http://127.0.0.1:\(h.port)",
                                                     headers: Stranger.socketHeaders(cookie: cookie))
            #expect(ws.isOpen)
            #expect(try await ws.receive { _ in true }["type"] as? String == "state", "the first message is the snapshot")
            // A device may not pair others or manage devices.
            #expect(try await h.http("/api/pairing", method: "POST", headers: Stranger.headers(port: h.port, cookie: cookie)).status == 403)
            #expect(try await h.http("/api/devices", headers: Stranger.headers(port: h.port, cookie: cookie)).status == 403)

            let listed = try await h.json("/api/devices")
            let devices = try #require(listed["devices"] as? [[String: Any]])
            #expect(devices.map { $0["name"] as? String } == ["Chrome on Android"])
            // The library keeps the SHA-256 of the token, never the token.
            #expect(try await h.store.deviceTokenHashes().map(\.hash) == [token.hash])
            for file in ["library.sqlite", "library.sqlite-wal"] {
                let bytes = (try? Data(contentsOf: h.directory.file(file))) ?? Data()
                #expect(bytes.range(of: Data(token.value.utf8)) == nil, "\(file)")
            }
        }
    }

    @Test("revoking a device closes its open socket at once and its cookie no longer works")
    func revoke() async throws {
        try await ServerHarness.with { h in
            let (cookie, id, _) = try await h.pairDevice()
            let (other, _, _) = try await h.pairDevice()
            let headers = Stranger.headers(port: h.port, cookie: cookie)
            let ws = try await TestWebSocket.connect(port: h.port, origin: "http://127.0.0.1:\(h.port)",
                                                     headers: Stranger.socketHeaders(cookie: cookie))
            let kept = try await TestWebSocket.connect(port: h.port, origin: "http://127.0.0.1:\(h.port)",
                                                       headers: Stranger.socketHeaders(cookie: other))
            #expect(ws.isOpen && kept.isOpen)
            _ = try await ws.receive { $0["type"] as? String == "state" }
            _ = try await kept.receive { $0["type"] as? String == "state" }
            let revoked = try await h.http("/api/devices/\(id)", method: "DELETE", headers: ["Origin": "http://127.0.0.1:\(h.port)"])
            #expect(revoked.status == 200)
            #expect(await ws.socket.waitForClose(timeout: 2), "the revoked device's socket closes")
            #expect(try await h.http("/api/state", headers: headers).status == 401)
            let page = try await h.http("/", headers: headers)
            #expect(page.text.contains("Pair this device") && page.headers["set-cookie"]?.contains("Max-Age=0") == true)
            #expect(try await TestWebSocket.connect(port: h.port, origin: "http://127.0.0.1:\(h.port)",
                                                    headers: Stranger.socketHeaders(cookie: cookie)).handshakeStatus == 401)
            // The other device is untouched.
            try await kept.send(#"{"id":1,"cmd":"ping"}"#)
            let reply = try await kept.receive { $0["type"] as? String == "ack" || $0["type"] as? String == "error" }
            #expect(reply["type"] as? String == "ack")
            #expect(try await h.http("/api/devices/\(id)", method: "DELETE", headers: ["Origin": "http://127.0.0.1:\(h.port)"]).status == 404)
        }
    }

    @Test("guessing is throttled per address, and a throttled guess is not even compared")
    func throttled() async throws {
        try await ServerHarness.with { h in
            let (code, _) = try await h.openCode()
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<3 { #expect(try await h.pair(["code": wrong]).status == 403) }
            let held = try await h.pair(["code": code])
            #expect(held.status == 429)
            #expect(Int(held.headers["retry-after"] ?? "") == 5)
            #expect(try await h.http("/api/pairing").text.contains(code), "the code is still open")
        }
    }

    @Test("the QR code reads back as the pairing URL, whose secret pairs a device once")
    func qrCode() async throws {
        try await ConfiguredServer.with(lan: true) { s in
            let origin = ["Origin": "http://127.0.0.1:\(s.port)"]
            let opened = try await s.http("/api/pairing", method: "POST", headers: origin)
            let body = try #require(try JSONSerialization.jsonObject(with: opened.body) as? [String: Any])
            let pairing = try #require(body["pairing"] as? [String: Any])
            guard let url = pairing["url"] as? String else {
                Issue.record("this machine has no LAN address: the QR code cannot be checked"); return
            }
            #expect(url.hasPrefix("http://") && url.contains(":\(s.port)/pair#s="))
            let svg = try await s.http("/api/pairing/qr.svg")
            #expect(svg.status == 200 && svg.headers["content-type"] == "image/svg+xml")
            #expect(!svg.text.contains("<script") && !svg.text.contains("href"))
            #expect(try QRScan.decode(svg: svg.text) == url)

            let secret = String(try #require(url.split(separator: "=").last))
            let headers = Stranger.headers(port: s.port, json: true)
            let paired = try await s.http("/api/pair", method: "POST", headers: headers, body: Data(#"{"secret":"\#(secret)"}"#.utf8))
            #expect(paired.status == 201)
            let again = try await s.http("/api/pair", method: "POST", headers: headers, body: Data(#"{"secret":"\#(secret)"}"#.utf8))
            #expect(again.status == 410, "the secret is spent")
            #expect(try await s.http("/api/pairing/qr.svg").status == 404, "no code open, no QR code")
        }
    }

    @Test("libqrencode's symbol for a long URL decodes to it (PBM straight from the module matrix)")
    func qrSymbol() throws {
        let url = "http://192.168.100.200:65535/pair#s=" + String(repeating: "0123456789abcdef", count: 2)
        let code = try QRCode(url)
        #expect(code.size >= 21 && (code.size - 17) % 4 == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-qr-\(UUID().uuidString).pbm")
        try code.pbm().write(to: file, atomically: true, encoding: .ascii)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try QRScan.zbar(file.path) == url)
    }
}
