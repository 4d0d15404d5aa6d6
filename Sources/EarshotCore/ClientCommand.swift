import FoundationEssentials

/// What a client may ask of the player, decoded from a WebSocket frame.
/// The wire names are in docs/protocol.md; unknown names are an error, not ignored.
public enum ClientCommand: Sendable, Equatable {
    case play(episode: Int64)
    case pause, resume, toggle, stop
    case seek(to: Double)
    case skip(by: Double)
    case rate(Double)
    case volume(Double)
    case mute(Bool)
    /// Keep-alive: answered with `ack`, changes nothing.
    case ping
    case queueAdd(episode: Int64, at: PlayQueue.Placement)
    case queueRemove(episode: Int64)
    case queueMove(from: Int, to: Int)
    case queueClear
    case next, previous
    case shuffle(Bool)
    case repeatMode(RepeatMode)
    /// Marks an episode played (from the top next time) or unplayed, by hand.
    case mark(episode: Int64, played: Bool)
    /// Changes a listener preference (`PlaybackSettings`); kept in the library.
    case settings(playedMargin: Double)
    /// A `playlist.*` command (named playlists).
    case playlist(PlaylistCommand)

    /// Speeds a listener may choose; pitch is kept at all of them.
    public static let rateRange: ClosedRange<Double> = 0.5...3
}

/// A frame that could not become a command, with what to tell the client.
public struct CommandError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension ClientCommand {
    /// Decodes `{"id": any, "cmd": NAME, ...args}`. Returns the id (echoed in the reply, as raw
    /// JSON so any type survives) together with the command or the reason it is not one.
    public static func decode(_ text: String) -> (id: JSONValue, result: Result<ClientCommand, CommandError>) {
        guard let fields = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            return (.null, .failure(CommandError("malformed JSON")))
        }
        guard case .object(let object) = fields else {
            return (.null, .failure(CommandError("a command must be a JSON object")))
        }
        let id = object["id"] ?? .null
        guard let name = object["cmd"]?.string else {
            return (id, .failure(CommandError("missing \"cmd\"")))
        }
        do throws(CommandError) {
            return (id, .success(try parse(name: name, fields: object)))
        } catch {
            return (id, .failure(error))
        }
    }

    private static func parse(name: String, fields: [String: JSONValue]) throws(CommandError) -> ClientCommand {
        func number(_ key: String) throws(CommandError) -> Double {
            guard let value = fields[key]?.number, value.isFinite
            else { throw CommandError("\"\(name)\" needs a number \"\(key)\"") }
            return value
        }
        func episode() throws(CommandError) -> Int64 {
            let id = try number("episode")
            guard id == id.rounded(), id > 0, id < 9e15 else { throw CommandError("\"\(name)\" needs an episode id") }
            return Int64(id)
        }
        func index(_ key: String) throws(CommandError) -> Int {
            let value = try number(key)
            guard value == value.rounded(), value >= 0, value < 1e9 else { throw CommandError("\"\(name)\" needs a position \"\(key)\" ≥ 0") }
            return Int(value)
        }
        if name.hasPrefix("playlist.") { return .playlist(try PlaylistCommand.parse(name: name, fields: fields)) }
        switch name {
        case "play": return .play(episode: try episode())
        case "queue.add":
            let at = fields["at"]?.string ?? "end"
            guard let placement = PlayQueue.Placement(rawValue: at) else { throw CommandError("\"at\" must be \"end\" or \"next\"") }
            return .queueAdd(episode: try episode(), at: placement)
        case "queue.remove": return .queueRemove(episode: try episode())
        case "queue.move": return .queueMove(from: try index("from"), to: try index("to"))
        case "queue.clear": return .queueClear
        case "mark":
            guard let played = fields["played"]?.bool else { throw CommandError("\"mark\" needs a boolean \"played\"") }
            return .mark(episode: try episode(), played: played)
        case "settings":
            let margin = try number("playedMargin")
            let range = PlaybackSettings.playedMarginRange
            guard range.contains(margin) else {
                throw CommandError("playedMargin must be between \(Int(range.lowerBound)) and \(Int(range.upperBound)) seconds")
            }
            return .settings(playedMargin: margin)
        case "next": return .next
        case "previous": return .previous
        case "shuffle":
            guard let on = fields["on"]?.bool else { throw CommandError("\"shuffle\" needs a boolean \"on\"") }
            return .shuffle(on)
        case "repeat":
            guard let mode = fields["mode"]?.string.flatMap(RepeatMode.init(rawValue:)) else {
                throw CommandError("\"repeat\" needs \"mode\": \"off\", \"one\" or \"all\"")
            }
            return .repeatMode(mode)
        case "pause": return .pause
        case "resume": return .resume
        case "toggle": return .toggle
        case "stop": return .stop
        case "ping": return .ping
        case "seek":
            let to = try number("to")
            guard to >= 0 else { throw CommandError("\"seek\" needs \"to\" ≥ 0") }
            return .seek(to: to)
        case "skip": return .skip(by: try number("by"))
        case "rate":
            let value = try number("value")
            guard rateRange.contains(value) else { throw CommandError("rate must be between 0.5 and 3") }
            return .rate(value)
        case "volume":
            let value = try number("value")
            guard (0...100).contains(value) else { throw CommandError("volume must be between 0 and 100") }
            return .volume(value)
        case "mute":
            guard let on = fields["on"]?.bool else { throw CommandError("\"mute\" needs a boolean \"on\"") }
            return .mute(on)
        default:
            throw CommandError("unknown command \"\(name)\"")
        }
    }
}
