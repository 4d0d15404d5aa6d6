/// The namespaces whose elements the parser understands. Elements are matched by namespace URI, never by
/// prefix, so `<it:duration xmlns:it="…itunes…">` is iTunes too; prefixes only count when a feed uses one
/// without declaring it (common: `itunes:` or `podcast:` with no `xmlns:`), where the prefix is all there is.
enum FeedNamespace: Sendable {
    /// RSS 2.0 (no namespace), RSS 1.0's namespace, or Userland's RSS 2.0 one.
    case rss
    case itunes, atom, content, media, dublinCore, rdf
    /// Podcasting 2.0 (`podcast:`) and Podlove Simple Chapters (`psc:`).
    case podcast, psc
    /// Anything else: never matches a rule.
    case other
}

/// Every element the rules know, one case per (namespace, local name). All others are `.unknown`.
enum FeedElement: UInt8, CaseIterable, Sendable {
    case unknown
    // RSS
    case rss, channel, item, title, link, description, enclosure, guid, pubDate, image, url
    case managingEditor, author, redirect, newLocation, language, generator
    // RSS 1.0
    case rdfRoot
    // iTunes
    case itunesAuthor, itunesSummary, itunesSubtitle, itunesImage, itunesDuration, itunesNewFeedURL
    case itunesOwner, itunesName, itunesEmail, itunesExplicit, itunesType, itunesBlock, itunesKeywords
    case itunesCategory, itunesEpisode, itunesSeason, itunesEpisodeType
    // content, Dublin Core, Media RSS
    case contentEncoded, dcCreator, dcDate
    case mediaContent, mediaGroup, mediaThumbnail, mediaDescription
    // Podcasting 2.0
    case podcastGUID, podcastLocked, podcastFunding, podcastPerson, podcastChapters, podcastTranscript
    case podcastSoundbite, podcastSeason, podcastEpisode, podcastAlternateEnclosure, podcastSource
    // Podlove Simple Chapters
    case pscChapters, pscChapter
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
        // The namespace's official URI and the GitHub page it was first declared as.
        case "podcastindex.org/namespace/1.0", "github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md":
            return .podcast
        case "podlove.org/simple-chapters": return .psc
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
        case "podcast": return .podcast
        case "psc": return .psc
        default: return .other
        }
    }

    private static let names: [FeedNamespace: [String: FeedElement]] = [
        .rss: [
            "rss": .rss, "channel": .channel, "item": .item, "title": .title, "link": .link,
            "description": .description, "enclosure": .enclosure, "guid": .guid, "pubDate": .pubDate,
            "image": .image, "url": .url, "managingEditor": .managingEditor, "author": .author,
            "redirect": .redirect, "newLocation": .newLocation, "language": .language, "generator": .generator,
        ],
        .rdf: ["RDF": .rdfRoot],
        .itunes: [
            "author": .itunesAuthor, "summary": .itunesSummary, "subtitle": .itunesSubtitle,
            "image": .itunesImage, "duration": .itunesDuration, "new-feed-url": .itunesNewFeedURL,
            "owner": .itunesOwner, "name": .itunesName, "email": .itunesEmail, "explicit": .itunesExplicit,
            "type": .itunesType, "block": .itunesBlock, "keywords": .itunesKeywords, "category": .itunesCategory,
            "episode": .itunesEpisode, "season": .itunesSeason, "episodeType": .itunesEpisodeType,
        ],
        .content: ["encoded": .contentEncoded],
        .dublinCore: ["creator": .dcCreator, "date": .dcDate],
        .media: [
            "content": .mediaContent, "group": .mediaGroup, "thumbnail": .mediaThumbnail,
            "description": .mediaDescription,
        ],
        .podcast: [
            "guid": .podcastGUID, "locked": .podcastLocked, "funding": .podcastFunding, "person": .podcastPerson,
            "chapters": .podcastChapters, "transcript": .podcastTranscript, "soundbite": .podcastSoundbite,
            "season": .podcastSeason, "episode": .podcastEpisode, "alternateEnclosure": .podcastAlternateEnclosure,
            "source": .podcastSource,
        ],
        .psc: ["chapters": .pscChapters, "chapter": .pscChapter],
        .atom: [
            "feed": .atomFeed, "entry": .atomEntry, "title": .atomTitle, "link": .atomLink, "id": .atomID,
            "published": .atomPublished, "updated": .atomUpdated, "summary": .atomSummary,
            "content": .atomContent, "subtitle": .atomSubtitle, "icon": .atomIcon, "logo": .atomLogo,
            "author": .atomAuthor, "name": .atomName,
        ],
    ]
}
