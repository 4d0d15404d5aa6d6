import FoundationEssentials

/// The episode loaded in the player, as clients are told about it.
public struct NowPlaying: Codable, Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var podcast: String
    public var podcastID: Int64
    public var artwork: String?
    public var duration: Double

    public init(id: Int64, title: String, podcast: String, podcastID: Int64, artwork: String?, duration: Double) {
        self.id = id; self.title = title; self.podcast = podcast; self.podcastID = podcastID
        self.artwork = artwork; self.duration = duration
    }

    public init(_ episode: Episode) {
        self.init(id: episode.id, title: episode.title, podcast: episode.podcastTitle,
                  podcastID: episode.podcastID, artwork: episode.artworkURL, duration: episode.duration)
    }

    enum CodingKeys: String, CodingKey { case id, title, podcast, podcastID = "podcastId", artwork, duration }
}
