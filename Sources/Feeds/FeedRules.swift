/// Where the parser stands in the document. An element means something only in its scope:
/// `title` under `channel` names the podcast, under `item` an episode, under `image` nothing we keep.
enum FeedScope: UInt8, CaseIterable {
    case document, rss, rdf, channel, channelImage, owner, redirect, item, mediaGroup
    case atomFeed, atomAuthor, entry
    /// Inside an element no rule knows, or one whose text is being collected: no rule matches here.
    case ignored
}

/// A text value the parser collects, named for where it ends up.
enum TextField: UInt8 {
    case channelTitle, channelLink, channelDescription, channelSummary, channelSubtitle
    case channelAuthor, channelManagingEditor, channelCreator, channelOwnerName, channelAtomAuthor
    case channelImageURL, channelLogo, channelIcon, channelNewFeedURL
    case itemTitle, itemDescription, itemSummary, itemMediaDescription, itemContent
    case itemGuid, itemDuration, itemPubDate, itemDate, itemPublished, itemUpdated, itemLink

    /// Show-notes fields: an XHTML element nested in them (rather than escaped) is kept as a tag, so its
    /// paragraph and line breaks survive into the plain text.
    var holdsHTML: Bool {
        switch self {
        case .channelDescription, .channelSummary, .itemDescription, .itemSummary, .itemMediaDescription,
             .itemContent:
            return true
        default:
            return false
        }
    }
}

/// A value carried in attributes rather than text.
enum AttributeField: UInt8 {
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
}

/// What an element does, given its scope.
enum FeedAction {
    /// A container: its children are matched in the new scope.
    case enter(FeedScope)
    /// Collect the element's text (all of it, nested elements included) into a field.
    case text(TextField)
    /// Read the element's attributes.
    case attributes(AttributeField)
}

/// The declarative table, in the spirit of podcastparser's `MAPPING`: (scope, element) → action.
/// Everything the parser understands is listed here and nowhere else.
enum FeedRules {
    private static let rules: [(FeedScope, FeedElement, FeedAction)] = [
        // Roots: anything else is not a feed.
        (.document, .rss, .enter(.rss)),
        (.document, .rdfRoot, .enter(.rdf)),
        (.document, .atomFeed, .enter(.atomFeed)),
        (.rss, .channel, .enter(.channel)),
        (.rdf, .channel, .enter(.channel)),
        (.rdf, .item, .enter(.item)),  // RSS 1.0 puts items beside the channel

        // RSS channel
        (.channel, .title, .text(.channelTitle)),
        (.channel, .link, .text(.channelLink)),
        (.channel, .description, .text(.channelDescription)),
        (.channel, .itunesSummary, .text(.channelSummary)),
        (.channel, .itunesSubtitle, .text(.channelSubtitle)),
        (.channel, .itunesAuthor, .text(.channelAuthor)),
        (.channel, .managingEditor, .text(.channelManagingEditor)),
        (.channel, .dcCreator, .text(.channelCreator)),
        (.channel, .itunesOwner, .enter(.owner)),
        (.owner, .itunesName, .text(.channelOwnerName)),
        (.channel, .itunesImage, .attributes(.channelImage)),
        (.channel, .image, .enter(.channelImage)),
        (.channelImage, .url, .text(.channelImageURL)),
        (.channel, .itunesNewFeedURL, .text(.channelNewFeedURL)),
        (.channel, .redirect, .enter(.redirect)),
        (.redirect, .newLocation, .text(.channelNewFeedURL)),
        (.channel, .atomLink, .attributes(.channelLink)),
        (.channel, .item, .enter(.item)),

        // RSS item
        (.item, .title, .text(.itemTitle)),
        (.item, .description, .text(.itemDescription)),
        (.item, .itunesSummary, .text(.itemSummary)),
        (.item, .mediaDescription, .text(.itemMediaDescription)),
        (.item, .contentEncoded, .text(.itemContent)),
        (.item, .guid, .text(.itemGuid)),
        (.item, .itunesDuration, .text(.itemDuration)),
        (.item, .pubDate, .text(.itemPubDate)),
        (.item, .dcDate, .text(.itemDate)),
        (.item, .link, .text(.itemLink)),
        (.item, .enclosure, .attributes(.enclosure)),
        (.item, .mediaContent, .attributes(.mediaContent)),
        (.item, .mediaThumbnail, .attributes(.mediaThumbnail)),
        (.item, .mediaGroup, .enter(.mediaGroup)),
        (.item, .itunesImage, .attributes(.itemImage)),
        (.item, .atomLink, .attributes(.itemLink)),
        (.mediaGroup, .mediaContent, .attributes(.mediaContent)),
        (.mediaGroup, .mediaThumbnail, .attributes(.mediaThumbnail)),
        (.mediaGroup, .mediaDescription, .text(.itemMediaDescription)),

        // Atom feed
        (.atomFeed, .atomTitle, .text(.channelTitle)),
        (.atomFeed, .atomSubtitle, .text(.channelDescription)),
        (.atomFeed, .atomLink, .attributes(.channelLink)),
        (.atomFeed, .atomLogo, .text(.channelLogo)),
        (.atomFeed, .atomIcon, .text(.channelIcon)),
        (.atomFeed, .atomAuthor, .enter(.atomAuthor)),
        (.atomAuthor, .atomName, .text(.channelAtomAuthor)),
        (.atomFeed, .itunesAuthor, .text(.channelAuthor)),
        (.atomFeed, .itunesSummary, .text(.channelSummary)),
        (.atomFeed, .itunesImage, .attributes(.channelImage)),
        (.atomFeed, .itunesNewFeedURL, .text(.channelNewFeedURL)),
        (.atomFeed, .atomEntry, .enter(.entry)),

        // Atom entry
        (.entry, .atomID, .text(.itemGuid)),
        (.entry, .atomTitle, .text(.itemTitle)),
        (.entry, .atomSummary, .text(.itemDescription)),
        (.entry, .atomContent, .text(.itemContent)),
        (.entry, .contentEncoded, .text(.itemContent)),
        (.entry, .atomPublished, .text(.itemPublished)),
        (.entry, .atomUpdated, .text(.itemUpdated)),
        (.entry, .atomLink, .attributes(.itemLink)),
        (.entry, .itunesDuration, .text(.itemDuration)),
        (.entry, .itunesSummary, .text(.itemSummary)),
        (.entry, .itunesImage, .attributes(.itemImage)),
        (.entry, .mediaGroup, .enter(.mediaGroup)),
        (.entry, .mediaContent, .attributes(.mediaContent)),
        (.entry, .mediaThumbnail, .attributes(.mediaThumbnail)),
    ]

    /// The rules laid out as a flat array indexed by scope and element: one load per element in the hot loop.
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
