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

    @Test("nonsense in EARSHOT_LAN or --allow-host stops the start with a message")
    func nonsense() async throws {
        let bad = try await CommandLineTests.run(["serve", "--allow-host", "evil.example:8080/x"])
        #expect(bad.status == 2 && bad.err.contains("--allow-host takes a host name"))
        let env = try await CommandLineTests.run(["serve"], environment: ["EARSHOT_LAN": "maybe"])
        #expect(env.status == 2 && env.err.contains("EARSHOT_LAN must be 1 or 0"))
    }
}
