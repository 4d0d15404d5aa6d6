import EarshotCore
import FoundationEssentials

/// Collects what the rules find, field by field, and assembles `FeedContent` at the end.
///
/// Values arrive as raw bytes and are converted once, when stored; the channel's descriptions are kept
/// raw until the end, so only the one that wins is converted to plain text. Items are built by `ItemDraft`.
struct FeedBuilder {
    /// The base for relative links: the feed's URL, or the `xml:base` of the root or channel.
    private(set) var baseURL: URL
    let keepsItemsWithoutEnclosure: Bool
    /// Whether to fill `asWritten` and `rawHTML` (for `earshot parse --json`).
    let keepsSourceText: Bool

    private var title: String?
    private var link: String?
    private var description: [UInt8]?
    private var itunesSummary: [UInt8]?
    private var subtitle: [UInt8]?
    private var itunesAuthor: String?
    /// `itunes:author` before `personName`'s cleaning, for `asWritten`.
    private var writtenAuthor: String?
    private var managingEditor: String?
    private var creator: String?
    private var atomAuthor: String?
    private var itunesImage: String?
    private var imageURL: String?
    private var logo: String?
    private var icon: String?
    private var newFeedURL: String?
    var details = PodcastDetails()
    /// The `podcast:funding` or `podcast:person` whose attributes were read and whose text comes next.
    var pendingFunding: FeedLink?
    var pendingPerson: FeedPerson?

    private(set) var items: [FeedItem] = []
    var item: ItemDraft?
    /// What one item leaves for the next: show-notes buffers and the sanitizer's.
    private var spareNotes = ItemDraft.NotesBuffers()
    private var scratch = HTMLSanitizer.Scratch()
    /// The text the rules are handed is well-formed UTF-8: `XMLFastScan` checks every byte before it
    /// hands any over (libxml2, recovering, may hand over stray bytes). Notes sanitized from it then need
    /// no check of their own (`HTMLSanitizer.Scratch.inputIsValidUTF8`).
    var textIsValidUTF8: Bool {
        get { scratch.inputIsValidUTF8 }
        set { scratch.inputIsValidUTF8 = newValue }
    }
    /// A taped parse's items with long notes, finished by either of its threads (`FeedTape`); nil: each
    /// item is finished here as it ends.
    var line: FinishingLine?
    /// Takes the finished items in batches while the parse goes on (then `finish` returns none).
    var sink: (any FeedItemSink)?
    /// What the sink threw: the parse stops, and `FeedParser` throws it.
    private(set) var sinkError: (any Error)?
    /// Whether the sink was handed anything (a parse that starts again must tell it to).
    private(set) var handedToSink = false
    /// Items a sink is handed at once, at least (the last batch excepted).
    static let sinkBatch = 256

    /// What a parse makes its builder from. The parse hands this down to where its rules run and the
    /// builder is made there: a builder handed down was copied on the way (a reader that may fall back
    /// to another needs it twice), and a copy, even of an empty builder, retains each of its dozens of
    /// references (1,100 instructions, and as many to destroy it: a one-item feed's parse went from
    /// 41.4K instructions to 38.4K).
    struct Recipe {
        var baseURL: URL
        var keepsItemsWithoutEnclosure: Bool
        var keepsSourceText: Bool
        var sink: (any FeedItemSink)?
        /// `textIsValidUTF8`.
        var textIsValidUTF8 = false
    }

    init(_ recipe: Recipe) {
        baseURL = recipe.baseURL
        keepsItemsWithoutEnclosure = recipe.keepsItemsWithoutEnclosure
        keepsSourceText = recipe.keepsSourceText
        sink = recipe.sink
        textIsValidUTF8 = recipe.textIsValidUTF8
    }

    /// The recipe for the builders that read a split read's later pieces (`SplitRead`), taken at the
    /// first item: this builder's base for links as it stands there (an `xml:base` may have moved it),
    /// its choices and its text's check, without its sink (the pieces' items are handed over with the
    /// first piece's, by this builder).
    var pieceRecipe: Recipe {
        Recipe(baseURL: baseURL, keepsItemsWithoutEnclosure: keepsItemsWithoutEnclosure, keepsSourceText: keepsSourceText,
               sink: nil, textIsValidUTF8: textIsValidUTF8)
    }

    mutating func beginItem(isAtom: Bool) {
        item = ItemDraft(isAtom: isAtom, keepsSource: keepsSourceText, reusing: spareNotes)
        // A draft left on the line took its buffers along: one finished there gives some back.
        spareNotes = line?.spareBuffers() ?? ItemDraft.NotesBuffers()
    }

    mutating func endItem() {
        guard var draft = item.take() else { return }
        // A taped parse whose rules are behind: an item with long notes waits on the line, where the
        // parsing thread may finish it; those after it wait their turn there too, to keep their order.
        if let line, line.isBehind && FinishingLine.isWorthSharing(draft) || !line.isEmpty {
            line.add(draft, baseURL: baseURL)  // its buffers go with it
            // Caught up with the tape: finish what waits now, its notes still in this core's cache.
            while line.isFull || !line.isBehind, line.finishOldest(scratch: &scratch) {}
            takeFinished()
            return
        }
        defer { spareNotes = draft.notes }
        if draft.finish(keepingItemsWithoutEnclosure: keepsItemsWithoutEnclosure, baseURL: baseURL, appendingTo: &items,
                        scratch: &scratch) {
            deliverFullBatch()
        }
    }

    /// The rules' thread of a taped parse, with no segment to replay: finishes the oldest waiting
    /// item; false when none waits.
    mutating func finishWaiting() -> Bool {
        guard let line, line.finishOldest(scratch: &scratch) else { return false }
        takeFinished()
        return true
    }

    /// Appends the items of a split read's piece read on the other thread (`FeedParser+Split`).
    mutating func append(piece: [FeedItem]) {
        items += piece
    }

    /// Takes the line's items finished in order so far.
    private mutating func takeFinished() {
        guard let line else { return }
        items += line.takeReady()
        deliverFullBatch()
    }

    private mutating func deliverFullBatch() {
        if sink != nil, items.count >= Self.sinkBatch {
            deliver(items)
            items.removeAll(keepingCapacity: true)
        }
    }

    /// Hands `finished` to the sink; its first error is kept and nothing more is handed over.
    private mutating func deliver(_ finished: [FeedItem]) {
        guard let sink, sinkError == nil else { return }
        handedToSink = true
        do { try sink.take(finished) } catch { sinkError = error }
    }

    /// Moves the base for relative links to `xml:base` (itself relative to the current base).
    mutating func rebase(_ value: String) {
        if let resolved = FeedValues.resolve(value, against: baseURL), let url = URL(string: resolved) {
            baseURL = url
        }
    }

    mutating func store(_ field: TextField, _ text: UnsafeBufferPointer<UInt8>) {
        switch field {
        case .channelTitle: title = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
        case .channelLink: link = link ?? FeedValues.resolve(bytes: text, against: baseURL)
        case .channelDescription: description = Array(text)
        case .channelSummary: itunesSummary = Array(text)
        case .channelSubtitle:
            subtitle = Array(text)
            details.subtitle = FeedValues.squashedWhitespace(bytes: text)
        case .channelAuthor:
            let author = FeedValues.squashedWhitespace(bytes: text)
            itunesAuthor = Self.personName(author)
            if keepsSourceText { writtenAuthor = author }
        case .channelManagingEditor: managingEditor = Self.personName(FeedValues.squashedWhitespace(bytes: text))
        case .channelCreator: creator = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
        case .channelOwnerName: details.ownerName = FeedValues.squashedWhitespace(bytes: text)
        case .channelOwnerEmail: details.ownerEmail = FeedValues.squashedWhitespace(bytes: text)
        case .channelAtomAuthor: atomAuthor = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
        case .channelImageURL: imageURL = FeedValues.resolve(bytes: text, against: baseURL)
        case .channelLogo: logo = FeedValues.resolve(bytes: text, against: baseURL)
        case .channelIcon: icon = FeedValues.resolve(bytes: text, against: baseURL)
        case .channelNewFeedURL: newFeedURL = FeedValues.resolve(bytes: text, against: baseURL) ?? newFeedURL
        case .channelLanguage: details.language = FeedValues.squashedWhitespace(bytes: text)
        case .channelGenerator: details.generator = nonEmpty(FeedValues.squashedWhitespace(bytes: text))
        case .channelExplicit: details.explicit = FeedValues.flag(bytes: text) ?? details.explicit
        case .channelType: details.type = FeedValues.keyword(bytes: text, in: ["episodic", "serial"]) ?? details.type
        case .channelBlock: details.block = FeedValues.flag(bytes: text) == true
        case .channelKeywords: details.keywords = FeedValues.keywords(bytes: text)
        case .channelLocked: details.locked = FeedValues.flag(bytes: text) ?? details.locked
        case .channelPodcastGUID: details.podcastGUID = FeedValues.trimmed(bytes: text)
        case .channelFunding:
            if var funding = pendingFunding.take() {
                funding.title = FeedValues.squashedWhitespace(bytes: text)
                details.funding.append(funding)
            }
        case .channelPerson:
            Self.addPerson(&pendingPerson, named: text, to: &details.persons)
        default:
            item?.store(field, text, baseURL: baseURL)
        }
    }

    /// The podcast as parsed. Author and summary fall back through the places feeds put them.
    mutating func finish() -> FeedContent {
        if let line { items += line.takeReady() }  // every item is finished by now (`FeedTape.finish`)
        if sink != nil {
            if !items.isEmpty { deliver(items) }
            items = []
        }
        let summarySource = [description, itunesSummary, subtitle].lazy.compactMap { $0 }
            .first { !$0.withUnsafeBufferPointer(\.isBlank) }
        let summary = summarySource.map { bytes in bytes.withUnsafeBufferPointer { FeedValues.plainText(bytes: $0) } }
        var content = FeedContent(
            title: title ?? "",
            author: itunesAuthor ?? managingEditor ?? creator ?? nonEmpty(details.ownerName) ?? atomAuthor ?? "",
            summary: summary ?? "",
            artworkURL: FeedValues.imageAddress(itunesImage ?? imageURL ?? logo ?? icon, base: baseURL),
            link: link,
            newFeedURL: newFeedURL,
            items: [])
        // Moved, not copied: the builder is done with (a copy retained every item and person, and the
        // builder's end released them again).
        swap(&content.items, &items)
        swap(&content.details, &details)
        if keepsSourceText {
            let written = description ?? itunesSummary
            content.asWritten = FeedAsWritten(
                author: writtenAuthor,
                description: written.map { String(decoding: $0, as: UTF8.self) })
        }
        return content
    }

    mutating func setImage(_ href: String?) {
        if itunesImage == nil, let href { itunesImage = FeedValues.resolve(href, against: baseURL) }
    }

    mutating func setLink(_ href: String?) {
        if link == nil, let href { link = FeedValues.resolve(href, against: baseURL) }
    }

    /// `managingEditor` is "mail@example.com (Jane Doe)" by the RSS spec, and some `itunes:author`s copy
    /// that form (or "Jane Doe (mail@example.com)"): the name is what people read. A parenthesis next to
    /// something that is not a mail address ("The Show (Official)") is left alone.
    static func personName(_ value: String) -> String? {
        if let open = value.firstIndex(of: "("), let close = value.lastIndex(of: ")"), open < close {
            let inside = value[value.index(after: open)..<close].trimmingWhitespace()
            let outside = (value[..<open] + value[value.index(after: close)...]).trimmingWhitespace()
            if outside.contains("@"), !outside.contains(" "), !inside.isEmpty { return inside }
            if inside.contains("@"), !inside.contains(" "), !outside.isEmpty { return outside }
        }
        return nonEmpty(value)
    }
}

func nonEmpty(_ value: String) -> String? { value.isEmpty ? nil : value }

extension Array {
    /// Appends `element`, first making room for `firstRoom` when the array is empty: the lists an item
    /// or a podcast gathers (persons, chapters, enclosures) have a few elements, and grown from one a
    /// step they took an allocation each time they doubled.
    mutating func append(_ element: Element, firstRoom: Int) {
        if isEmpty { reserveCapacity(firstRoom) }
        append(element)
    }
}

extension Optional {
    /// The value, leaving nil behind: moved out (swapped), not copied and then released — an item's
    /// draft holds dozens of references, each retained and released again by a copy.
    mutating func take() -> Wrapped? {
        var taken: Wrapped? = nil
        swap(&taken, &self)
        return taken
    }
}
