import FoundationEssentials

/// What library search found (`GET /api/search`): podcasts by title and author, and episodes by
/// title, notes or a word said in their transcript, each with a snippet of what matched.
public struct SearchResults: Sendable, Equatable, Encodable {
    public var podcasts: [PodcastHit]
    public var episodes: [EpisodeHit]

    public init(podcasts: [PodcastHit] = [], episodes: [EpisodeHit] = []) {
        self.podcasts = podcasts; self.episodes = episodes
    }

    public struct PodcastHit: Sendable, Equatable, Encodable {
        public var podcast: Podcast
        public var snippet: SearchSnippet
        public init(podcast: Podcast, snippet: SearchSnippet) { self.podcast = podcast; self.snippet = snippet }
    }

    public struct EpisodeHit: Sendable, Equatable, Encodable {
        /// Where the words were found.
        public enum Field: String, Sendable, Equatable, Encodable { case title, notes, transcript }
        public var episode: Episode
        public var field: Field
        public var snippet: SearchSnippet
        /// Seconds into the episode where the transcript says it (nil elsewhere, and for
        /// transcripts without times).
        public var at: Double?

        public init(episode: Episode, field: Field, snippet: SearchSnippet, at: Double? = nil) {
            self.episode = episode; self.field = field; self.snippet = snippet; self.at = at
        }

        enum CodingKeys: String, CodingKey { case episode, field = "in", snippet, at }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(episode, forKey: .episode)
            try container.encode(field, forKey: .field)
            try container.encode(snippet, forKey: .snippet)
            try container.encode(at, forKey: .at) // null, not absent
        }
    }
}
