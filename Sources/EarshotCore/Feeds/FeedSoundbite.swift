import FoundationEssentials

/// A Podcasting 2.0 `podcast:soundbite`: a highlight of the episode, from `start` for `duration` seconds.
public struct FeedSoundbite: Codable, Sendable, Equatable {
    public var start: Double
    public var duration: Double
    public var title: String
    public init(start: Double, duration: Double, title: String = "") { self.start = start; self.duration = duration; self.title = title }
}
