import FoundationEssentials

/// A Snapcast client as Earshot's clients see it (`state.rooms`, `GET /api/rooms`).
public struct Room: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var online: Bool
    /// 0…100.
    public var volume: Int
    public var muted: Bool
    /// Whether it plays Earshot's stream.
    public var joined: Bool

    public init(id: String, name: String, online: Bool, volume: Int, muted: Bool, joined: Bool) {
        self.id = id; self.name = name; self.online = online; self.volume = volume; self.muted = muted; self.joined = joined
    }

    /// Every client of `status`, by name, with whether it plays `stream`.
    public static func rooms(in status: SnapcastStatus, stream: String) -> [Room] {
        status.groups.flatMap { group in
            group.clients.map { client in
                Room(id: client.id, name: client.name, online: client.connected, volume: client.volume,
                     muted: client.muted || group.muted, joined: group.streamID == stream)
            }
        }.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
    }
}

/// The output name Earshot's rooms have among `state.outputs`, and how they are described.
public enum SnapcastOutput {
    public static let name = "snapcast"
    public static let description = "Rooms"
    public static var device: AudioDevice { AudioDevice(name: name, description: description) }
}
