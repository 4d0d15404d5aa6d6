import FoundationEssentials

/// A Podcasting 2.0 `podcast:transcript`: where the transcript is, its format and language.
public struct FeedTranscript: Codable, Sendable, Equatable {
    public var url: String
    public var type: String
    public var language: String?
    public var rel: String?
    public init(url: String, type: String, language: String? = nil, rel: String? = nil) {
        self.url = url; self.type = type; self.language = language; self.rel = rel
    }
}
