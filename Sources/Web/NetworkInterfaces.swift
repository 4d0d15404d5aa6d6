import Foundation

/// This machine's IPv4 and IPv6 addresses and names: what LAN clients may call it (the Host
/// allowlist) and the URLs `earshot serve --lan` prints.
public enum NetworkInterfaces {
    /// The IPv4 addresses of interfaces that are up, loopback left out, in interface order.
    public static func ipv4Addresses() -> [String] { addresses(family: AF_INET) }

    /// The IPv6 addresses of interfaces that are up that a browser can be pointed at: loopback and
    /// link-local (fe80::/10, which a URL would need a zone for) left out; global and unique-local
    /// (fd00::/8) ones, in interface order.
    public static func ipv6Addresses() -> [String] {
        addresses(family: AF_INET6).filter { name in
            !["fe8", "fe9", "fea", "feb", "::ffff:"].contains(where: name.hasPrefix) && name != "::1"
        }
    }

    /// The addresses of `family` (AF_INET or AF_INET6) of interfaces that are up, not loopback, as
    /// text (lowercase), each once, in interface order.
    private static func addresses(family: Int32) -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(family),
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if family == AF_INET6 {
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet in
                    var raw = inet.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            } else {
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                    var raw = inet.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            }
            let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
            if !addresses.contains(name) { addresses.append(name) }
        }
        return addresses
    }

    /// The host name ("livingroom"), or nil.
    public static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        return name.isEmpty || name == "localhost" ? nil : name
    }

    /// Names a LAN client may use for this machine: the host name, its mDNS form (`name.local`),
    /// every IPv4 address, and every IPv6 address in brackets (as a Host header writes it).
    public static func names() -> [String] {
        var names: [String] = []
        if let host = hostName() {
            let short = host.split(separator: ".").first.map(String.init) ?? host
            names += [host, short, short + ".local"]
        }
        names += ipv4Addresses()
        names += ipv6Addresses().map { "[\($0)]" }
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// Whether a peer address (as libwebsockets prints it) is this machine's loopback.
    public static func isLoopback(_ peer: String) -> Bool {
        let address = peer.lowercased().hasPrefix("::ffff:") ? String(peer.dropFirst(7)) : peer
        return address.hasPrefix("127.") || address == "::1"
    }
}

extension NetworkInterfaces {
    /// Addresses in the order a phone is likeliest to reach them: home networks (192.168/16), then
    /// 10/8, then the rest of 172.16/12, then anything else; container bridges (172.17/16, Docker's)
    /// and link-local (169.254/16) last. Stable within each group.
    public static func ranked(_ addresses: [String]) -> [String] {
        func rank(_ address: String) -> Int {
            let octets = address.split(separator: ".").compactMap { Int($0) }
            guard octets.count == 4 else { return 9 }
            switch (octets[0], octets[1]) {
            case (192, 168): return 0
            case (10, _): return 1
            case (172, 17), (169, 254): return 4
            case (172, 16...31): return 2
            default: return 3
            }
        }
        return addresses.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }
}
