import Foundation

/// A subscribed show, as the library stores it and the API sends it.
public struct Podcast: Codable, Sendable, Equatable, Identifiable {
    public var id: Int64
    public var feedURL: String
    public var title: String
    public var author: String
    public var summary: String
    public var artworkURL: String?
    public var link: String?
    /// How many episodes the library holds for it (filled by list queries).
    public var episodeCount: Int

    public init(id: Int64, feedURL: String, title: String, author: String = "", summary: String = "",
                artworkURL: String? = nil, link: String? = nil, episodeCount: Int = 0) {
        self.id = id; self.feedURL = feedURL; self.title = title; self.author = author
        self.summary = summary; self.artworkURL = artworkURL; self.link = link
        self.episodeCount = episodeCount
    }

    enum CodingKeys: String, CodingKey {
        case id, feedURL = "feedUrl", title, author, summary, artworkURL = "artwork", link, episodeCount
    }
}
