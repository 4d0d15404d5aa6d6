extension FeedRules {
    /// Everything the parser understands is listed here and nowhere else.
    static let rules: [(FeedScope, FeedElement, FeedAction)] = rootRules + channelRules + itemRules + atomRules

    private static let rootRules: [(FeedScope, FeedElement, FeedAction)] = [
        // Roots: anything else is not a feed.
        (.document, .rss, .enterReading(.rss, .base)),
        (.document, .rdfRoot, .enter(.rdf)),
        (.document, .atomFeed, .enterReading(.atomFeed, .base)),
        (.rss, .channel, .enterReading(.channel, .base)),
        (.rss, .redirect, .enter(.redirect)),
        (.rdf, .channel, .enter(.channel)),
        (.rdf, .item, .enter(.item)),  // RSS 1.0 puts items beside the channel
    ]

    private static let channelRules: [(FeedScope, FeedElement, FeedAction)] = [
        (.channel, .title, .text(.channelTitle)),
        (.channel, .link, .text(.channelLink)),
        (.channel, .description, .text(.channelDescription)),
        (.channel, .language, .text(.channelLanguage)),
        (.channel, .generator, .text(.channelGenerator)),
        (.channel, .managingEditor, .text(.channelManagingEditor)),
        (.channel, .dcCreator, .text(.channelCreator)),
        (.channel, .image, .enter(.channelImage)),
        (.channelImage, .url, .text(.channelImageURL)),
        (.channel, .redirect, .enter(.redirect)),
        (.redirect, .newLocation, .text(.channelNewFeedURL)),
        (.channel, .atomLink, .attributes(.channelLink)),
        (.channel, .item, .enter(.item)),
        // iTunes
        (.channel, .itunesSummary, .text(.channelSummary)),
        (.channel, .itunesSubtitle, .text(.channelSubtitle)),
        (.channel, .itunesAuthor, .text(.channelAuthor)),
        (.channel, .itunesOwner, .enter(.owner)),
        (.owner, .itunesName, .text(.channelOwnerName)),
        (.owner, .itunesEmail, .text(.channelOwnerEmail)),
        (.channel, .itunesImage, .attributes(.channelImage)),
        (.channel, .itunesNewFeedURL, .text(.channelNewFeedURL)),
        (.channel, .itunesExplicit, .text(.channelExplicit)),
        (.channel, .itunesType, .text(.channelType)),
        (.channel, .itunesBlock, .text(.channelBlock)),
        (.channel, .itunesKeywords, .text(.channelKeywords)),
        (.channel, .itunesCategory, .enterReading(.category, .category)),
        (.category, .itunesCategory, .enterReading(.subcategory, .subcategory)),
        (.subcategory, .itunesCategory, .attributes(.subcategory)),
        // Podcasting 2.0
        (.channel, .podcastLocked, .text(.channelLocked)),
        (.channel, .podcastGUID, .text(.channelPodcastGUID)),
        (.channel, .podcastFunding, .attributesAndText(.funding, .channelFunding)),
        (.channel, .podcastPerson, .attributesAndText(.channelPerson, .channelPerson)),
    ]

    private static let itemRules: [(FeedScope, FeedElement, FeedAction)] = [
        (.item, .title, .text(.itemTitle)),
        (.item, .description, .text(.itemDescription)),
        (.item, .contentEncoded, .text(.itemContent)),
        (.item, .guid, .attributesAndText(.guid, .itemGuid)),
        (.item, .pubDate, .text(.itemPubDate)),
        (.item, .dcDate, .text(.itemDate)),
        (.item, .link, .text(.itemLink)),
        (.item, .enclosure, .attributes(.enclosure)),
        (.item, .atomLink, .attributes(.itemLink)),
        // iTunes
        (.item, .itunesSummary, .text(.itemSummary)),
        (.item, .itunesSubtitle, .text(.itemSubtitle)),
        (.item, .itunesAuthor, .text(.itemAuthor)),
        (.item, .itunesDuration, .text(.itemDuration)),
        (.item, .itunesImage, .attributes(.itemImage)),
        (.item, .itunesExplicit, .text(.itemExplicit)),
        (.item, .itunesBlock, .text(.itemBlock)),
        (.item, .itunesSeason, .text(.itemSeason)),
        (.item, .itunesEpisode, .text(.itemEpisode)),
        (.item, .itunesEpisodeType, .text(.itemEpisodeType)),
        // Media RSS
        (.item, .mediaDescription, .text(.itemMediaDescription)),
        (.item, .mediaContent, .attributes(.mediaContent)),
        (.item, .mediaThumbnail, .attributes(.mediaThumbnail)),
        (.item, .mediaGroup, .enter(.mediaGroup)),
        (.mediaGroup, .mediaContent, .attributes(.mediaContent)),
        (.mediaGroup, .mediaThumbnail, .attributes(.mediaThumbnail)),
        (.mediaGroup, .mediaDescription, .text(.itemMediaDescription)),
        // Podcasting 2.0
        (.item, .podcastChapters, .attributes(.podcastChapters)),
        (.item, .podcastTranscript, .attributes(.transcript)),
        (.item, .podcastPerson, .attributesAndText(.itemPerson, .itemPerson)),
        (.item, .podcastSoundbite, .attributesAndText(.soundbite, .itemSoundbite)),
        (.item, .podcastSeason, .text(.itemPodcastSeason)),
        (.item, .podcastEpisode, .text(.itemPodcastEpisode)),
        (.item, .podcastAlternateEnclosure, .enterReading(.alternateEnclosure, .alternateEnclosure)),
        (.alternateEnclosure, .podcastSource, .attributes(.source)),
        // Podlove Simple Chapters
        (.item, .pscChapters, .enter(.pscChapters)),
        (.pscChapters, .pscChapter, .attributes(.pscChapter)),
    ]

    private static let atomRules: [(FeedScope, FeedElement, FeedAction)] = [
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
        (.atomFeed, .itunesExplicit, .text(.channelExplicit)),
        (.atomFeed, .itunesType, .text(.channelType)),
        (.atomFeed, .atomEntry, .enter(.entry)),

        (.entry, .atomID, .text(.itemGuid)),
        (.entry, .atomTitle, .text(.itemTitle)),
        (.entry, .atomSummary, .attributesAndText(.atomSummaryType, .itemAtomSummary)),
        (.entry, .atomContent, .attributesAndText(.atomContentType, .itemAtomContent)),
        (.entry, .contentEncoded, .text(.itemContent)),
        (.entry, .atomPublished, .text(.itemPublished)),
        (.entry, .atomUpdated, .text(.itemUpdated)),
        (.entry, .atomLink, .attributes(.itemLink)),
        (.entry, .itunesDuration, .text(.itemDuration)),
        (.entry, .itunesSummary, .text(.itemSummary)),
        (.entry, .itunesImage, .attributes(.itemImage)),
        (.entry, .itunesExplicit, .text(.itemExplicit)),
        (.entry, .mediaGroup, .enter(.mediaGroup)),
        (.entry, .mediaContent, .attributes(.mediaContent)),
        (.entry, .mediaThumbnail, .attributes(.mediaThumbnail)),
        (.entry, .pscChapters, .enter(.pscChapters)),
    ]
}
