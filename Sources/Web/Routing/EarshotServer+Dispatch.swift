import EarshotCore
import Foundation

extension EarshotServer {
    /// Finds the request's row in `routes`, applies the row's rules (who may call it, what body it
    /// takes), runs its handler and turns whatever it throws into a response in one place.
    func dispatch(_ request: HTTPRequest) async -> HTTPResponse {
        var request = request
        let lookup = Self.routes.lookup(method: request.method, path: request.path)
        do {
            // The transport judged this already on its thread; the row says it again rather than trust one place.
            switch PairingAccess.verdict(request.requester, access: lookup.access) {
            case .refuse(let status, let message): throw HTTPError(status, message)
            case .pairingOnly, .serve: break
            }
            switch lookup {
            case .notFound:
                throw HTTPError.notFound("no such page or endpoint: \(request.path)")
            case .wrongMethod(let allowed, _):
                throw HTTPError(405, "\(request.method) is not allowed on \(request.path)",
                                headers: ["allow": allowed.joined(separator: ", ")])
            case .found(let route, let parameters):
                try Self.checkBody(request, route.body)
                request.parameters = parameters
                if request.requester == .stranger, route.access == .pairedPage { return try pairingPage(request) }
                return try await route.handler(self, request)
            }
        } catch {
            return Self.response(for: error, request)
        }
    }

    /// Bodies that are JSON must say so: `application/json` (415 otherwise). A page of another
    /// site can post `text/plain` or a form without asking first; it cannot post JSON without a
    /// CORS preflight, which this server never grants. A `.file` row (OPML import) takes a file as it is.
    static func checkBody(_ request: HTTPRequest, _ body: Route.Body) throws(HTTPError) {
        guard body != .file, body != .anyJSON, !request.body.isEmpty else { return }
        let type = request.headers["content-type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/json" else {
            throw HTTPError(415, "send the body as JSON with Content-Type: application/json")
        }
    }

    /// What the transport's gate asks on the service thread: the row's access for a method and path.
    static func access(method: String, path: String) -> RouteAccess? {
        routes.lookup(method: method, path: path).access
    }
}

extension HTTPRequest {
    /// A path parameter of the matched row (`{id}` is checked to be a positive whole number).
    func id(_ name: String = "id") throws(HTTPError) -> Int64 {
        guard let text = parameters[name], let id = Int64(text) else { throw HTTPError.notFound("no such item: \(path)") }
        return id
    }

    /// The body decoded as `T`, or 400 with `hint` (what to send).
    func decodeJSON<T: Decodable>(_ type: T.Type, hint: String) throws(HTTPError) -> T {
        do { return try JSONDecoder().decode(type, from: body) } catch { throw HTTPError.badRequest(hint) }
    }
}
