import EarshotCore
import FoundationEssentials

/// One item while it is being read: everything optional, resolved into a `FeedItem` at its end
/// (`ItemDraft+Finish.swift`).
struct ItemDraft {
    /// An Atom `<entry>`: its `<id>` is never a link.
    let isAtom: Bool
    /// Whether raw values are kept for `asWritten`.
    let keepsSource: Bool

    var title: String?
    var writtenTitle: String?
    /// The show notes' sources, chosen as podcastparser chooses them (see `storeNotes`): the plain-text
    /// description and the HTML one, each raw; Atom's `<summary>` is the last resort.
    var notes: NotesBuffers
    /// The HTML notes when they are read where they stand in the document (`storeNotes(_:inDocument:)`),
    /// not copied into `notes.html`: only while the item is read and finished in that same read.
    var htmlInDocument: InDocument?
    var hasPlain = false
    var hasHTML = false
    var hasAtomSummary = false
    var atomSummaryIsHTML = false
    /// The `type` of the Atom `<content>` or `<summary>` whose text comes next.
    var atomTextType = "text"

    var guid: String?
    var guidIsPermaLink = false
    var duration = 0.0
    /// RSS `pubDate` wins over `dc:date` and Atom's `published`, which win over `updated`.
    var pubDate: Date?
    var otherDate: Date?
    var updated: Date?
    var link: String?
    /// The first of the most playable enclosures (see `playability`; every enclosure is in
    /// `details.enclosures`, in document order), and how playable it is: 0 when there is none.
    var media: FeedEnclosure?
    var mediaPlayability = 0
    var image: String?
    var thumbnail: String?
    var details = EpisodeDetails()
    /// Elements read in two steps (attributes first, text at their end).
    var pendingPerson: FeedPerson?
    var pendingSoundbite: FeedSoundbite?
    var pendingAlternate: FeedAlternateEnclosure?

    /// The raw show notes of one item, in buffers the next item reuses (show notes are most of a feed's
    /// bytes: copying them into fresh arrays per item kept the allocator busy).
    struct NotesBuffers {
        var plain: [UInt8] = []
        var html: [UInt8] = []
        var atomSummary: [UInt8] = []
    }

    /// A view of the document being read. Unchecked: a draft crosses threads only on a taped parse's
    /// `FinishingLine`, and a tape copies the text it replays, so no draft there holds one (`add` asserts it).
    struct InDocument: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
    }

    init(isAtom: Bool, keepsSource: Bool, reusing buffers: NotesBuffers) {
        self.isAtom = isAtom
        self.keepsSource = keepsSource
        notes = buffers
    }

    mutating func store(_ field: TextField, _ text: UnsafeBufferPointer<UInt8>, baseURL: URL) {
        switch field {
        case .itemTitle:
            title = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
            if keepsSource { writtenTitle = String(decoding: text, as: UTF8.self) }
        case .itemDescription, .itemSummary, .itemMediaDescription, .itemContent, .itemAtomContent:
            var copy = Array(text)  // the walk hands these over with `storeNotes` instead
            storeNotes(field, taking: &copy)
        case .itemAtomSummary:
            Self.replace(&notes.atomSummary, with: text)
            hasAtomSummary = true
            atomSummaryIsHTML = atomTextType != "text"
        case .itemGuid: guid = FeedValues.trimmed(bytes: text)
        case .itemDuration: duration = FeedValues.duration(bytes: text)
        case .itemPubDate: pubDate = FeedValues.date(bytes: text) ?? pubDate
        case .itemDate, .itemPublished: otherDate = otherDate ?? FeedValues.date(bytes: text)
        case .itemUpdated: updated = updated ?? FeedValues.date(bytes: text)
        case .itemLink: link = link ?? FeedValues.resolve(bytes: text, against: baseURL)
        case .itemSubtitle: details.subtitle = FeedValues.squashedWhitespace(bytes: text)
        case .itemAuthor: details.author = FeedValues.squashedWhitespace(bytes: text)
        case .itemExplicit: details.explicit = FeedValues.flag(bytes: text) ?? details.explicit
        case .itemBlock: details.block = FeedValues.flag(bytes: text) == true
        case .itemSeason: details.season = FeedValues.integer(bytes: text, minimum: 0) ?? details.season
        case .itemPodcastSeason: details.season = details.season ?? FeedValues.integer(bytes: text, minimum: 0)
        case .itemEpisode: details.number = FeedValues.integer(bytes: text, minimum: 1) ?? details.number
        case .itemPodcastEpisode: details.number = details.number ?? FeedValues.integer(bytes: text, minimum: 1)
        case .itemEpisodeType:
            details.type = FeedValues.keyword(bytes: text, in: ["full", "trailer", "bonus"]) ?? details.type
        case .itemPerson:
            FeedBuilder.addPerson(&pendingPerson, named: text, to: &details.persons)
        case .itemSoundbite:
            if var soundbite = pendingSoundbite.take() {
                soundbite.title = FeedValues.squashedWhitespace(bytes: text)
                details.soundbites.append(soundbite)
            }
        default:
            break
        }
    }

    /// Keeps show-notes text the way podcastparser sorts it, so `asWritten` and `rawHTML` match its
    /// `description` and `description_html`:
    /// - `content:encoded` (and Atom HTML `<content>`) is the HTML, whatever came before;
    /// - `itunes:summary`, `media:description` and Atom text `<content>` are the plain text, whatever came before;
    /// - an RSS `<description>` is the HTML if it looks like HTML and none is known yet, else the plain
    ///   text if none is known yet.
    /// A plain text that turns out to be HTML moves over at the end (`finish`).
    ///
    /// The text is taken over: `text` gets the buffer it replaces (or keeps its bytes when not taken).
    mutating func storeNotes(_ field: TextField, taking text: inout [UInt8]) {
        switch text.withUnsafeBufferPointer({ place(of: field, $0) }) {
        case .html?:
            swap(&notes.html, &text)
            htmlInDocument = nil
            hasHTML = true
        case .plain?:
            swap(&notes.plain, &text)
            hasPlain = true
        case nil:
            break
        }
    }

    /// `storeNotes(_:taking:)` for text that stays in the document until this item ends
    /// (`FeedWalk.characters(inDocument:)`): HTML is kept as a view of it, the rest copied.
    mutating func storeNotes(_ field: TextField, inDocument text: UnsafeBufferPointer<UInt8>) {
        switch place(of: field, text) {
        case .html?:
            htmlInDocument = InDocument(bytes: text)
            hasHTML = true
        case .plain?:
            Self.replace(&notes.plain, with: text)
            hasPlain = true
        case nil:
            break
        }
    }

    private enum NotesPlace { case html, plain }

    /// Where show-notes text of `field` goes, as `storeNotes` says, or nil: nowhere.
    private func place(of field: TextField, _ text: UnsafeBufferPointer<UInt8>) -> NotesPlace? {
        switch field {
        case .itemContent:
            return !text.isBlank || !hasHTML ? .html : nil
        case .itemAtomContent where atomTextType != "text":
            return .html
        case .itemSummary, .itemMediaDescription, .itemAtomContent:
            return !text.isBlank || !hasPlain ? .plain : nil
        case .itemDescription:
            if FeedValues.looksLikeHTML(text) { return hasHTML ? nil : .html }
            return !hasPlain || notes.plain.withUnsafeBufferPointer(\.isBlank) ? .plain : nil
        default:
            return nil
        }
    }

    private static func replace(_ buffer: inout [UInt8], with text: UnsafeBufferPointer<UInt8>) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: text)
    }
}
