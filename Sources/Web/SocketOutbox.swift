import EarshotCore

/// What waits to be written to one WebSocket client. A slow client gets the latest state,
/// not a growing backlog: a new `state` replaces any unsent `state` or `time`, a new
/// `time` replaces an unsent `time`, a new `downloads` an unsent `downloads`. Replies (`ack`,
/// `error`) and `library` are all kept, up to a bound.
struct SocketOutbox: Sendable {
    enum Kind: Sendable { case state, time, downloads, other }

    struct Message: Sendable {
        var kind: Kind
        var text: String
    }

    private(set) var messages: [Message] = []
    /// Past this many unsent replies the client is not reading: the oldest are dropped.
    static let maxOther = 256

    var isEmpty: Bool { messages.isEmpty }

    mutating func push(_ message: Message) {
        switch message.kind {
        case .state: messages.removeAll { $0.kind == .state || $0.kind == .time }
        case .time: messages.removeAll { $0.kind == .time }
        case .downloads: messages.removeAll { $0.kind == .downloads }
        case .other:
            if messages.count(where: { $0.kind == .other }) >= Self.maxOther,
               let oldest = messages.firstIndex(where: { $0.kind == .other }) {
                messages.remove(at: oldest)
            }
        }
        messages.append(message)
    }

    mutating func pop() -> Message? {
        messages.isEmpty ? nil : messages.removeFirst()
    }
}

extension SocketOutbox.Message {
    init(_ message: ServerMessage) {
        switch message {
        case .state: kind = .state
        case .time: kind = .time
        case .downloads: kind = .downloads
        case .ack, .error, .library, .refresh, .playlists, .devices: kind = .other
        }
        text = message.encoded()
    }
}
