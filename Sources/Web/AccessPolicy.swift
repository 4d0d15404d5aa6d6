import Foundation

/// Who may talk to this server: the Host and Origin rules of docs/protocol.md, as a pure value.
/// DNS rebinding sends a foreign Host; a hostile page sends a foreign Origin. Both are refused.
public struct AccessPolicy: Sendable, Equatable {
    /// Host names (without port) that mean this server.
    public var hostNames: Set<String>
    public var port: Int

    /// Names a TLS reverse proxy in front serves this server under (`--allow-host`): a page from
    /// `https://<name>` may call it when the request's Host is that name (docs/protocol.md).
    public var proxyNames: Set<String> = []

    public static let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    public init(hostNames: Set<String> = AccessPolicy.loopbackNames, port: Int) {
        self.hostNames = Set(hostNames.map { $0.lowercased() })
        self.port = port
    }

    /// Whether a `Host` header names this server (its port, or none).
    public func allowsHost(_ host: String?) -> Bool {
        guard let host = host?.lowercased(), !host.isEmpty else { return false }
        let (name, port) = Self.split(host)
        guard hostNames.contains(name) else { return false }
        return port == nil || port == self.port
    }

    /// Whether an `Origin` header is this server's own page. A missing Origin (curl, the CLI) passes.
    public func allowsOrigin(_ origin: String?) -> Bool {
        guard let origin = origin?.lowercased() else { return true }
        guard origin.hasPrefix("http://") else { return false }
        let authority = origin.dropFirst("http://".count)
        guard !authority.contains("/") else { return false }
        let (name, port) = Self.split(String(authority))
        // The page's origin always carries the port unless it is 80.
        return hostNames.contains(name) && (port ?? 80) == self.port
    }

    /// Whether `origin` is this server's page as the request itself names the server: an allowed
    /// Origin (above) whose host is the `Host` header's. A page on http://localhost:8080 may not
    /// drive http://127.0.0.1:8080, and no page may drive a Host that is not ours. Behind a TLS
    /// proxy named with `proxyNames`, `https://<name>` with `Host: <name>` passes too.
    public func allowsOrigin(_ origin: String?, host: String?) -> Bool {
        guard let origin = origin?.lowercased() else { return true }
        guard let host = host?.lowercased(), allowsHost(host) else { return false }
        let (hostName, hostPort) = Self.split(host)
        if origin.hasPrefix("https://") {
            let authority = origin.dropFirst("https://".count)
            guard !authority.contains("/") else { return false }
            let (name, port) = Self.split(String(authority))
            return proxyNames.contains(name) && name == hostName && hostPort == nil && (port ?? 443) == 443
        }
        guard allowsOrigin(origin) else { return false }
        return Self.split(String(origin.dropFirst("http://".count))).0 == hostName
    }

    /// "name:port" or "[v6]:port" into its parts.
    static func split(_ authority: String) -> (String, Int?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return (authority, nil) }
            let name = String(authority[...close])
            let rest = authority[authority.index(after: close)...]
            if rest.hasPrefix(":") { return (name, Int(rest.dropFirst()) ?? -1) }
            return (name, rest.isEmpty ? nil : -1)
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 { return (String(parts[0]), Int(parts[1]) ?? -1) }
        return (authority, parts.count == 1 ? nil : -1)
    }
}
