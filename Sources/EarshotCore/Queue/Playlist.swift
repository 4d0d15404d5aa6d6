import FoundationEssentials

/// A named playlist as clients see it: its name, when it was made and last changed, and the
/// episodes it shows, in order (episodes of unsubscribed podcasts are kept but not shown).
public struct Playlist: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var name: String
    public var created: Date
    public var updated: Date
    /// The episodes shown, in playlist order.
    public var episodeIDs: [Int64]
    /// The sum of the shown episodes' durations, in seconds (unknown durations count 0).
    public var duration: Double

    public init(id: Int64, name: String, created: Date, updated: Date, episodeIDs: [Int64] = [], duration: Double = 0) {
        self.id = id; self.name = name; self.created = created; self.updated = updated
        self.episodeIDs = episodeIDs; self.duration = duration
    }
}

extension Playlist: Codable {
    enum CodingKeys: String, CodingKey {
        case id, name, created, updated, episodeIDs = "episodeIds", count, duration
    }

    /// Dates are Unix seconds; `count` is written for convenience and ignored when read.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name)
        try c.encode(created.timeIntervalSince1970, forKey: .created)
        try c.encode(updated.timeIntervalSince1970, forKey: .updated)
        try c.encode(episodeIDs, forKey: .episodeIDs); try c.encode(episodeIDs.count, forKey: .count)
        try c.encode(duration, forKey: .duration)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int64.self, forKey: .id); name = try c.decode(String.self, forKey: .name)
        created = Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .created))
        updated = Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .updated))
        episodeIDs = try c.decodeIfPresent([Int64].self, forKey: .episodeIDs) ?? []
        duration = try c.decodeIfPresent(Double.self, forKey: .duration) ?? 0
    }
}
