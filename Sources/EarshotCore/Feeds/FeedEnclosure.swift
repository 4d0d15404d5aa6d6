import FoundationEssentials

/// An enclosure as the feed writes it: address, MIME type, length.
public struct FeedEnclosure: Codable, Sendable, Equatable {
    public var url: String
    public var type: String
    /// Bytes; -1 when the feed does not say.
    public var length: Int64
    public init(url: String, type: String = "", length: Int64 = -1) { self.url = url; self.type = type; self.length = length }
}
