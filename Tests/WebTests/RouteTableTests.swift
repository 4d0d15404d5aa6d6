import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

@Suite("The route table: who may call what")
struct RouteAccessTableTests {
    private func verdict(_ requester: Requester, _ method: String, _ path: String) -> AccessVerdict {
        PairingAccess.verdict(requester, access: EarshotServer.access(method: method, path: path))
    }

    @Test("a stranger gets the pairing page, its files and POST /api/pair; nothing else")
    func stranger() {
        let allowed: [(String, String)] = [
            ("GET", "/"), ("GET", "/player"), ("HEAD", "/podcast/3"), ("GET", "/pair"), ("HEAD", "/pair"),
            ("GET", "/js/pair.js"), ("GET", "/js/views/pairing.js"), ("GET", "/js/views/stranger-form.js"), ("GET", "/css/pairing.css"),
            ("GET", "/index.php/login/v2/flow/ab"), ("POST", "/index.php/login/v2/grant"),
            ("POST", "/api/pair"), ("GET", "/api/pair"), // a wrong method on an open route: 405 from the table
        ]
        for (method, path) in allowed {
            #expect(verdict(.stranger, method, path) == .pairingOnly, "\(method) \(path)")
        }
        let refused: [(String, String)] = [
            ("GET", "/ws"), ("GET", "/api/state"), ("GET", "/api/podcasts"), ("GET", "/js/app.js"),
            ("GET", "/js/core/socket.js"), ("GET", "/demo/audio/01-welcome.mp3"), ("POST", "/"),
            ("GET", "/api/pairing"), ("POST", "/api/pairing"), ("GET", "/api/devices"),
            ("DELETE", "/api/devices/1"), ("GET", "/api/device"), ("GET", "/nothing-here"),
            ("POST", "/api/subscriptions"), ("GET", "/pair/../api/state"),
        ]
        for (method, path) in refused {
            guard case .refuse(let status, _) = verdict(.stranger, method, path) else {
                Issue.record("\(method) \(path) should be refused"); continue
            }
            #expect(status == 401, "\(method) \(path)")
        }
    }

    @Test("a paired device gets the app, but cannot pair others, list or remove devices")
    func device() {
        for path in ["/ws", "/api/state", "/js/app.js", "/api/device", "/api/pair", "/api/devicesx"] {
            #expect(verdict(.device(3), "GET", path) == .serve, "\(path)")
        }
        for (method, path) in [("GET", "/api/pairing"), ("GET", "/api/pairing/qr.svg"), ("GET", "/api/devices"),
                               ("DELETE", "/api/devices/3"), ("PUT", "/api/pairing")] {
            guard case .refuse(let status, _) = verdict(.device(3), method, path) else {
                Issue.record("\(method) \(path) should be refused"); continue
            }
            #expect(status == 403, "\(method) \(path)")
        }
    }

    @Test("the host gets everything")
    func host() {
        for path in ["/ws", "/api/devices", "/api/pairing", "/anything"] {
            #expect(verdict(.host, "DELETE", path) == .serve)
        }
    }

    @Test("patterns: literals, ids, parameters, the rest of a path")
    func patterns() {
        #expect(RoutePattern("/").match("/") == [:])
        #expect(RoutePattern("/").match("/x") == nil)
        #expect(RoutePattern("/api/podcasts/{id}").match("/api/podcasts/12") == ["id": "12"])
        for bad in ["/api/podcasts/0", "/api/podcasts/-1", "/api/podcasts/x", "/api/podcasts/", "/api/podcasts/1/", "/api/podcasts",
                    "/api/podcasts/+5", "/api/podcasts/007", "/api/podcasts/99999999999999999999"] {
            #expect(RoutePattern("/api/podcasts/{id}").match(bad) == nil, "\(bad)")
        }
        #expect(RoutePattern("/artwork/{key}/{file}").match("/artwork/ab/96.jpg") == ["key": "ab", "file": "96.jpg"])
        #expect(RoutePattern("/js/{file...}").match("/js/views/a.js") == ["file": "views/a.js"])
        #expect(RoutePattern("/js/{file...}").match("/js/") == nil)
        #expect(RoutePattern("/js/{file...}").match("/js") == nil)
        // gpodder.net's paths: a parameter ending in a fixed suffix.
        #expect(RoutePattern("/api/2/devices/{user}.json").match("/api/2/devices/ann.json") == ["user": "ann"])
        #expect(RoutePattern("/api/2/devices/{user}.json").match("/api/2/devices/ann.jso") == nil)
        #expect(RoutePattern("/api/2/devices/{user}.json").match("/api/2/devices/.json") == nil)
        #expect(RoutePattern("/subscriptions/{user}/{device}.txt").match("/subscriptions/a.b/phone-1.txt") == ["user": "a.b", "device": "phone-1"])
    }

    @Test("every row's pattern is reachable: no earlier row answers all of its paths and methods")
    func noShadowedRows() {
        for (index, route) in EarshotServer.routes.enumerated() {
            let example = route.pattern.segments.map { segment -> String in
                switch segment {
                case .literal(let text): return text
                case .id: return "7"
                case .parameter: return "p"
                case .suffixed(_, let suffix): return "p" + suffix
                case .rest: return "a/b"
                }
            }.joined(separator: "/")
            for method in route.methods {
                guard case .found(let found, _) = EarshotServer.routes.lookup(method: method, path: "/" + example) else {
                    Issue.record("\(method) /\(example) finds nothing"); continue
                }
                #expect(found.pattern == route.pattern, "row \(index) \(method) \(route.pattern) is answered by \(found.pattern)")
            }
        }
    }
}
