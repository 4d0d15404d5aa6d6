/// The HTTP request a directory search is: the address (the provider's base, its path, the
/// term percent-encoded) and the headers. Pure: the caller fetches it.
public struct DirectoryRequest: Sendable, Equatable {
    public var url: String
    public var headers: [String: String]

    /// Results asked for: enough for a screenful, few enough to answer quickly.
    public static let limit = 30

    /// A search for `term` at `base` (a base URL without a trailing slash is fine either way).
    /// Podcast Index needs `credentials`; nil there is refused by the caller before asking.
    public static func search(_ provider: DirectoryProvider, base: String, term: String,
                              credentials: PodcastIndexCredentials? = nil, unixTime: Int64,
                              userAgent: String) -> DirectoryRequest {
        let q = QueryEncoding.component(term)
        switch provider {
        case .itunes:
            return DirectoryRequest(url: "\(root(base))/search?media=podcast&entity=podcast&limit=\(limit)&term=\(q)",
                                    headers: ["User-Agent": userAgent])
        case .podcastindex:
            return DirectoryRequest(url: "\(root(base))/api/1.0/search/byterm?max=\(limit)&q=\(q)",
                                    headers: signed(credentials, unixTime: unixTime, userAgent: userAgent))
        }
    }

    /// The base without a trailing slash.
    static func root(_ base: String) -> String { base.hasSuffix("/") ? String(base.dropLast()) : base }

    /// Podcast Index's headers: the user agent, and the signature when there are credentials.
    static func signed(_ credentials: PodcastIndexCredentials?, unixTime: Int64, userAgent: String) -> [String: String] {
        var headers: [String: String] = ["User-Agent": userAgent]
        for (name, value) in credentials?.headers(unixTime: unixTime, userAgent: userAgent) ?? [] { headers[name] = value }
        return headers
    }
}

extension DirectoryRequest {
    /// The "Popular" list for an empty search: iTunes' top podcasts chart (its legacy RSS JSON,
    /// which names podcasts by id only, so a `lookup` follows) or Podcast Index's trending feeds.
    /// `country` is the iTunes storefront (two letters).
    public static func popular(_ provider: DirectoryProvider, base: String, country: String = "us",
                               credentials: PodcastIndexCredentials? = nil, unixTime: Int64,
                               userAgent: String) -> DirectoryRequest {
        switch provider {
        case .itunes:
            return DirectoryRequest(url: "\(root(base))/\(QueryEncoding.component(country))/rss/toppodcasts/limit=\(limit)/explicit=true/json",
                                    headers: ["User-Agent": userAgent])
        case .podcastindex:
            return DirectoryRequest(url: "\(root(base))/api/1.0/podcasts/trending?max=\(limit)",
                                    headers: signed(credentials, unixTime: unixTime, userAgent: userAgent))
        }
    }

    /// iTunes' lookup of podcasts by id (what the chart leaves out: their feed addresses).
    public static func lookup(base: String, ids: [String], userAgent: String) -> DirectoryRequest {
        let list = ids.map(QueryEncoding.component).joined(separator: ",")
        return DirectoryRequest(url: "\(root(base))/lookup?entity=podcast&id=\(list)", headers: ["User-Agent": userAgent])
    }
}

/// Percent-encoding of a query component (RFC 3986: unreserved characters stay, every other
/// UTF-8 byte becomes %XX), without Foundation's URLComponents.
public enum QueryEncoding {
    public static func component(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + Hex.encode([byte]).uppercased()
            }
        }
        return out
    }
}
