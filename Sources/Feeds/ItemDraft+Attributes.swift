import EarshotCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

extension ItemDraft {
    mutating func store(_ field: AttributeField, attribute: (StaticString) -> String?, baseURL: URL) {
        switch field {
        case .enclosure:
            addEnclosure(url: attribute("url"), type: attribute("type"), length: attribute("length"),
                         medium: nil, baseURL: baseURL)
        case .mediaContent:
            addEnclosure(url: attribute("url"), type: attribute("type"), length: attribute("fileSize"),
                         medium: attribute("medium"), baseURL: baseURL)
        case .mediaThumbnail:
            if thumbnail == nil, let url = attribute("url") { thumbnail = FeedValues.resolve(url, against: baseURL) }
        case .itemImage:
            if image == nil, let href = attribute("href") { image = FeedValues.resolve(href, against: baseURL) }
        case .itemLink:
            storeLink(attribute, baseURL: baseURL)
        case .guid:
            // RSS: a guid is a link unless it says otherwise.
            guidIsPermaLink = !isAtom
                && (attribute("isPermaLink")?.trimmingASCIIWhitespace().asciiLowercased() ?? "true") == "true"
        case .atomContentType, .atomSummaryType:
            atomTextType = attribute("type")?.trimmingASCIIWhitespace().asciiLowercased() ?? "text"
        case .itemPerson:
            pendingPerson = FeedBuilder.person(attribute, baseURL: baseURL)
        case .podcastChapters:
            if let url = attribute("url").flatMap({ FeedValues.resolve($0, against: baseURL) }) {
                details.chaptersURL = url
                details.chaptersType = attribute("type").map { $0.trimmingASCIIWhitespace() }
            }
        case .transcript:
            if let url = attribute("url").flatMap({ FeedValues.resolve($0, against: baseURL) }) {
                details.transcripts.append(FeedTranscript(
                    url: url, type: attribute("type")?.trimmingASCIIWhitespace() ?? "",
                    language: attribute("language").map { $0.trimmingASCIIWhitespace() }.flatMap(nonEmpty),
                    rel: attribute("rel").map { $0.trimmingASCIIWhitespace() }.flatMap(nonEmpty)))
            }
        case .soundbite:
            if let start = attribute("startTime").flatMap(FeedValues.seconds),
               let length = attribute("duration").flatMap(FeedValues.seconds) {
                pendingSoundbite = FeedSoundbite(start: start, duration: length)
            }
        case .alternateEnclosure:
            storeAlternate(attribute)
        case .source:
            if let uri = attribute("uri").flatMap({ FeedValues.resolve($0, against: baseURL) }) {
                pendingAlternate?.sources.append(uri)
            }
        default:  // .pscChapter is read by `storeChapter(_:)`, which the walk calls
            break
        }
    }

    /// A Podlove Simple Chapter (`psc:chapter`). Both `start` and `title` are required by the format; a
    /// chapter without either is skipped; an empty `href` or `image` is none. Its attributes are read in
    /// one pass (freakshow's 629 chapters made 2,500 lookups, each going over every attribute and making
    /// a `String`), the start from its bytes, and only the values kept are made text.
    mutating func storeChapter(_ source: some FeedElementSource) {
        var start, title, href, image: UnsafeBufferPointer<UInt8>?
        source.forEachUnprefixedAttribute { name, value in
            // The first of a name counts, as a lookup's would (a well-formed start tag has each once).
            if start == nil, Self.spells(name, "start") { start = value }
            else if title == nil, Self.spells(name, "title") { title = value }
            else if href == nil, Self.spells(name, "href") { href = value }
            else if image == nil, Self.spells(name, "image") { image = value }
        }
        guard let start, let title else { return }
        // An `&` in a start makes it no time either way (`&#38;` as handed over, `&` as text): read as is.
        let text = { (value: UnsafeBufferPointer<UInt8>) in XMLEventStream.Element.attributeValue(value) }
        details.chapters.append(FeedChapter(start: FeedValues.duration(bytes: start), title: text(title),
                                            href: href.flatMap { $0.isEmpty ? nil : text($0) },
                                            image: image.flatMap { $0.isEmpty ? nil : text($0) }))
    }

    @inline(__always)
    private static func spells(_ name: UnsafeBufferPointer<UInt8>, _ expected: StaticString) -> Bool {
        name.count == expected.utf8CodeUnitCount && memcmp(name.baseAddress!, expected.utf8Start, name.count) == 0
    }

    /// The end of a `podcast:alternateEnclosure`: kept when it gave at least one source.
    mutating func endAlternate() {
        if let alternate = pendingAlternate.take(), !alternate.sources.isEmpty {
            details.alternateEnclosures.append(alternate)
        }
    }

    private mutating func storeAlternate(_ attribute: (StaticString) -> String?) {
        guard let type = attribute("type")?.trimmingASCIIWhitespace(), !type.isEmpty else {
            pendingAlternate = nil
            return
        }
        pendingAlternate = FeedAlternateEnclosure(
            type: type, length: FeedValues.length(attribute("length")),
            bitrate: attribute("bitrate").flatMap { Double($0.trimmingASCIIWhitespace()) },
            title: attribute("title").map { $0.trimmingASCIIWhitespace() }.flatMap(nonEmpty))
    }

    /// Atom `<link>` (in an entry or as `atom:link` in an RSS item): an enclosure, a payment link or the
    /// episode's web page (an `alternate` HTML link; Atom's default type for a link is HTML here).
    private mutating func storeLink(_ attribute: (StaticString) -> String?, baseURL: URL) {
        let rel = attribute("rel")?.trimmingASCIIWhitespace().asciiLowercased() ?? "alternate"
        switch rel {
        case "enclosure":
            addEnclosure(url: attribute("href"), type: attribute("type"), length: attribute("length"),
                         medium: nil, baseURL: baseURL)
        case "payment":
            if details.paymentURL == nil {
                details.paymentURL = attribute("href").flatMap { FeedValues.resolve($0, against: baseURL) }
            }
        case "alternate", "self":
            let type = attribute("type")?.trimmingASCIIWhitespace().asciiLowercased() ?? "text/html"
            if link == nil, type == "text/html", let href = attribute("href") {
                link = FeedValues.resolve(href, against: baseURL)
            }
        default:
            break
        }
    }

    private mutating func addEnclosure(url: String?, type: String?, length: String?, medium: String?,
                                       baseURL: URL) {
        guard let url, let resolved = FeedValues.resolve(url, against: baseURL) else { return }
        let type = type?.trimmingASCIIWhitespace() ?? ""
        let enclosure = FeedEnclosure(url: resolved, type: type, length: FeedValues.length(length))
        enclosures.append((enclosure, Self.playability(type: type, medium: medium)))
    }

    /// How likely an enclosure is the episode itself: 2 for audio or video, 1 for a type that does not
    /// say (empty, `application/octet-stream`, a playlist), 0 for what no player plays (images, text,
    /// documents, Flash, torrents).
    static func playability(type: String, medium: String?) -> Int {
        let type = type.asciiLowercased()
        let medium = medium?.trimmingASCIIWhitespace().asciiLowercased() ?? ""
        if type.hasPrefix("audio/") || type.hasPrefix("video/") || medium == "audio" || medium == "video" {
            return 2
        }
        if type.hasPrefix("image/") || type.hasPrefix("text/") || ["image", "document", "executable"].contains(medium) {
            return 0
        }
        let unplayable = ["application/x-shockwave-flash", "application/pdf", "application/x-bittorrent",
                          "application/json", "application/xml", "application/epub+zip"]
        return unplayable.contains(type) ? 0 : 1
    }
}
