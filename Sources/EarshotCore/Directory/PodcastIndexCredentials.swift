/// A Podcast Index API key and secret, and the headers that sign a request with them
/// (its "Amazon-style" scheme: `Authorization` is the lower-case hex SHA-1 of key + secret + the
/// Unix time sent in `X-Auth-Date`). Kept on the server; never sent to a browser.
public struct PodcastIndexCredentials: Sendable, Equatable, Codable {
    public var key: String
    public var secret: String

    public init(key: String, secret: String) { self.key = key; self.secret = secret }

    /// The headers for a request made at `unixTime` (whole seconds, as the API compares them with its clock).
    public func headers(unixTime: Int64, userAgent: String) -> [(String, String)] {
        let date = String(unixTime)
        return [("User-Agent", userAgent), ("X-Auth-Key", key), ("X-Auth-Date", date),
                ("Authorization", SHA1.hex(key + secret + date))]
    }
}
