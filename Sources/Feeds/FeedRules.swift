/// Where the parser stands in the document. An element means something only in its scope:
/// `title` under `channel` names the podcast, under `item` an episode, under `image` nothing we keep.
enum FeedScope: UInt8, CaseIterable {
    case document, rss, rdf, channel, channelImage, owner, redirect, category, subcategory
    case item, mediaGroup, pscChapters, alternateEnclosure
    case atomFeed, atomAuthor, entry
    /// Inside an element no rule knows, or one whose text is being collected: no rule matches here.
    case ignored

    /// An item's scope or one within it.
    var isInItem: Bool {
        switch self {
        case .item, .entry, .mediaGroup, .pscChapters, .alternateEnclosure: return true
        default: return false
        }
    }
}

/// A text value the parser collects, named for where it ends up.
enum TextField: UInt8 {
    case channelTitle, channelLink, channelDescription, channelSummary, channelSubtitle
    case channelAuthor, channelManagingEditor, channelCreator, channelOwnerName, channelOwnerEmail
    case channelAtomAuthor, channelImageURL, channelLogo, channelIcon, channelNewFeedURL
    case channelLanguage, channelGenerator, channelExplicit, channelType, channelBlock, channelKeywords
    case channelLocked, channelPodcastGUID, channelFunding, channelPerson
    case itemTitle, itemDescription, itemSummary, itemMediaDescription, itemContent, itemAtomContent, itemAtomSummary
    case itemGuid, itemDuration, itemPubDate, itemDate, itemPublished, itemUpdated, itemLink
    case itemSubtitle, itemAuthor, itemExplicit, itemBlock, itemSeason, itemEpisode, itemEpisodeType
    case itemPodcastSeason, itemPodcastEpisode, itemPerson, itemSoundbite

    /// An item's show notes, which `ItemDraft` keeps raw (and takes over rather than copies).
    var isItemNotes: Bool {
        switch self {
        case .itemDescription, .itemSummary, .itemMediaDescription, .itemContent, .itemAtomContent: return true
        default: return false
        }
    }

    /// Show-notes fields: an XHTML element nested in them (rather than escaped) is kept as a tag, so its
    /// paragraph and line breaks survive.
    var holdsHTML: Bool {
        switch self {
        case .channelDescription, .channelSummary, .itemDescription, .itemSummary, .itemMediaDescription,
             .itemContent, .itemAtomContent, .itemAtomSummary:
            return true
        default:
            return false
        }
    }
}

/// A value carried in attributes rather than text.
enum AttributeField: UInt8 {
    /// `xml:base` on the root or the channel: the base for relative links below it.
    case base
    /// `<enclosure url length type>`
    case enclosure
    /// `<media:content url fileSize type medium>`
    case mediaContent
    /// `<media:thumbnail url>`
    case mediaThumbnail
    /// `<itunes:image href>`
    case channelImage, itemImage
    /// `<atom:link rel href type length>`
    case channelLink, itemLink
    /// `<itunes:category text>`, at the top level and nested.
    case category, subcategory
    /// `<podcast:funding url>`, `<podcast:person role group href img>`
    case funding, channelPerson, itemPerson
    /// `<podcast:chapters url type>`, `<podcast:transcript url type language rel>`
    case podcastChapters, transcript
    /// `<podcast:soundbite startTime duration>`
    case soundbite
    /// `<podcast:alternateEnclosure type length bitrate title>` and its `<podcast:source uri>`
    case alternateEnclosure, source
    /// `<psc:chapter start title href image>`
    case pscChapter
    /// `<guid isPermaLink>`
    case guid
    /// Atom `type` of `<content>` and `<summary>`: text, html or xhtml.
    case atomContentType, atomSummaryType
}

/// What an element does, given its scope.
enum FeedAction {
    /// A container: its children are matched in the new scope.
    case enter(FeedScope)
    /// A container whose attributes matter too.
    case enterReading(FeedScope, AttributeField)
    /// Collect the element's text (all of it, nested elements included) into a field.
    case text(TextField)
    /// Read the element's attributes.
    case attributes(AttributeField)
    /// Read the attributes, then collect the text (`<podcast:person role="host">Jane</podcast:person>`).
    case attributesAndText(AttributeField, TextField)

    /// Whether it begins an item (RSS) or entry (Atom).
    var entersItem: Bool {
        if case .enter(let scope) = self { return scope == .item || scope == .entry }
        return false
    }
}

/// The declarative table (`FeedRules+Table.swift`), in the spirit of podcastparser's `MAPPING`:
/// (scope, element) → action, laid out as a flat array indexed by scope and element so the hot loop
/// does one load per element.
enum FeedRules {
    private static let table: [FeedAction?] = {
        var table = [FeedAction?](repeating: nil, count: FeedScope.allCases.count * FeedElement.allCases.count)
        for (scope, element, action) in rules {
            table[Int(scope.rawValue) * FeedElement.allCases.count + Int(element.rawValue)] = action
        }
        return table
    }()

    private static let elementCount = FeedElement.allCases.count

    static func action(in scope: FeedScope, for element: FeedElement) -> FeedAction? {
        table[Int(scope.rawValue) * elementCount + Int(element.rawValue)]
    }
}
