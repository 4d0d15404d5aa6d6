import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// The checks every request passes (docs/protocol.md "Access rules"), against a real server.
@Suite("Checks on every request", .serialized)
struct RequestChecksTests {
    @Test("a JSON body must say application/json; OPML import takes its file as it is")
    func jsonOnly() async throws {
        try await ServerHarness.with { h in
            let body = Data(#"{"url":"not a url"}"#.utf8)
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx"] {
                let refused = try await h.http("/api/subscriptions", method: "POST", headers: ["Content-Type": type], body: body)
                #expect(refused.status == 415, "\(type): \(refused.status)")
            }
            let noType = try await h.http("/api/subscriptions", method: "POST", body: body)
            #expect(noType.status == 415)
            let json = try await h.http("/api/subscriptions", method: "POST", headers: ["Content-Type": "Application/JSON; charset=utf-8"], body: body)
            #expect(json.status == 400, "read, and refused for its URL: \(json.status)")
            let opml = try await h.http("/api/opml", method: "POST", headers: ["Content-Type": "text/x-opml"],
                                        body: Data("<opml version=\"2.0\"><body/></opml>".utf8))
            #expect(opml.status == 200, "\(opml.text)")
        }
    }

    @Test("a body over 1 MiB is refused with 413 and never carried out")
    func bodyLimit() async throws {
        try await ServerHarness.with { h in
            let json = ["Content-Type": "application/json"]
            // Sent in full (lws reads it in chunks): counted as it arrives, dropped, answered 413.
            let body = Data(#"{"url":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: LWSServer.maxBody) + Data(#""}"#.utf8)
            let sent = try await h.http("/api/subscriptions", method: "POST", headers: json, body: body)
            #expect(sent.status == 413)
            let fits = try await h.http("/api/subscriptions", method: "POST", headers: json,
                                        body: Data(#"{"url":"\#(String(repeating: "a", count: 1000))"}"#.utf8))
            #expect(fits.status == 400, "read, and refused for its URL")
        }
    }

    /// Sends `head` and then `body` (already framed) on a fresh connection; the answer.
    static func raw(port: Int, _ head: [String], _ body: String) async throws -> RawHTTP.Response {
        try await offThePool {
            let socket = try LoopbackSocket(port: port, timeout: 5)
            try socket.write(head.joined(separator: "\r\n") + "\r\n\r\n" + body)
            return try RawHTTP.readResponse(socket)
        }
    }

    /// `text` as chunks of `size` bytes, the last chunk and an empty trailer section.
    static func chunked(_ text: String, size: Int) -> String {
        let bytes = Array(text.utf8)
        var framed = ""
        for start in stride(from: 0, to: bytes.count, by: size) {
            let piece = bytes[start..<min(start + size, bytes.count)]
            framed += String(piece.count, radix: 16) + "\r\n" + String(decoding: piece, as: UTF8.self) + "\r\n"
        }
        return framed + "0\r\n\r\n"
    }

    @Test("a chunked request body is read up to the size limit and carried out; bad framing is 400, too much 413, both framings 400")
    func chunkedBody() async throws {
        let fixture = try FixtureHTTPServer()
        defer { fixture.stop() }
        fixture.set("/feed.xml", body: Data(#"<rss version="2.0"><channel><title>Chunked</title><item><title>One</title><enclosure url="http://127.0.0.1:1/a.mp3" type="audio/mpeg" length="3"/></item></channel></rss>"#.utf8))
        try await ServerHarness.with { h in
            let head = ["POST /api/subscriptions HTTP/1.1", "Host: 127.0.0.1:\(h.port)", "Content-Type: application/json",
                        "Transfer-Encoding: chunked"]
            let json = #"{"url":"\#(fixture.url("/feed.xml").absoluteString)"}"#
            let added = try await Self.raw(port: h.port, head, Self.chunked(json, size: 7))
            #expect(added.status == 201, "\(added.status) \(added.text)")
            #expect(added.text.contains("Chunked"))
            #expect(fixture.requests.count == 1)

            let broken = try await Self.raw(port: h.port, head, "zz\r\n" + json + "\r\n0\r\n\r\n")
            #expect(broken.status == 400 && broken.text.contains("chunk"), "\(broken.status) \(broken.text)")
            let big = #"{"url":""# + String(repeating: "a", count: LWSServer.maxBody) + #""}"#
            let tooLarge = try await Self.raw(port: h.port, head, Self.chunked(big, size: 60_000))
            #expect(tooLarge.status == 413)
            let both = try await Self.raw(port: h.port, head + ["Content-Length: \(json.utf8.count)"], json)
            #expect(both.status == 400, "\(both.status) \(both.text)")
            let gzip = try await Self.raw(port: h.port, head.dropLast() + ["Transfer-Encoding: gzip, chunked"], Self.chunked(json, size: 7))
            #expect(gzip.status == 411)
            #expect(fixture.requests.count == 1, "a refused request was carried out")
        }
    }

    @Test("Origin must match the Host the request names, on posts and the socket")
    func originMatchesHost() async throws {
        try await ServerHarness.with { h in
            let mismatched = try await h.http("/api/refresh", method: "POST",
                                              headers: ["Origin": "http://localhost:\(h.port)", "Host": "127.0.0.1:\(h.port)"])
            #expect(mismatched.status == 403)
            let matched = try await h.http("/api/refresh", method: "POST",
                                           headers: ["Origin": "http://localhost:\(h.port)", "Host": "localhost:\(h.port)"])
            #expect(matched.status == 202)
            #expect(try await TestWebSocket.connect(port: h.port, origin: "http://localhost:\(h.port)").handshakeStatus == 403)
            #expect(try await TestWebSocket.connect(port: h.port, origin: "http://localhost:\(h.port)", host: "localhost:\(h.port)").isOpen)
        }
    }

    @Test("no CORS: nothing ever grants another origin; every answer carries the page headers")
    func noCORS() async throws {
        try await ServerHarness.with { h in
            let preflight = try await h.http("/api/state", method: "OPTIONS",
                                             headers: ["Origin": "http://evil.example", "Access-Control-Request-Method": "POST"])
            let read = try await h.http("/api/state", headers: ["Origin": "http://evil.example"])
            let pairing = try await h.http("/", headers: Stranger.forwarded)
            for response in [preflight, read, pairing] {
                #expect(!response.headers.keys.contains { $0.hasPrefix("access-control-") }, "\(response.headers)")
            }
            for response in [read, pairing, try await h.http("/")] {
                #expect(response.headers["x-content-type-options"] == "nosniff")
                #expect(response.headers["referrer-policy"] == "no-referrer")
                #expect(response.headers["content-security-policy"]?.contains("script-src 'self'") == true)
            }
        }
    }

    @Test("--allow-host adds a name; behind a TLS proxy of that name its https Origin passes, nothing else does")
    func allowHost() async throws {
        try await ConfiguredServer.with(extraHosts: ["earshot.example"]) { s in
            #expect(try await s.http("/api/state", headers: ["Host": "earshot.example:\(s.port)"]).status == 200)
            #expect(try await s.http("/api/state", headers: ["Host": "other.example:\(s.port)"]).status == 403)
            let proxied = ["Host": "earshot.example", "Origin": "https://earshot.example", "X-Forwarded-For": "10.1.1.1"]
            // Through the proxy a client is a stranger; the Origin passes, so it is 401 (pair first), not 403.
            #expect(try await s.http("/api/refresh", method: "POST", headers: proxied).status == 401)
            var loopbackProxy = proxied
            loopbackProxy["X-Forwarded-For"] = nil
            #expect(try await s.http("/api/refresh", method: "POST", headers: loopbackProxy).status == 202)
            for (host, origin) in [("127.0.0.1", "https://127.0.0.1"), ("earshot.example:\(s.port)", "https://earshot.example"),
                                   ("earshot.example", "https://earshot.example:8443"), ("earshot.example", "https://other.example")] {
                let refused = try await s.http("/api/refresh", method: "POST", headers: ["Host": host, "Origin": origin])
                #expect(refused.status == 403, "\(host) \(origin)")
            }
        }
    }
}

@Suite("Origin against Host, as a rule")
struct OriginHostRuleTests {
    @Test("the Origin's host must be the Host header's, both allowed")
    func rule() {
        var policy = AccessPolicy(hostNames: AccessPolicy.loopbackNames.union(["192.168.1.5", "box.local"]), port: 8080)
        #expect(policy.allowsOrigin(nil, host: "127.0.0.1:8080"))
        #expect(policy.allowsOrigin("http://192.168.1.5:8080", host: "192.168.1.5:8080"))
        #expect(policy.allowsOrigin("http://box.local:8080", host: "box.local:8080"))
        #expect(!policy.allowsOrigin("http://box.local:8080", host: "192.168.1.5:8080"))
        #expect(!policy.allowsOrigin("http://192.168.1.5:8080", host: "evil.example:8080"))
        #expect(!policy.allowsOrigin("http://evil.example:8080", host: "192.168.1.5:8080"))
        #expect(!policy.allowsOrigin("https://box.local", host: "box.local"), "https only for a proxy name")
        policy.proxyNames = ["box.local"]
        #expect(policy.allowsOrigin("https://box.local", host: "box.local"))
        #expect(!policy.allowsOrigin("https://box.local", host: "box.local:8080"))
    }

    @Test("LAN addresses: home networks first, container bridges last")
    func ranking() {
        #expect(NetworkInterfaces.ranked(["172.17.0.1", "10.0.0.4", "203.0.113.9", "192.168.1.20", "169.254.3.3", "172.20.0.2"])
                == ["192.168.1.20", "10.0.0.4", "172.20.0.2", "203.0.113.9", "172.17.0.1", "169.254.3.3"])
        #expect(NetworkInterfaces.isLoopback("127.0.0.1") && NetworkInterfaces.isLoopback("127.3.2.1")
                && NetworkInterfaces.isLoopback("::1") && NetworkInterfaces.isLoopback("::ffff:127.0.0.1"))
        #expect(!NetworkInterfaces.isLoopback("10.0.0.1") && !NetworkInterfaces.isLoopback("") && !NetworkInterfaces.isLoopback("::ffff:10.0.0.1"))
    }
}
