import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// Walks `EarshotServer.routes` against a live server: HEAD answers as GET does (no body), a
/// method no row answers is `405` with `Allow`, an unknown path `404`.
@Suite("Routes, walked on a live server", .serialized)
struct RouteWalkTests {
    /// A path the row's pattern matches, with the harness's own ids where the row takes one.
    static func example(_ route: Route, _ h: ServerHarness) -> String {
        let files = ["js": "app.js", "css": "base.css", "icons": "earshot.svg", "media": "keepalive.mp3", "demo": "feed.xml"]
        var parts: [String] = []
        for segment in route.pattern.segments {
            switch segment {
            case .literal(let text): parts.append(text)
            case .id:
                let kind = parts.last ?? ""
                parts.append(String(kind.hasPrefix("episode") ? h.episodes[0].id : kind.hasPrefix("podcast") ? h.podcast.id : 1))
            case .parameter(let name): parts.append(name == "file" ? "96.jpg" : "0123456789abcdef")
            case .suffixed(_, let suffix): parts.append("someone" + suffix)
            case .rest: parts.append(files[parts.last ?? ""] ?? "x")
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    @Test("HEAD of every GET route: GET's status and headers, no body")
    func headEveryGet() async throws {
        try await ServerHarness.with { h in
            var checked = 0
            for route in EarshotServer.routes where route.methods.contains("GET") {
                let path = Self.example(route, h)
                let get = try await h.http(path)
                let head = try await h.http(path, method: "HEAD")
                #expect(head.status == get.status, "HEAD \(path): \(head.status), GET \(get.status)")
                #expect(head.body.isEmpty, "HEAD \(path) sent a body")
                for name in ["content-type", "content-length", "cache-control", "etag", "location", "allow"] {
                    #expect(head.headers[name] == get.headers[name], "HEAD \(path) \(name): \(head.headers[name] ?? "-") vs \(get.headers[name] ?? "-")")
                }
                checked += 1
            }
            #expect(checked > 35)
            // The ones that must succeed, so the walk is not all 404s.
            for path in ["/", "/api/podcasts", "/api/podcasts/\(h.podcast.id)", "/api/episodes", "/api/state", "/api/playlists", "/js/app.js"] {
                #expect(try await h.http(path, method: "HEAD").status == 200, "HEAD \(path)")
            }
        }
    }

    @Test("a method no row answers: 405 with Allow naming the methods that are; an unknown path: 404")
    func wrongMethods() async throws {
        try await ServerHarness.with { h in
            for route in EarshotServer.routes {
                let path = Self.example(route, h)
                guard let wrong = ["PUT", "PATCH", "DELETE", "POST", "GET"].first(where: { method in
                    if case .wrongMethod = EarshotServer.routes.lookup(method: method, path: path) { return true }
                    return false
                }), case .wrongMethod(let allowed, _) = EarshotServer.routes.lookup(method: wrong, path: path) else {
                    Issue.record("\(route.pattern) answers every method"); continue
                }
                let response = try await h.http(path, method: wrong)
                #expect(response.status == 405, "\(wrong) \(path): \(response.status) \(response.text)")
                let allow = Set((response.headers["allow"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(allow == Set(allowed) && allow.isSuperset(of: route.methods), "\(wrong) \(path): Allow \(allow)")
                if route.methods.contains("GET") { #expect(allow.contains("HEAD"), "\(path): HEAD is allowed where GET is") }
            }
            for path in ["/nothing", "/api/nothing", "/api/podcasts/\(h.podcast.id)/nothing", "/podcast/x", "/podcast/0", "/js/", "/api/"] {
                #expect(try await h.http(path).status == 404, "GET \(path)")
            }
            #expect(try await h.http("/api/nothing", method: "POST").status == 404)
        }
    }
}

/// A library that fails under the server: every answer says so without the failure's detail.
@Suite("Internal errors never reach a client", .serialized)
struct InternalErrorTests {
    /// What must never appear in a response: SQL, SQLite's words, Swift error descriptions, paths.
    static func leaks(_ text: String, _ h: ServerHarness) -> [String] {
        ["no such table", "SQLITE", "sqlite", "SELECT", "INSERT", "UPDATE ", "FROM ", "LibraryError", "DatabaseError",
         "Error(", "error:", h.directory.url.path, "library.sqlite", ".swift"].filter { text.contains($0) }
    }

    @Test("the library's tables gone: 500 {\"error\":\"internal error\"} on HTTP, plain messages on the socket")
    func failingStore() async throws {
        try await ServerHarness.with { h in
            // Another connection takes the tables away under the running server: every query then fails in SQLite.
            let other = try Database(path: h.store.path)
            try other.execute("DROP TABLE playlist_items; DROP TABLE playlists; DROP TABLE episodes; DROP TABLE podcasts")
            var failed = 0
            for path in ["/api/podcasts", "/api/podcasts/\(h.podcast.id)", "/api/podcasts/\(h.podcast.id)/episodes", "/api/episodes",
                         "/api/episodes/\(h.episodes[0].id)", "/api/playlists", "/api/playlists/1", "/api/opml", "/"] {
                let response = try await h.http(path)
                #expect(Self.leaks(response.text, h).isEmpty, "GET \(path) leaks: \(response.text)")
                if response.status == 500 {
                    failed += 1
                    #expect(response.text == #"{"error":"internal error"}"#, "GET \(path): \(response.text)")
                }
            }
            #expect(failed >= 8, "the dropped tables made the reads fail")
            for (method, path, body) in [("DELETE", "/api/podcasts/\(h.podcast.id)", ""), ("POST", "/api/podcasts/\(h.podcast.id)/refresh", ""),
                                         ("POST", "/api/subscriptions", #"{"url":"http://127.0.0.1:9/feed.xml"}"#)] {
                let response = try await h.http(path, method: method, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                #expect(response.status >= 400, "\(method) \(path): \(response.status)")
                #expect(Self.leaks(response.text, h).isEmpty, "\(method) \(path) leaks: \(response.text)")
            }
            let socket = try await h.socket()
            _ = try await socket.receive { $0["type"] as? String == "state" }
            for (id, frame) in [#""cmd":"play","episode":\#(h.episodes[0].id)"#, #""cmd":"queue.add","episode":\#(h.episodes[0].id)"#,
                                #""cmd":"playlist.create","name":"x""#, #""cmd":"podcast.speed","podcast":\#(h.podcast.id),"rate":2"#,
                                #""cmd":"mark","episode":\#(h.episodes[0].id),"played":true"#].enumerated() {
                try await socket.send("{\"id\":\(id),\(frame)}")
                let reply = try await socket.receive { ($0["type"] as? String == "error" || $0["type"] as? String == "ack") && $0["id"] as? Int == id }
                #expect(reply["type"] as? String == "error", "\(frame): \(reply)")
                let message = reply["message"] as? String ?? ""
                #expect(Self.leaks(message, h).isEmpty, "\(frame) leaks: \(message)")
            }
        }
    }
}
