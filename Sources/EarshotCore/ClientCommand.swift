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
    /// Changes listener preferences (`PlaybackSettings`: played margin, skip intervals); kept in the library.
    case settings(PlaybackSettings.Change)
    /// Sets (or with nil clears) the speed a podcast's episodes start at.
    case podcastSpeed(podcast: Int64, rate: Double?)
    /// Sets the sleep timer (replacing one already set).
    case sleep(SleepTimer.Request)
    /// Adds seconds to the sleep timer.
    case sleepExtend(seconds: Double)
    case sleepCancel
    /// A `playlist.*` command (named playlists).
    case playlist(PlaylistCommand)
    /// Seeks to a chapter of the merged list (`PlaybackState.chapters`), by index.
    case chapter(index: Int)
    /// Next chapter; previous restarts the chapter when more than 3 s in (`ChapterNavigation`).
    case chapterNext, chapterPrevious
    /// A `download` / `download.*` command: carried out by the download manager, not the engine.
    case download(DownloadCommand)
    /// Plays through one of `PlaybackState.outputs` (by name; "auto": the system's), remembered.
    case output(device: String)

    /// Speeds a listener may choose; pitch is kept at all of them.
    public static let rateRange: ClosedRange<Double> = PlaybackSpeed.range
    /// Volumes a listener may choose, in percent: above 100 amplifies (mpv's volume-max).
    public static let volumeRange: ClosedRange<Double> = 0...130

    /// Only a played margin: what `earshot serve --played-margin` sends.
    public static func settings(playedMargin: Double) -> ClientCommand { .settings(.init(playedMargin: playedMargin)) }
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
        if let download = try DownloadCommand.parse(name: name, fields: fields) { return .download(download) }
        if let control = try parseControl(name: name, fields: fields) { return control }
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
        case "chapter": return .chapter(index: try index("index"))
        case "chapter.next": return .chapterNext
        case "output":
            guard let device = fields["device"]?.string, !device.isEmpty, device.utf8.count <= 1000 else {
                throw CommandError("\"output\" needs a device name \"device\" (one of state.outputs)")
            }
            return .output(device: device)
        case "chapter.previous": return .chapterPrevious
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
        case "mute":
            guard let on = fields["on"]?.bool else { throw CommandError("\"mute\" needs a boolean \"on\"") }
            return .mute(on)
        default:
            throw CommandError("unknown command \"\(name)\"")
        }
    }
}
