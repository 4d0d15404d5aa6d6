import Foundation
import TestSupport
import Testing
@testable import Web

/// `earshot serve --lan` / `EARSHOT_LAN=1` / `--allow-host`, on the real binary.
@Suite("LAN options", .serialized)
struct LANOptionTests {
    @Test("EARSHOT_LAN=1 lets this machine's LAN address name the server; without it that Host is refused")
    func environment() async throws {
        guard let address = NetworkInterfaces.ipv4Addresses().first else {
            Issue.record("this machine has no LAN address to test with"); return
        }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let base = ["serve", "--port", "0", "--data", dir.path, "--audio-output", "null", "--no-demo"]
        for (environment, expected) in [(["EARSHOT_LAN": "1"], 200), ([:], 403)] {
            let status = try await CommandLineTests.serving(base, environment: environment) { url in
                let port = try #require(url.port)
                let response = try await RawHTTP.request(port: port, path: "/api/state", headers: ["Host": "\(address):\(port)"]).0
                #expect(response.status == expected, "\(environment): \(response.status)")
            }
            #expect(status == 0)
        }
        let named = try await CommandLineTests.serving(base + ["--allow-host", "Earshot.Example"], environment: [:]) { url in
            let port = try #require(url.port)
            #expect(try await RawHTTP.request(port: port, path: "/api/state", headers: ["Host": "earshot.example:\(port)"]).0.status == 200)
        }
        #expect(named == 0)
    }

    @Test("--lan listens on IPv6 too: [::1] and this machine's IPv6 addresses answer, IPv4 still does, the banner lists them")
    func ipv6() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (process, first) = try await CommandLineTests.start(
            ["serve", "--port", "0", "--data", dir.path, "--audio-output", "null", "--no-demo", "--no-mpris", "--lan"])
        defer { if process.isRunning { process.terminate() } }
        let port = try #require(first.split(separator: "\n").first?.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "/ \n"))) },
                                "no port in \(first)")
        // The banner follows the "serving on" line.
        let reader = (process.standardOutput as? Pipe)?.fileHandleForReading
        let banner: String = try await offThePool {
            var text = first
            let deadline = Date().addingTimeInterval(5)
            while !text.contains("Also on the LAN") && !text.contains("no LAN address") && Date() < deadline,
                  let chunk = reader?.availableData, !chunk.isEmpty {
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        let six = try LoopbackSocket(port: port, ipv6: "::1")
        try six.write("GET /api/state HTTP/1.1\r\nHost: [::1]:\(port)\r\n\r\n")
        #expect(try RawHTTP.readResponse(six).status == 200, "over ::1")
        #expect(try await RawHTTP.request(port: port, path: "/api/state").0.status == 200, "over 127.0.0.1")
        for address in NetworkInterfaces.ipv6Addresses() {
            #expect(banner.contains("http://[\(address)]:\(port)/"), "\(banner)")
            let socket = try LoopbackSocket(port: port, ipv6: address)
            try socket.write("GET /api/state HTTP/1.1\r\nHost: [\(address)]:\(port)\r\n\r\n")
            // A LAN peer that has not paired is asked to pair (401), which shows the address answers
            // and its Host is one of this server's names (a foreign one would be 403).
            #expect(try RawHTTP.readResponse(socket).status == 401, "over \(address)")
        }
        process.terminate()
    }

    @Test("nonsense in EARSHOT_LAN or --allow-host stops the start with a message")
    func nonsense() async throws {
        let bad = try await CommandLineTests.run(["serve", "--allow-host", "evil.example:8080/x"])
        #expect(bad.status == 2 && bad.err.contains("--allow-host takes a host name"))
        let env = try await CommandLineTests.run(["serve"], environment: ["EARSHOT_LAN": "maybe"])
        #expect(env.status == 2 && env.err.contains("EARSHOT_LAN must be 1 or 0"))
    }
}
