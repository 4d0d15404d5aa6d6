import EarshotCore
import Feeds
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches feeds over HTTP(S) with `URLSession`: a size cap, a timeout, conditional GET, and redirects
/// followed (only to http/https) with note taken of whether they were all permanent.
public struct FeedFetcher: Sendable {
    /// What a fetch brought back.
    public struct Response: Sendable, Equatable {
        /// The body; empty when `notModified`.
        public var data: Data
        /// Where the feed was finally found, after redirects.
        public var finalURL: URL
        /// Validators to send next time (`ETag`, `Last-Modified`).
        public var etag: String?
        public var lastModified: String?
        /// The server answered 304 to the validators given: nothing changed.
        public var notModified: Bool
        /// Set when every redirect on the way was permanent (301, 308): the subscription should move here.
        public var permanentURL: URL?
    }

    /// Seconds without progress before the request fails.
    public var timeout: TimeInterval
    /// Bodies larger than this many bytes are refused (and not downloaded further).
    public var maximumBytes: Int
    public var userAgent: String

    public init(timeout: TimeInterval = 30, maximumBytes: Int = 50 * 1_048_576,
                userAgent: String = Earshot.userAgent) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.userAgent = userAgent
    }

    /// Fetches `url`. Sends `If-None-Match` / `If-Modified-Since` when validators are given, and
    /// `headers` after its own (a directory's signature; they may replace `Accept`).
    /// Throws `FeedError.invalidURL`, `.httpStatus`, `.network` or `.tooLarge`.
    public func fetch(_ url: URL, etag: String? = nil, lastModified: String? = nil,
                      headers: [String: String] = [:]) async throws -> Response {
        guard Self.isFetchable(url) else { throw FeedError.invalidURL(url.absoluteString) }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        // Set again: FoundationNetworking on Linux ignores the initializer's timeout (the request would never time out).
        request.timeoutInterval = timeout
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8",
                         forHTTPHeaderField: "Accept")
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await FetchTask(request: request, maximumBytes: maximumBytes).run()
    }

    /// Fetches and parses `url` in one go: what subscribing needs.
    public func fetchAndParse(url: URL) async throws -> (content: FeedContent, finalURL: URL) {
        let response = try await fetch(url)
        let content = try FeedParser.parse(response.data, baseURL: response.finalURL)
        return (content, response.finalURL)
    }

    /// `fetchAndParse(url:)` with the default limits.
    public static func fetchAndParse(url: URL) async throws -> (content: FeedContent, finalURL: URL) {
        try await FeedFetcher().fetchAndParse(url: url)
    }

    /// Only absolute http and https URLs with a host: no `file:`, no `ftp:`, nothing local by accident.
    public static func isFetchable(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }
}
