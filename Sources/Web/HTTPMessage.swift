import EarshotCore
import Foundation

/// An HTTP request as the server hands it to Swift code: no lws types.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The decoded path, e.g. "/api/podcasts/3".
    public var path: String
    public var query: [String: String]
    /// Lower-cased names: "host", "origin", "if-none-match", "content-type".
    public var headers: [String: String]
    public var body: Data
    /// The client's IP address ("" when unknown).
    public var peer: String
    /// Who asks (pairing): the host, a paired device, or a stranger.
    public var requester: Requester
    /// The matched route's path parameters (`{id}` → "3"), set by `EarshotServer.dispatch`.
    public var parameters: [String: String] = [:]

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data(),
                peer: String = "", requester: Requester = .host) {
        self.method = method; self.path = path; self.query = query; self.headers = headers; self.body = body
        self.peer = peer; self.requester = requester
    }
}

/// An HTTP response: status, headers, the whole body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    /// Extra headers, lower-case names.
    public var headers: [(String, String)]
    public var body: Data

    public init(status: Int, contentType: String = "text/plain; charset=utf-8", headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status; self.contentType = contentType; self.headers = headers; self.body = body
    }

    /// A JSON body from an Encodable value (throws only when the value cannot be encoded: a 500).
    /// Encoded straight into a `JSONValue` and written in one pass: a page of 1,000 episodes took
    /// JSONEncoder 60 % of the request (27–51 MB/s); the text is the same JSON, keys in any order.
    /// A value that writes its own text (`JSONTextWritable`: the episode lists) skips even that.
    public static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> HTTPResponse {
        if let direct = value as? any JSONTextWritable {
            var writer = JSONTextWriter()
            writer.reserve(1 << 14)
            try direct.writeJSON(into: &writer)
            return jsonText(Data(writer.take()), status: status)
        }
        return jsonText(Data(try JSONValueEncoder().encode(value).jsonBytes()), status: status)
    }

    /// A JSON body already encoded (the state snapshot, the downloads message).
    public static func jsonText(_ body: Data, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", headers: [("cache-control", "no-store")], body: body)
    }

    /// `{"error": message}` with a status: the one shape every failure takes.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        // A [String: String] always encodes.
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data(#"{"error":"internal error"}"#.utf8)
        return jsonText(body, status: status)
    }
}
