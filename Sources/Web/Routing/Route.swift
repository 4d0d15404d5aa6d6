import EarshotCore
import Foundation

/// One HTTP route: the methods it answers, its path pattern, who may call it, what body it takes,
/// and its handler. Every route of the server is a row of `EarshotServer.routes` (RouteTable.swift).
struct Route: Sendable {
    /// What a request's body must be.
    enum Body: Sendable, Equatable {
        /// No body is read (one sent anyway must still be JSON: a page elsewhere cannot post it).
        case none
        /// `application/json`, or 415.
        case json
        /// A file as it is (OPML import): any content type.
        case file
        /// JSON whatever its Content-Type says (sync clients: mygpoclient posts JSON as a form,
        /// AntennaPod its login as `plain/text`). Only for `.syncClient` rows, which a page of another
        /// site cannot use: they need the sync account's credentials, and another site's Origin is refused.
        case anyJSON
    }

    typealias Handler = @Sendable (EarshotServer, HTTPRequest) async throws -> HTTPResponse

    /// "GET", "POST", "DELETE", … (HEAD is never listed: it is derived from GET).
    let methods: [String]
    let pattern: RoutePattern
    let access: RouteAccess
    let body: Body
    let handler: Handler

    init(_ methods: [String], _ pattern: String, _ access: RouteAccess, body: Body = .none, _ handler: @escaping Handler) {
        self.methods = methods
        self.pattern = RoutePattern(pattern)
        self.access = access
        self.body = body
        self.handler = handler
    }

    /// Whether this row answers `method`: HEAD is answered wherever GET is.
    func answers(_ method: String) -> Bool {
        methods.contains(method) || (method == "HEAD" && methods.contains("GET"))
    }
}

/// A path pattern: literal segments, `{name}` for one segment (`{id}` must be a positive whole
/// number), `{name}.ext` for a segment ending in `.ext` (gpodder.net's `/api/2/devices/{user}.json`;
/// the parameter is the segment without it), and a final `{name...}` for the rest of the path
/// (one segment or more).
struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case id(String)
        case rest(String)
        case suffixed(String, suffix: String)
    }

    let segments: [Segment]
    let description: String

    init(_ text: String) {
        description = text
        segments = text.split(separator: "/").map { part in
            if part.hasPrefix("{"), let close = part.firstIndex(of: "}"), part.index(after: close) != part.endIndex {
                return .suffixed(String(part[part.index(after: part.startIndex)..<close]), suffix: String(part[part.index(after: close)...]))
            }
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return .literal(String(part)) }
            let name = String(part.dropFirst().dropLast())
            if name.hasSuffix("...") { return .rest(String(name.dropLast(3))) }
            return name == "id" ? .id(name) : .parameter(name)
        }
    }

    /// The parameters when `path` matches, nil when it does not.
    func match(_ path: String) -> [String: String]? { match(segments: Self.segments(of: path)) }

    /// A path's segments as `match(segments:)` takes them: "/" has none; "/a/" keeps its trailing
    /// empty segment, which no pattern matches.
    static func segments(of path: String) -> [Substring] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return parts.count == 1 && parts.first == "" ? [] : Array(parts)
    }

    /// The parameters when the path split by `segments(of:)` matches (the table splits a path once for all rows).
    func match(segments given: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest(let name):
                let rest = given.dropFirst(index)
                guard !rest.isEmpty, !rest.contains(where: \.isEmpty) else { return nil }
                parameters[name] = rest.joined(separator: "/")
                return parameters
            case .literal(let text):
                guard index < given.count, given[index] == text else { return nil }
            case .parameter(let name):
                guard index < given.count, !given[index].isEmpty else { return nil }
                parameters[name] = String(given[index])
            case .suffixed(let name, let suffix):
                guard index < given.count, given[index].hasSuffix(suffix), given[index].count > suffix.count else { return nil }
                parameters[name] = String(given[index].dropLast(suffix.count))
            case .id(let name):
                // Digits only: Int64 would also read "+5" and "007".
                guard index < given.count, given[index].first != "0", given[index].allSatisfy({ $0 >= "0" && $0 <= "9" }),
                      let id = Int64(given[index]), id > 0 else { return nil }
                parameters[name] = String(id)
            }
        }
        return given.count == segments.count ? parameters : nil
    }
}

/// What the table says of a method and a path.
enum RouteLookup: Sendable {
    /// The row that answers, with the path's parameters.
    case found(Route, [String: String])
    /// The path is known, the method is not: 405 with `Allow`. `access` is the most open of the
    /// path's rows (a stranger learns the methods only of what a stranger may call).
    case wrongMethod(allowed: [String], access: RouteAccess)
    case notFound

    /// Who may be told what this lookup answers (nil: nobody has a row here).
    var access: RouteAccess? {
        switch self {
        case .found(let route, _): return route.access
        // A page's path with another method is nothing a stranger may be shown the pairing page for.
        case .wrongMethod(_, let access): return access == .pairedPage ? .paired : access
        case .notFound: return nil
        }
    }
}

extension Array where Element == Route {
    /// The first row whose pattern matches and that answers the method; else the methods the
    /// matching rows answer.
    func lookup(method: String, path: String) -> RouteLookup {
        var allowed: [String] = []
        var access: RouteAccess?
        let segments = RoutePattern.segments(of: path)
        for route in self {
            guard let parameters = route.pattern.match(segments: segments) else { continue }
            if route.answers(method) { return .found(route, parameters) }
            for method in route.methods + (route.methods.contains("GET") ? ["HEAD"] : []) where !allowed.contains(method) {
                allowed.append(method)
            }
            access = access.map { $0.opener(route.access) } ?? route.access
        }
        guard let access else { return .notFound }
        return .wrongMethod(allowed: allowed, access: access)
    }
}
