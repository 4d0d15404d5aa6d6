/// The namespaces whose elements the parser understands. Elements are matched by namespace URI, never by
/// prefix, so `<it:duration xmlns:it="…itunes…">` is iTunes too; prefixes only count when a feed uses one
/// without declaring it (common: `itunes:` with no `xmlns:itunes`), where the prefix is all there is.
enum FeedNamespace: Sendable {
    /// RSS 2.0 (no namespace), RSS 1.0's namespace, or Userland's RSS 2.0 one.
    case rss
    case itunes, atom, content, media, dublinCore, rdf
    /// Anything else: never matches a rule.
    case other
}

/// Every element the rules know, one case per (namespace, local name). All others are `.unknown`.
enum FeedElement: UInt8, CaseIterable, Sendable {
    case unknown
    // RSS
    case rss, channel, item, title, link, description, enclosure, guid, pubDate, image, url
    case managingEditor, author, redirect, newLocation
    // RSS 1.0
    case rdfRoot
    // iTunes
    case itunesAuthor, itunesSummary, itunesSubtitle, itunesImage, itunesDuration, itunesNewFeedURL
    case itunesOwner, itunesName
    // content, Dublin Core, Media RSS
    case contentEncoded, dcCreator, dcDate
    case mediaContent, mediaGroup, mediaThumbnail, mediaDescription
    // Atom
    case atomFeed, atomEntry, atomTitle, atomLink, atomID, atomPublished, atomUpdated, atomSummary
    case atomContent, atomSubtitle, atomIcon, atomLogo, atomAuthor, atomName
}

/// Name → element tables. Only consulted once per distinct name per parse (see `NameCache`).
enum FeedVocabulary {
    static func element(namespaceURI: String?, localName: String) -> FeedElement {
        var namespace = FeedNamespace.rss
        var name = Substring(localName)
        if let namespaceURI {
            namespace = Self.namespace(uri: namespaceURI)
        } else if let colon = name.firstIndex(of: ":") {
            // An undeclared prefix: libxml2 reports the whole "itunes:duration" as the local name.
            namespace = Self.namespace(undeclaredPrefix: name[..<colon])
            name = name[name.index(after: colon)...]
        }
        return names[namespace]?[String(name)] ?? .unknown
    }

    static func namespace(uri: String) -> FeedNamespace {
        var key = Substring(uri.lowercased())
        for scheme in ["http://", "https://"] where key.hasPrefix(scheme) {
            key = key.dropFirst(scheme.count)
        }
        while key.hasSuffix("/") { key = key.dropLast() }
        switch key {
        case "", "purl.org/rss/1.0", "backend.userland.com/rss2": return .rss
        case "www.itunes.com/dtds/podcast-1.0.dtd": return .itunes
        case "www.w3.org/2005/atom", "purl.org/atom/ns#": return .atom
        case "purl.org/rss/1.0/modules/content": return .content
        case "search.yahoo.com/mrss": return .media
        case "purl.org/dc/elements/1.1": return .dublinCore
        case "www.w3.org/1999/02/22-rdf-syntax-ns#": return .rdf
        default: return .other
        }
    }

    static func namespace(undeclaredPrefix prefix: Substring) -> FeedNamespace {
        switch prefix {
        case "itunes": return .itunes
        case "atom": return .atom
        case "content": return .content
        case "media": return .media
        case "dc": return .dublinCore
        case "rdf": return .rdf
        default: return .other
        }
    }

    private static let names: [FeedNamespace: [String: FeedElement]] = [
        .rss: [
            "rss": .rss, "channel": .channel, "item": .item, "title": .title, "link": .link,
            "description": .description, "enclosure": .enclosure, "guid": .guid, "pubDate": .pubDate,
            "image": .image, "url": .url, "managingEditor": .managingEditor, "author": .author,
            "redirect": .redirect, "newLocation": .newLocation,
        ],
        .rdf: ["RDF": .rdfRoot],
        .itunes: [
            "author": .itunesAuthor, "summary": .itunesSummary, "subtitle": .itunesSubtitle,
            "image": .itunesImage, "duration": .itunesDuration, "new-feed-url": .itunesNewFeedURL,
            "owner": .itunesOwner, "name": .itunesName,
        ],
        .content: ["encoded": .contentEncoded],
        .dublinCore: ["creator": .dcCreator, "date": .dcDate],
        .media: [
            "content": .mediaContent, "group": .mediaGroup, "thumbnail": .mediaThumbnail,
            "description": .mediaDescription,
        ],
        .atom: [
            "feed": .atomFeed, "entry": .atomEntry, "title": .atomTitle, "link": .atomLink, "id": .atomID,
            "published": .atomPublished, "updated": .atomUpdated, "summary": .atomSummary,
            "content": .atomContent, "subtitle": .atomSubtitle, "icon": .atomIcon, "logo": .atomLogo,
            "author": .atomAuthor, "name": .atomName,
        ],
    ]
}
