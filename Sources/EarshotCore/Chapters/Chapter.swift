import FoundationEssentials

/// A chapter mark inside an episode, from whichever source `ChapterMerge` chose.
public struct Chapter: Codable, Sendable, Equatable {
    public var title: String
    /// Seconds from the start.
    public var start: Double
    /// An http(s) image for the chapter (Podcasting 2.0 `img`, Podlove `image`); absent otherwise.
    public var img: String?
    /// An http(s) link about the chapter (Podcasting 2.0 `url`, Podlove `href`); absent otherwise.
    public var url: String?
    public init(title: String, start: Double, img: String? = nil, url: String? = nil) {
        self.title = title; self.start = start; self.img = img; self.url = url
    }
}
