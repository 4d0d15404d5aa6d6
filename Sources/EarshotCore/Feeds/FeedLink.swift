import FoundationEssentials

/// A link a feed names for a podcast or episode (`podcast:funding`, `atom:link`): its address and its words.
public struct FeedLink: Codable, Sendable, Equatable {
    public var url: String
    public var title: String
    public init(url: String, title: String = "") { self.url = url; self.title = title }
}
