import EarshotCore
import Foundation

/// One item while it is being read: everything optional, resolved into a `FeedItem` at its end.
struct ItemDraft {
    struct Enclosure {
        var url: String
        var type: String
        var length: Int64
    }

    var title: String?
    var description: [UInt8]?
    var summary: [UInt8]?
    var mediaDescription: [UInt8]?
    var content: [UInt8]?
    var guid: String?
    var duration = 0.0
    /// RSS `pubDate` wins over `dc:date` and Atom's `published`, which win over `updated`.
    var pubDate: Date?
    var otherDate: Date?
    var updated: Date?
    var link: String?
    var enclosure: Enclosure?
    var atomEnclosure: Enclosure?
    var mediaEnclosure: Enclosure?
    var image: String?
    var thumbnail: String?

    /// False for show notes that can no longer be chosen (a higher-priority one is already here), so the
    /// parser need not collect their text: content:encoded is usually the largest thing in a feed.
    func wants(_ field: TextField) -> Bool {
        switch field {
        case .itemSummary: return !Self.hasText(description)
        case .itemMediaDescription: return !Self.hasText(description) && !Self.hasText(summary)
        case .itemContent:
            return !Self.hasText(description) && !Self.hasText(summary) && !Self.hasText(mediaDescription)
        default: return true
        }
    }

    private static func hasText(_ bytes: [UInt8]?) -> Bool {
        guard let bytes else { return false }
        return !bytes.withUnsafeBufferPointer(\.isBlank)
    }

    mutating func store(_ field: TextField, _ text: UnsafeBufferPointer<UInt8>, baseURL: URL) {
        switch field {
        case .itemTitle: title = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
        case .itemDescription: description = Array(text)
        case .itemSummary: summary = Array(text)
        case .itemMediaDescription: mediaDescription = Array(text)
        case .itemContent: content = Array(text)
        case .itemGuid: guid = FeedValues.trimmed(bytes: text)
        case .itemDuration: duration = FeedValues.duration(bytes: text)
        case .itemPubDate: pubDate = FeedValues.date(bytes: text) ?? pubDate
        case .itemDate, .itemPublished: otherDate = otherDate ?? FeedValues.date(bytes: text)
        case .itemUpdated: updated = updated ?? FeedValues.date(bytes: text)
        case .itemLink: link = link ?? FeedValues.resolve(bytes: text, against: baseURL)
        default: break
        }
    }

    mutating func store(_ field: AttributeField, attribute: (String) -> String?, baseURL: URL) {
        switch field {
        case .enclosure:
            // The first enclosure is the episode; later ones are usually other formats of it.
            guard enclosure == nil else { return }
            enclosure = Self.enclosure(url: attribute("url"), type: attribute("type"),
                                       length: attribute("length"), baseURL: baseURL)
        case .mediaContent:
            guard mediaEnclosure == nil else { return }
            // Only playable media: a YouTube feed's Flash player or an image is no episode.
            let type = attribute("type") ?? ""
            let medium = attribute("medium") ?? ""
            let playable = type.hasPrefix("audio/") || type.hasPrefix("video/") || medium == "audio"
                || medium == "video" || (type.isEmpty && medium.isEmpty)
            guard playable else { return }
            mediaEnclosure = Self.enclosure(url: attribute("url"), type: type, length: attribute("fileSize"),
                                            baseURL: baseURL)
        case .mediaThumbnail:
            if thumbnail == nil, let url = attribute("url") { thumbnail = FeedValues.resolve(url, against: baseURL) }
        case .itemImage:
            if image == nil, let href = attribute("href") { image = FeedValues.resolve(href, against: baseURL) }
        case .itemLink:
            let rel = attribute("rel") ?? "alternate"
            if rel == "enclosure" {
                guard atomEnclosure == nil else { return }
                atomEnclosure = Self.enclosure(url: attribute("href"), type: attribute("type"),
                                               length: attribute("length"), baseURL: baseURL)
            } else if rel == "alternate", link == nil, (attribute("type") ?? "text/html").contains("html"),
                      let href = attribute("href") {
                link = FeedValues.resolve(href, against: baseURL)
            }
        default:
            break
        }
    }

    static func enclosure(url: String?, type: String?, length: String?, baseURL: URL) -> Enclosure? {
        guard let url, let resolved = FeedValues.resolve(url, against: baseURL) else { return nil }
        let size = length.flatMap { Int64($0.trimmingASCIIWhitespace()) } ?? 0
        return Enclosure(url: resolved, type: type?.trimmingASCIIWhitespace() ?? "", length: max(size, 0))
    }

    /// The finished item, or nil when it has nothing to play (unless such items are wanted) or nothing
    /// that could identify it across refreshes (no guid, enclosure or link).
    func finish(keepingItemsWithoutEnclosure keepAll: Bool) -> FeedItem? {
        let media = enclosure ?? atomEnclosure ?? mediaEnclosure
        if media == nil, !keepAll { return nil }
        guard let identity = guid ?? media?.url ?? link else { return nil }
        let notes = [description, summary, mediaDescription, content].lazy.compactMap { $0 }
            .first { !$0.withUnsafeBufferPointer(\.isBlank) }
        let url = media?.url ?? ""
        return FeedItem(
            guid: identity,
            title: title ?? Self.fileName(url) ?? "",
            summary: notes.map { bytes in bytes.withUnsafeBufferPointer { FeedValues.plainText(bytes: $0) } } ?? "",
            enclosureURL: url,
            enclosureType: media?.type ?? "",
            enclosureLength: media?.length ?? 0,
            duration: duration,
            published: pubDate ?? otherDate ?? updated,
            artworkURL: image ?? thumbnail,
            link: link)
    }

    /// "episode-12" for ".../episode-12.mp3?x=1": a title of last resort, as podcastparser does.
    static func fileName(_ url: String) -> String? {
        guard !url.isEmpty, let parsed = URL(string: url) else { return nil }
        let name = parsed.deletingPathExtension().lastPathComponent
        return name.isEmpty || name == "/" ? nil : name
    }
}

extension Optional {
    /// The value, leaving nil behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
