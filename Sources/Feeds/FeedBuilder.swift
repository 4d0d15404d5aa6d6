import EarshotCore
import Foundation

/// Collects what the rules find, field by field, and assembles `FeedContent` at the end.
///
/// Values arrive as raw bytes and are converted once, when stored; show notes are kept raw until the
/// item ends, so only the one that wins (description, else itunes:summary, else content:encoded) is
/// converted to plain text.
struct FeedBuilder {
    let baseURL: URL
    let keepsItemsWithoutEnclosure: Bool

    private var title: String?
    private var link: String?
    private var description: [UInt8]?
    private var itunesSummary: [UInt8]?
    private var subtitle: [UInt8]?
    private var itunesAuthor: String?
    private var managingEditor: String?
    private var creator: String?
    private var ownerName: String?
    private var atomAuthor: String?
    private var itunesImage: String?
    private var imageURL: String?
    private var logo: String?
    private var icon: String?
    private var newFeedURL: String?

    private(set) var items: [FeedItem] = []
    private var item: ItemDraft?

    init(baseURL: URL, keepsItemsWithoutEnclosure: Bool) {
        self.baseURL = baseURL
        self.keepsItemsWithoutEnclosure = keepsItemsWithoutEnclosure
    }

    mutating func beginItem() { item = ItemDraft() }

    mutating func endItem() {
        guard let draft = item.take(),
              let finished = draft.finish(keepingItemsWithoutEnclosure: keepsItemsWithoutEnclosure) else { return }
        items.append(finished)
    }

    /// Whether the text of `field` is still worth collecting (see `ItemDraft.wants`).
    func wants(_ field: TextField) -> Bool { item?.wants(field) ?? true }

    mutating func store(_ field: TextField, _ text: UnsafeBufferPointer<UInt8>) {
        switch field {
        case .channelTitle: title = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
        case .channelLink: link = link ?? FeedValues.resolve(bytes: text, against: baseURL)
        case .channelDescription: description = raw(text)
        case .channelSummary: itunesSummary = raw(text)
        case .channelSubtitle: subtitle = raw(text)
        case .channelAuthor: itunesAuthor = Self.personName(FeedValues.squashedWhitespace(bytes: text))
        case .channelManagingEditor: managingEditor = Self.personName(FeedValues.squashedWhitespace(bytes: text))
        case .channelCreator: creator = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
        case .channelOwnerName: ownerName = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
        case .channelAtomAuthor: atomAuthor = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
        case .channelImageURL: imageURL = FeedValues.resolve(bytes: text, against: baseURL)
        case .channelLogo: logo = FeedValues.resolve(bytes: text, against: baseURL)
        case .channelIcon: icon = FeedValues.resolve(bytes: text, against: baseURL)
        case .channelNewFeedURL: newFeedURL = FeedValues.resolve(bytes: text, against: baseURL)
        default:
            item?.store(field, text, baseURL: baseURL)
        }
    }

    mutating func store(_ field: AttributeField, attribute: (String) -> String?) {
        switch field {
        case .channelImage:
            if itunesImage == nil, let href = attribute("href") {
                itunesImage = FeedValues.resolve(href, against: baseURL)
            }
        case .channelLink:
            // Atom's alternate link is the podcast's web page; `self`, `next`, `hub` are not.
            let rel = attribute("rel") ?? "alternate"
            let type = attribute("type") ?? "text/html"
            if link == nil, rel == "alternate", type.contains("html"), let href = attribute("href") {
                link = FeedValues.resolve(href, against: baseURL)
            }
        default:
            item?.store(field, attribute: attribute, baseURL: baseURL)
        }
    }

    /// The podcast as parsed. Author and summary fall back through the places feeds put them.
    func finish() -> FeedContent {
        let summarySource = [description, itunesSummary, subtitle].lazy.compactMap { $0 }
            .first { !$0.withUnsafeBufferPointer(\.isBlank) }
        let summary = summarySource.map { bytes in bytes.withUnsafeBufferPointer { FeedValues.plainText(bytes: $0) } }
        return FeedContent(
            title: title ?? "",
            author: itunesAuthor ?? managingEditor ?? creator ?? ownerName ?? atomAuthor ?? "",
            summary: summary ?? "",
            artworkURL: itunesImage ?? imageURL ?? logo ?? icon,
            link: link,
            newFeedURL: newFeedURL,
            items: items)
    }

    private func raw(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] { Array(text) }

    /// `managingEditor` is "mail@example.com (Jane Doe)" by the RSS spec, and some `itunes:author`s copy
    /// that form (or "Jane Doe (mail@example.com)"): the name is what people read. A parenthesis next to
    /// something that is not a mail address ("The Show (Official)") is left alone.
    static func personName(_ value: String) -> String? {
        if let open = value.firstIndex(of: "("), let close = value.lastIndex(of: ")"), open < close {
            let inside = value[value.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            let outside = (value[..<open] + value[value.index(after: close)...]).trimmingCharacters(in: .whitespaces)
            if outside.contains("@"), !outside.contains(" "), !inside.isEmpty { return inside }
            if inside.contains("@"), !inside.contains(" "), !outside.isEmpty { return outside }
        }
        return nonEmpty(value)
    }
}

func nonEmpty(_ value: String) -> String? { value.isEmpty ? nil : value }
