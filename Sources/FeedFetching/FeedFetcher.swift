import EarshotCore
import Feeds
import Foundation
import HTTPClient

/// Fetches feeds (and artwork, chapters, transcripts, directory answers) over HTTP(S) with libcurl: a
/// size cap, a timeout, conditional GET, compressed bodies, verified TLS (`--ca-file` included), and
/// redirects followed (only to http/https) with note taken of whether they were all permanent.
public struct FeedFetcher: Sendable {
    /// What a fetch brought back.
    public struct Response: Sendable, Equatable {
        /// The body; empty when `notModified`, or when it went to `spooled`.
        public var data: Data
        /// The body in a temporary file, when the fetcher spools (`spoolingAbove`) and it was larger.
        public var spooled: SpooledBody? = nil
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

    /// Seconds to connect, and seconds without progress, before the request fails.
    public var timeout: TimeInterval
    /// Bodies larger than this many bytes are refused (and not downloaded further).
    public var maximumBytes: Int
    public var userAgent: String
    /// Bodies larger than this many bytes go to a temporary file (`Response.spooled`) rather than
    /// memory; nil keeps every body in `Response.data`. Only callers that read `spooled` set it.
    public var spoolingAbove: Int?

    /// What the feed refresher spools above: a feed this large is parsed from the file.
    public static let feedSpoolThreshold = 4 * 1_048_576

    public init(timeout: TimeInterval = 30, maximumBytes: Int = 50 * 1_048_576,
                userAgent: String = Earshot.userAgent, spoolingAbove: Int? = nil) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.userAgent = userAgent
        self.spoolingAbove = spoolingAbove
    }

    /// Fetches `url`. Sends `If-None-Match` / `If-Modified-Since` when validators are given, and
    /// `headers` after its own (a directory's signature; they may replace `Accept`).
    /// Throws `FeedError.invalidURL`, `.httpStatus`, `.network` or `.tooLarge`.
    public func fetch(_ url: URL, etag: String? = nil, lastModified: String? = nil,
                      headers: [String: String] = [:]) async throws -> Response {
        guard Self.isFetchable(url) else { throw FeedError.invalidURL(url.absoluteString) }
        var fields = ["Accept": "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8"]
        if let etag { fields["If-None-Match"] = etag }
        if let lastModified { fields["If-Modified-Since"] = lastModified }
        for (name, value) in headers {
            // Header names are case-insensitive: a caller's `accept` replaces ours.
            fields = fields.filter { $0.key.lowercased() != name.lowercased() }
            fields[name] = value
        }
        var options = CurlRequest.Options(url: url.absoluteString)
        options.headers = fields.sorted { $0.key < $1.key }
            .filter { !$0.value.contains("\r") && !$0.value.contains("\n") }
            .map { "\($0.key): \($0.value)" }
        options.userAgent = userAgent
        let seconds = max(1, Int(timeout.rounded(.up)))
        options.connectTimeout = seconds
        options.stallTimeout = seconds
        options.idleTimeout = timeout
        options.compressed = true
        return try await FetchTask(url: url, options: options, maximumBytes: maximumBytes, spoolThreshold: spoolingAbove).run()
    }

    /// Fetches and parses `url` in one go: what subscribing needs.
    public func fetchAndParse(url: URL) async throws -> (content: FeedContent, finalURL: URL) {
        let response = try await fetch(url)
        return (try response.parsed(), response.finalURL)
    }

    /// `fetchAndParse(url:)` with the default limits.
    public static func fetchAndParse(url: URL) async throws -> (content: FeedContent, finalURL: URL) {
        try await FeedFetcher().fetchAndParse(url: url)
    }
}

extension FeedFetcher.Response {
    /// The feed in the body, wherever it is (`spooled` or `data`), relative links resolved against `finalURL`.
    public func parsed() throws -> FeedContent {
        if let spooled { return try FeedParser.parse(contentsOf: spooled.url, baseURL: finalURL) }
        return try FeedParser.parse(data, baseURL: finalURL)
    }
}

extension FeedFetcher {
    /// Only absolute http and https URLs with a host: no `file:`, no `ftp:`, nothing local by accident.
    public static func isFetchable(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }
}
