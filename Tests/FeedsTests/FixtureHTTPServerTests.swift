import Foundation
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fixture server other test targets rely on: routes, 404, ranges, HEAD, request log, concurrency.
@Suite struct FixtureHTTPServerTests {
    static func get(_ url: URL, headers: [String: String] = [:], method: String = "GET") async throws
        -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    @Test func servesRoutesAndRecordsRequests() async throws {
        let server = try FixtureHTTPServer(routes: ["/a": .init(text: "alpha")])
        defer { server.stop() }
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        let (data, response) = try await Self.get(server.url("/a?x=1"), headers: ["X-Test": "yes"])
        #expect(String(decoding: data, as: UTF8.self) == "alpha")
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        #expect(server.requests.map(\.target) == ["/a?x=1"])
        #expect(server.requests.first?.header("x-test") == "yes")

        let (_, missing) = try await Self.get(server.url("/nothing"))
        #expect(missing.statusCode == 404)

        server["/a"] = nil
        let (_, removed) = try await Self.get(server.url("/a"))
        #expect(removed.statusCode == 404)
    }

    @Test func servesByteRanges() async throws {
        let body = Data((0..<200).map { UInt8($0) })
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/audio.bin", body: body)
        let (part, partial) = try await Self.get(server.url("/audio.bin"), headers: ["Range": "bytes=10-19"])
        #expect(partial.statusCode == 206)
        #expect(part == body.subdata(in: 10..<20))
        #expect(partial.value(forHTTPHeaderField: "Content-Range") == "bytes 10-19/200")
        let (tail, _) = try await Self.get(server.url("/audio.bin"), headers: ["Range": "bytes=150-"])
        #expect(tail == body.subdata(in: 150..<200))
        let (suffix, _) = try await Self.get(server.url("/audio.bin"), headers: ["Range": "bytes=-5"])
        #expect(suffix == body.subdata(in: 195..<200))
        let (_, unsatisfiable) = try await Self.get(server.url("/audio.bin"), headers: ["Range": "bytes=500-"])
        #expect(unsatisfiable.statusCode == 416)
        let (headBody, head) = try await Self.get(server.url("/audio.bin"), method: "HEAD")
        #expect(head.statusCode == 200)
        #expect(head.value(forHTTPHeaderField: "Content-Length") == "200")
        #expect(headBody.isEmpty)
    }

    @Test func servesManyClientsAtOnce() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let body = Data(repeating: 7, count: 256 * 1024)
        server.set("/big", FixtureHTTPServer.Response(body: body, chunkDelay: 0.001))
        try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<8 { group.addTask { try await Self.get(server.url("/big")).0 } }
            for try await data in group { #expect(data == body) }
        }
        #expect(server.requests.count == 8)
    }
}
