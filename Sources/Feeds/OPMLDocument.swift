import FoundationEssentials

/// What an OPML subscription list holds, as `OPMLParser` reads it: the feeds worth subscribing to,
/// in document order, de-duplicated, and the addresses it had to turn down.
public struct OPMLDocument: Sendable, Equatable {
    /// The head's `<title>`, trimmed; nil when absent or blank.
    public var title: String?
    /// Every distinct http/https feed, first occurrence first.
    public var feeds: [OPMLFeed]
    /// Outlines whose `xmlUrl` is not an http or https address: reported, never subscribed.
    public var rejected: [OPMLRejectedFeed]
    /// How many outlines repeated an address already listed (after normalization).
    public var duplicates: Int

    public init(title: String? = nil, feeds: [OPMLFeed] = [], rejected: [OPMLRejectedFeed] = [], duplicates: Int = 0) {
        self.title = title; self.feeds = feeds; self.rejected = rejected; self.duplicates = duplicates
    }

    /// Distinct feed addresses the file names, usable or not (`feeds` + `rejected`).
    public var found: Int { feeds.count + rejected.count }
}

/// One feed outline: an `xmlUrl`, with the name the exporting app showed for it.
public struct OPMLFeed: Sendable, Equatable {
    /// The feed's address, normalized by `OPMLParser.normalizedURL` (trimmed, scheme and host lower-cased).
    public var url: String
    /// `title`, else `text`, trimmed; nil when both are missing or blank.
    public var title: String?
    /// The show's web page (`htmlUrl`), when the outline names one.
    public var htmlURL: String?

    public init(url: String, title: String? = nil, htmlURL: String? = nil) {
        self.url = url; self.title = title; self.htmlURL = htmlURL
    }
}

/// An outline whose `xmlUrl` cannot be subscribed to, and why.
public struct OPMLRejectedFeed: Sendable, Equatable {
    public var url: String
    public var reason: String

    public init(url: String, reason: String) {
        self.url = url; self.reason = reason
    }
}

/// Why a file is not an OPML subscription list. Each `description` is a sentence a user can act on.
public enum OPMLError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No bytes, or only whitespace.
    case empty
    /// libxml2 could not read the bytes as well-formed XML; `reason` is its first error.
    case notXML(reason: String)
    /// Well-formed XML whose root element is not `<opml>` (an HTML page, an RSS feed).
    case notOPML(rootElement: String)
    /// An `<opml>` root without a `<body>`, so it lists nothing.
    case noBody

    public var description: String {
        switch self {
        case .empty:
            return "The file is empty: it is not an OPML subscription list."
        case .notXML(let reason):
            return "The file is not an OPML subscription list: it is not well-formed XML (\(reason))."
        case .notOPML(let root):
            return "The file is not an OPML subscription list: its root element is <\(root)>, not <opml>."
        case .noBody:
            return "The file is not an OPML subscription list: its <opml> element has no <body>."
        }
    }

    public var errorDescription: String? { description }
}
