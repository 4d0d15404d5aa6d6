/// One podcast a directory found, as `GET /api/directory/search` sends it.
public struct DirectoryResult: Sendable, Equatable, Codable {
    public var title: String
    public var author: String
    /// The RSS address to subscribe to (http or https: results without one are dropped).
    public var feedUrl: String
    public var artwork: String?
    public var episodeCount: Int?
    public var genres: [String]
    /// Whether the library holds this feed already (set by the server, not the directory).
    public var subscribed: Bool

    public init(title: String, author: String, feedUrl: String, artwork: String? = nil, episodeCount: Int? = nil,
                genres: [String] = [], subscribed: Bool = false) {
        self.title = title; self.author = author; self.feedUrl = feedUrl; self.artwork = artwork
        self.episodeCount = episodeCount; self.genres = genres; self.subscribed = subscribed
    }
}
