import EarshotCore
import FoundationEssentials

extension ItemDraft {
    mutating func store(_ field: AttributeField, attributes source: some FeedElementSource, baseURL: URL) {
        switch field {
        case .enclosure:
            let found = source.attributes("url", "type", "length")
            addEnclosure(url: found.first.map(AttributeValues.text), type: found.second.map(AttributeValues.text),
                         length: found.third.map(AttributeValues.text), medium: nil, baseURL: baseURL)
        case .mediaContent:
            let found = source.attributes("url", "type", "fileSize", "medium")
            addEnclosure(url: found.first.map(AttributeValues.text), type: found.second.map(AttributeValues.text),
                         length: found.third.map(AttributeValues.text), medium: found.fourth.map(AttributeValues.text),
                         baseURL: baseURL)
        case .mediaThumbnail:
            if thumbnail == nil, let url = source.attribute("url") { thumbnail = FeedValues.resolve(url, against: baseURL) }
        case .itemImage:
            if image == nil, let href = source.attribute("href") { image = FeedValues.resolve(href, against: baseURL) }
        case .itemLink:
            storeLink(source, baseURL: baseURL)
        case .guid:
            // RSS: a guid is a link unless it says otherwise.
            guidIsPermaLink = !isAtom
                && (source.attribute("isPermaLink")?.trimmingASCIIWhitespace().asciiLowercased() ?? "true") == "true"
        case .atomContentType, .atomSummaryType:
            atomTextType = source.attribute("type")?.trimmingASCIIWhitespace().asciiLowercased() ?? "text"
        case .itemPerson:
            FeedBuilder.person(source, baseURL: baseURL, into: &pendingPerson)
        case .podcastChapters:
            if let url = source.attribute("url").flatMap({ FeedValues.resolve($0, against: baseURL) }) {
                details.chaptersURL = url
                details.chaptersType = source.attribute("type").map { $0.trimmingASCIIWhitespace() }
            }
        case .transcript:
            if let url = source.attribute("url").flatMap({ FeedValues.resolve($0, against: baseURL) }) {
                details.transcripts.append(FeedTranscript(
                    url: url, type: source.attribute("type")?.trimmingASCIIWhitespace() ?? "",
                    language: source.attribute("language").map { $0.trimmingASCIIWhitespace() }.flatMap(nonEmpty),
                    rel: source.attribute("rel").map { $0.trimmingASCIIWhitespace() }.flatMap(nonEmpty)))
            }
        case .soundbite:
            if let start = source.attribute("startTime").flatMap(FeedValues.seconds),
               let length = source.attribute("duration").flatMap(FeedValues.seconds) {
                pendingSoundbite = FeedSoundbite(start: start, duration: length)
            }
        case .alternateEnclosure:
            storeAlternate(source)
        case .source:
            if let uri = source.attribute("uri").flatMap({ FeedValues.resolve($0, against: baseURL) }) {
                pendingAlternate?.sources.append(uri)
            }
        case .pscChapter:
            storeChapter(source.attributes("start", "title", "href", "image"))
        default:
            break
        }
    }

    /// A Podlove Simple Chapter (`psc:chapter`) from its start, title, href and image. Both start and
    /// title are required by the format; a chapter without either is skipped; an empty href or image is
    /// none. The start is read from its bytes (an `&` makes it no time either way).
    private mutating func storeChapter(_ found: AttributeValues) {
        guard let start = found.first, let title = found.second else { return }
        // Chapter lists run to a dozen or two.
        details.chapters.append(FeedChapter(start: FeedValues.duration(bytes: start), title: AttributeValues.text(title),
                                            href: found.third.flatMap { $0.isEmpty ? nil : AttributeValues.text($0) },
                                            image: found.fourth.flatMap { $0.isEmpty ? nil : AttributeValues.text($0) }),
                                firstRoom: 16)
    }

    /// The end of a `podcast:alternateEnclosure`: kept when it gave at least one source.
    mutating func endAlternate() {
        if let alternate = pendingAlternate.take(), !alternate.sources.isEmpty {
            details.alternateEnclosures.append(alternate)
        }
    }

    private mutating func storeAlternate(_ source: some FeedElementSource) {
        guard let type = source.attribute("type")?.trimmingASCIIWhitespace(), !type.isEmpty else {
            pendingAlternate = nil
            return
        }
        pendingAlternate = FeedAlternateEnclosure(
            type: type, length: FeedValues.length(source.attribute("length")),
            bitrate: source.attribute("bitrate").flatMap { Double($0.trimmingASCIIWhitespace()) },
            title: source.attribute("title").map { $0.trimmingASCIIWhitespace() }.flatMap(nonEmpty))
    }

    /// Atom `<link>` (in an entry or as `atom:link` in an RSS item): an enclosure, a payment link or the
    /// episode's web page (an `alternate` HTML link; Atom's default type for a link is HTML here).
    private mutating func storeLink(_ source: some FeedElementSource, baseURL: URL) {
        let rel = source.attribute("rel")?.trimmingASCIIWhitespace().asciiLowercased() ?? "alternate"
        switch rel {
        case "enclosure":
            addEnclosure(url: source.attribute("href"), type: source.attribute("type"), length: source.attribute("length"),
                         medium: nil, baseURL: baseURL)
        case "payment":
            if details.paymentURL == nil {
                details.paymentURL = source.attribute("href").flatMap { FeedValues.resolve($0, against: baseURL) }
            }
        case "alternate", "self":
            let type = source.attribute("type")?.trimmingASCIIWhitespace().asciiLowercased() ?? "text/html"
            if link == nil, type == "text/html", let href = source.attribute("href") {
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
        let playability = Self.playability(type: type, medium: medium)
        if playability > mediaPlayability { (media, mediaPlayability) = (enclosure, playability) }
        // Most items have one or two (an enclosure and a media:content): one allocation for both.
        details.enclosures.append(enclosure, firstRoom: 2)
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
