import FoundationEssentials

/// Why a feed could not be fetched or read. Each case's `description` is a sentence a user can act on.
public enum FeedError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The document has no content at all.
    case empty
    /// The bytes are not XML, even with libxml2's recovery; `reason` is libxml2's first error.
    case notXML(reason: String)
    /// Well-formed enough, but the root element is not `rss`, `rdf:RDF` or Atom `feed` (an HTML page, say).
    case notAFeed(rootElement: String)
    /// Only absolute `http` and `https` URLs may be fetched.
    case invalidURL(String)
    /// The server answered with an error status (≥ 400).
    case httpStatus(Int, url: String)
    /// The request never got an answer: DNS, refused connection, TLS, timeout, cancellation.
    case network(url: String, reason: String)
    /// The body is larger than the fetcher accepts.
    case tooLarge(url: String, limit: Int)

    public var description: String {
        switch self {
        case .empty:
            return "The feed is empty."
        case .notXML(let reason):
            return "The document is not XML: \(reason)"
        case .notAFeed(let root):
            return "The document is not a podcast feed (its root element is <\(root)>, not <rss> or <feed>)."
        case .invalidURL(let url):
            return "Not a feed URL: \(url) (only http and https are supported)."
        case .httpStatus(let status, let url):
            return "HTTP \(status) from \(url)"
        case .network(let url, let reason):
            return "Could not reach \(url): \(reason)"
        case .tooLarge(let url, let limit):
            return "The feed at \(url) is larger than \(limit / 1_048_576) MB."
        }
    }

    public var errorDescription: String? { description }
}
