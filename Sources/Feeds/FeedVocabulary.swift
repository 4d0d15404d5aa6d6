/// The namespaces whose elements the parser understands. Elements are matched by namespace URI, never by
/// prefix, so `<it:duration xmlns:it="…itunes…">` is iTunes too; prefixes only count when a feed uses one
/// without declaring it (common: `itunes:` or `podcast:` with no `xmlns:`), where the prefix is all there is.
enum FeedNamespace: UInt8, Sendable {
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

/// Name → element tables, looked up on a name's bytes (`PackedNameTable`, `ByteKeyTable`, built once for the process).
enum FeedVocabulary {
    static func element(namespaceURI: String?, localName: String) -> FeedElement {
        if let namespaceURI { return element(in: namespace(uri: namespaceURI), localName: localName) }
        // An undeclared prefix: libxml2 reports the whole "itunes:duration" as the local name. Looked for in
        // the bytes: nearly every name has none, and a `Character` walk cost more than the lookup.
        guard let colon = localName.utf8.firstIndex(of: UInt8(ascii: ":")) else { return element(in: .rss, localName: localName) }
        return element(in: namespace(undeclaredPrefix: localName[..<colon]),
                       localName: String(localName[localName.utf8.index(after: colon)...]))
    }

    /// The element `localName` of a namespace already known.
    static func element(in namespace: FeedNamespace, localName: String) -> FeedElement {
        var localName = localName
        return localName.withUTF8 { element(in: namespace, localName: $0) }
    }

    /// The same on the name's UTF-8 bytes, where libxml2 left them: names of up to 16 bytes (all but a
    /// few) packed into two words and found by them, longer ones in the byte table.
    static func element(in namespace: FeedNamespace, localName: UnsafeBufferPointer<UInt8>) -> FeedElement {
        if let packed = PackedNameTable<FeedElement>.pack(localName) { return element(in: namespace, packed: packed) }
        return longNameTable.value(tag: namespace.rawValue, localName) ?? .unknown
    }

    /// The same on a name of up to 16 bytes packed (`PackedNameTable.pack`), for a caller that packed
    /// it as it measured it (`NameCache`).
    @inline(__always)
    static func element(in namespace: FeedNamespace, packed: PackedNameTable<FeedElement>.Packed) -> FeedElement {
        packedNameTable.value(tag: namespace.rawValue, packed) ?? .unknown
    }

    /// The namespace a URI names, as feeds write it: any case, `http://` or `https://` or none, trailing
    /// slashes.
    static func namespace(uri: String) -> FeedNamespace {
        var uri = uri
        return uri.withUTF8 { namespace(uri: $0) }
    }

    /// The same on the URI's bytes: ASCII case folded into a scratch copy, then one table lookup
    /// (`lowercased()`, `hasPrefix` and a `switch` over strings cost 2,600 instructions a name).
    static func namespace(uri bytes: UnsafeBufferPointer<UInt8>) -> FeedNamespace {
        // A feed's few URIs are classified once a parse each: a small feed's set-up, so no arrays here.
        var start = 0
        if Self.hasPrefixIgnoringCase(bytes, "http://", at: 0) {
            start = 7
            if Self.hasPrefixIgnoringCase(bytes, "https://", at: start) { start += 8 }  // both, as before
        } else if Self.hasPrefixIgnoringCase(bytes, "https://", at: 0) {
            start = 8
        }
        var end = bytes.count
        while end > start, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - start) { key in
            for offset in 0..<(end - start) {
                let byte = bytes[start + offset]
                key[offset] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            return uriTable.value(tag: 0, UnsafeBufferPointer(key)) ?? .other
        }
    }

    private static func hasPrefixIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString, at start: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count - start >= count else { return false }
        let expected = prefix.utf8Start
        for offset in 0..<count {
            let byte = bytes[start + offset]
            guard (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected[offset] else { return false }
        }
        return true
    }

    private static let uriTable = ByteKeyTable(uris.map { (tag: 0, key: $0.key, value: $0.value) })
    /// The vocabulary's names under their namespaces: those of up to 16 bytes packed, the few longer ones
    /// (`alternateEnclosure`) by their bytes.
    private static let packedNameTable = PackedNameTable(nameEntries.filter { $0.key.utf8.count <= 16 })
    private static let longNameTable = ByteKeyTable(nameEntries.filter { $0.key.utf8.count > 16 })
    private static var nameEntries: [(tag: UInt8, key: String, value: FeedElement)] {
        names.flatMap { namespace, names in names.map { (tag: namespace.rawValue, key: $0.key, value: $0.value) } }
    }

    /// Known namespaces by URI, lowercased, without scheme and trailing slashes.
    private static let uris: [String: FeedNamespace] = [
        "": .rss, "purl.org/rss/1.0": .rss, "backend.userland.com/rss2": .rss,
        "www.itunes.com/dtds/podcast-1.0.dtd": .itunes,
        "www.w3.org/2005/atom": .atom, "purl.org/atom/ns#": .atom,
        "purl.org/rss/1.0/modules/content": .content,
        "search.yahoo.com/mrss": .media,
        "purl.org/dc/elements/1.1": .dublinCore,
        "www.w3.org/1999/02/22-rdf-syntax-ns#": .rdf,
        // The namespace's official URI and the GitHub page it was first declared as.
        "podcastindex.org/namespace/1.0": .podcast, "github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": .podcast,
        "podlove.org/simple-chapters": .psc,
    ]

    /// The namespace a feed means by a prefix it never declared (only the usual ones count).
    static func namespace(undeclaredPrefix prefix: Substring) -> FeedNamespace {
        var prefix = String(prefix)
        return prefix.withUTF8 { namespace(undeclaredPrefix: $0) }
    }

    static func namespace(undeclaredPrefix prefix: UnsafeBufferPointer<UInt8>) -> FeedNamespace {
        prefixTable.value(tag: 0, prefix) ?? .other
    }

    private static let prefixTable = ByteKeyTable<FeedNamespace>([
        (0, "itunes", .itunes), (0, "atom", .atom), (0, "content", .content), (0, "media", .media),
        (0, "dc", .dublinCore), (0, "rdf", .rdf), (0, "podcast", .podcast), (0, "psc", .psc),
    ])

    /// The vocabulary as written (the byte table is built from it; tests hold the two together).
    static let names: [FeedNamespace: [String: FeedElement]] = [
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
