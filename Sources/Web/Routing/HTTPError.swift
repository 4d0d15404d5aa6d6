import EarshotCore
import Foundation

/// A failure a handler means the client to see: a status and a message fit for anyone (no error
/// descriptions, SQL, paths). Anything else a handler throws becomes `500 internal error`.
struct HTTPError: Error, Sendable, Equatable {
    var status: Int
    var message: String
    /// Extra headers (`retry-after`, `allow`).
    var headers: [String: String] = [:]

    init(_ status: Int, _ message: String, headers: [String: String] = [:]) {
        self.status = status; self.message = message; self.headers = headers
    }

    static func notFound(_ what: String) -> HTTPError { HTTPError(404, what) }
    static func badRequest(_ message: String) -> HTTPError { HTTPError(400, message) }
}

/// Errors of other modules whose message is written for users (a feed that could not be fetched,
/// a broken OPML file): they say their own status.
protocol PublicHTTPError: Error {
    var httpStatus: Int { get }
    var publicMessage: String { get }
}

extension EarshotServer {
    /// The one place where a thrown error becomes a response. A `HTTPError` or `PublicHTTPError`
    /// is answered as it says; anything else is logged with its detail and answered
    /// `500 {"error":"internal error"}`, so no description, SQL or path reaches a client.
    static func response(for error: any Error, _ request: HTTPRequest) -> HTTPResponse {
        switch error {
        case let error as HTTPError:
            var response = HTTPResponse.error(error.status, error.message)
            response.headers += error.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return response
        case let error as any PublicHTTPError:
            return .error(error.httpStatus, error.publicMessage)
        default:
            Log.error("http", "\(request.method) \(request.path): \(String(reflecting: error))")
            return .error(500, "internal error")
        }
    }
}
