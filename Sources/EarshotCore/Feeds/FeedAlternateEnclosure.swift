import FoundationEssentials

/// `podcast:alternateEnclosure` with its `podcast:source` URLs.
public struct FeedAlternateEnclosure: Codable, Sendable, Equatable {
    public var type: String
    public var length: Int64
    public var bitrate: Double?
    public var title: String?
    public var sources: [String]
    public init(type: String, length: Int64 = -1, bitrate: Double? = nil, title: String? = nil, sources: [String] = []) {
        self.type = type; self.length = length; self.bitrate = bitrate; self.title = title; self.sources = sources
    }
}
