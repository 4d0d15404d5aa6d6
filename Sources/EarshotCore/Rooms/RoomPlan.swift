import FoundationEssentials

/// The JSON-RPC calls that join a room to Earshot's stream or take it off, as a pure plan over a
/// snapserver's status. Snapcast plays a stream per group: a room alone in its group just switches
/// the group's stream; a room sharing a group is first moved into the group already playing the
/// target stream, or out on its own. `Group.SetClients` does not pass a group's mute on to a client
/// it moves (Snapcast 0.26), so the room's own volume is sent again after any move.
public enum RoomPlan {
    public enum Call: Sendable, Equatable {
        case setStream(group: String, stream: String)
        case setClients(group: String, clients: [String])
        /// Sent after the moves: whichever group the room is then in plays `stream`.
        case setStreamOfGroupOf(client: String, stream: String)
        case setVolume(client: String, percent: Int, muted: Bool)
    }

    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case noSuchRoom(String)
        case noOtherStream
        public var description: String {
            switch self {
            case .noSuchRoom(let id): "no room \(id)"
            case .noOtherStream: "the snapserver has no other stream to move this room to"
            }
        }
    }

    /// Joins `room` to `stream`.
    public static func join(_ room: String, to stream: String, in status: SnapcastStatus) throws(Refusal) -> [Call] {
        try move(room, to: stream, in: status)
    }

    /// Takes `room` off `stream`: to the first other stream the server has.
    public static func leave(_ room: String, from stream: String, in status: SnapcastStatus) throws(Refusal) -> [Call] {
        guard let other = status.streams.first(where: { $0.id != stream })?.id else { throw .noOtherStream }
        guard let (group, _) = status.locate(room) else { throw .noSuchRoom(room) }
        if group.streamID != stream { return [] }
        return try move(room, to: other, in: status)
    }

    static func move(_ room: String, to stream: String, in status: SnapcastStatus) throws(Refusal) -> [Call] {
        guard let (group, client) = status.locate(room) else { throw .noSuchRoom(room) }
        if group.streamID == stream { return [] }
        let again = Call.setVolume(client: client.id, percent: client.volume, muted: client.muted)
        if let target = status.groups.first(where: { $0.streamID == stream && $0.id != group.id }) {
            return [.setClients(group: target.id, clients: target.clients.map(\.id) + [room]), again]
        }
        if group.clients.count == 1 { return [.setStream(group: group.id, stream: stream)] }
        // Out of its group on its own (Snapcast makes it a new group), then that group switches.
        return [.setClients(group: group.id, clients: group.clients.map(\.id).filter { $0 != room }),
                .setStreamOfGroupOf(client: room, stream: stream), again]
    }
}
