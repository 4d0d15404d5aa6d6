import FoundationEssentials

/// A Podlove Simple Chapter (`psc:chapter`).
public struct FeedChapter: Codable, Sendable, Equatable {
    public var start: Double
    public var title: String
    public var href: String?
    public var image: String?
    public init(start: Double, title: String, href: String? = nil, image: String? = nil) {
        self.start = start; self.title = title; self.href = href; self.image = image
    }
}
