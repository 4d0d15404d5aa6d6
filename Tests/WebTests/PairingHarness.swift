import EarshotCore
import Foundation
import Library
import Playback
import TestSupport
import Testing
@testable import Web

/// Pairing from a test on loopback: a request that carries `X-Forwarded-For` is a stranger (the
/// rule for a reverse proxy on this machine), so loopback tests see what a LAN client sees.
enum Stranger {
    static let forwarded = ["X-Forwarded-For": "10.9.8.7"]

    /// For a socket (its Origin is passed on its own).
    static func socketHeaders(cookie: String) -> [String: String] {
        forwarded.merging(["Cookie": cookie]) { $1 }
    }

    static func headers(port: Int, cookie: String? = nil, json: Bool = false) -> [String: String] {
        var headers = forwarded
        headers["Origin"] = "http://127.0.0.1:\(port)"
        if let cookie { headers["Cookie"] = cookie }
        if json { headers["Content-Type"] = "application/json" }
        return headers
    }
}

extension ServerHarness {
    /// Opens a pairing code as the host; returns the code and the whole answer.
    func openCode() async throws -> (code: String, body: [String: Any]) {
        let response = try await http("/api/pairing", method: "POST", headers: ["Origin": "http://127.0.0.1:\(port)"])
        try #require(response.status == 201, "\(response.status) \(response.text)")
        let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let pairing = try #require(body["pairing"] as? [String: Any])
        return (try #require(pairing["code"] as? String), body)
    }

    /// Pairs a stranger with `proof` (`{"code": …}` or `{"secret": …}`).
    func pair(_ proof: [String: String], userAgent: String? = nil) async throws -> RawHTTP.Response {
        var headers = Stranger.headers(port: port, json: true)
        if let userAgent { headers["User-Agent"] = userAgent }
        return try await http("/api/pair", method: "POST", headers: headers, body: try JSONSerialization.data(withJSONObject: proof))
    }

    /// Pairs with a fresh code; returns the `earshot_device=…` cookie pair and the device id.
    func pairDevice(userAgent: String? = nil) async throws -> (cookie: String, id: Int64, response: RawHTTP.Response) {
        let (code, _) = try await openCode()
        let response = try await pair(["code": code], userAgent: userAgent)
        try #require(response.status == 201, "\(response.status) \(response.text)")
        let setCookie = try #require(response.headers["set-cookie"])
        let cookie = String(try #require(setCookie.split(separator: ";").first))
        let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let device = try #require(body["device"] as? [String: Any])
        return (cookie, try #require((device["id"] as? NSNumber)?.int64Value), response)
    }
}

/// A server with its own configuration (`--lan`, `--allow-host`), an empty library.
struct ConfiguredServer {
    let directory: TemporaryDirectory
    let store: LibraryStore
    let engine: PlaybackEngine
    let server: EarshotServer
    var port: Int { server.port }

    static func with(lan: Bool = false, extraHosts: [String] = [], _ body: (ConfiguredServer) async throws -> Void) async throws {
        let directory = TemporaryDirectory()
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let engine = PlaybackEngine(player: try MPVPlayer(audioOutput: "null"), store: store)
        await engine.start()
        var configuration = ServerConfiguration(port: 0, publicDirectory: ServerHarness.repository.appendingPathComponent("Public"),
                                                templatesDirectory: ServerHarness.repository.appendingPathComponent("Templates"))
        configuration.lan = lan
        configuration.extraHostNames = extraHosts
        let server = try EarshotServer(configuration: configuration, store: store, engine: engine, refreshSchedule: nil)
        let running = ConfiguredServer(directory: directory, store: store, engine: engine, server: server)
        do {
            try await server.start()
            try await body(running)
        } catch {
            await running.stop(); throw error
        }
        await running.stop()
    }

    func stop() async {
        server.stop()
        await engine.shutdown()
        directory.remove()
    }

    func http(_ path: String, method: String = "GET", headers: [String: String] = [:], body: Data = Data()) async throws -> RawHTTP.Response {
        try await RawHTTP.request(port: port, method: method, path: path, headers: headers, body: body).0
    }
}

/// Reads the QR code in an SVG the server made back into text with zbarimg (zbar-tools): the
/// SVG's path is unit squares ("M x y h w v1 h-w z"), turned into a PBM image for the scanner.
enum QRScan {
    static func decode(svg: String) throws -> String? {
        let box = try #require(svg.firstRange(of: "viewBox=\"0 0 ").map { svg[$0.upperBound...] })
        let side = try #require(Int(box.prefix { $0.isNumber }))
        var dark = [Bool](repeating: false, count: side * side)
        let path = try #require(svg.firstRange(of: " d=\"").map { svg[$0.upperBound...].prefix { $0 != "\"" } })
        for run in path.split(separator: "M") {
            let numbers = run.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count >= 3 else { continue }
            for x in numbers[0]..<(numbers[0] + numbers[2]) { dark[numbers[1] * side + x] = true }
        }
        let scale = 4
        var pbm = "P1\n\(side * scale) \(side * scale)\n"
        for y in 0..<(side * scale) {
            pbm += (0..<(side * scale)).map { dark[(y / scale) * side + $0 / scale] ? "1" : "0" }.joined(separator: " ") + "\n"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-qr-\(UUID().uuidString).pbm")
        try pbm.write(to: file, atomically: true, encoding: .ascii)
        defer { try? FileManager.default.removeItem(at: file) }
        return try zbar(file.path)
    }

    static func zbar(_ path: String) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--quiet", "--raw", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
