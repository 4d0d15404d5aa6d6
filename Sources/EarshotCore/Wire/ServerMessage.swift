import FoundationEssentials

/// What a client is told over the WebSocket (docs/protocol.md): the one list of what the server
/// sends. Every frame is one of these, encoded here; nothing else builds a frame's JSON.
public enum ServerMessage: Sendable, Equatable {
    case state(seq: UInt64, PlaybackState)
    case time(seq: UInt64, position: Double, duration: Double, rate: Double, paused: Bool)
    case ack(id: JSONValue)
    case error(id: JSONValue, message: String)
    /// Lists changed (subscriptions, episodes, played marks): refetch them.
    case library(version: UInt64)
    /// Every download, the batch's summary and the settings.
    case downloads(DownloadsMessage)
    /// The feed refresh's progress.
    case refresh(RefreshStatus)
    /// Named playlists changed: refetch `/api/playlists`.
    case playlists
    /// Paired devices or the pairing code changed (a phone paired, one was removed or last seen
    /// later, a code opened or closed): the host's Devices view refetches instead of polling.
    case devices

    /// The `type` of each message on the wire.
    public enum Kind: String, Sendable, CaseIterable {
        case state, time, ack, error, library, downloads, refresh, playlists, devices
    }

    public var kind: Kind {
        switch self {
        case .state: .state
        case .time: .time
        case .ack: .ack
        case .error: .error
        case .library: .library
        case .downloads: .downloads
        case .refresh: .refresh
        case .playlists: .playlists
        case .devices: .devices
        }
    }

    /// The JSON text frame.
    public func encoded() -> String {
        switch self {
        case .state(let seq, let s):
            return Self.encode(StateWire(seq: seq, s))
        case .time(let seq, let position, let duration, let rate, let paused):
            return Self.encode(TimeWire(seq: seq, position: position, duration: duration, rate: rate, paused: paused))
        case .ack(let id):
            return Self.encode(["type": .string("ack"), "id": id] as [String: JSONValue])
        case .error(let id, let message):
            return Self.encode(["type": .string("error"), "id": id, "message": .string(message)] as [String: JSONValue])
        case .library(let version):
            return Self.encode(["type": .string("library"), "version": .number(Double(version))] as [String: JSONValue])
        case .downloads(let message):
            return Self.encode(message.wire)
        case .refresh(let status):
            return Self.encode(RefreshWire(status))
        case .playlists:
            return Self.encode(["type": .string("playlists")] as [String: JSONValue])
        case .devices:
            return Self.encode(["type": .string("devices")] as [String: JSONValue])
        }
    }

    /// Sorted keys, slashes as they are. The wire types encode only strings, numbers, booleans,
    /// arrays and objects; a value that fails anyway (a NaN position) becomes an `error` frame.
    private static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            Log.error("wire", "could not encode a \(T.self): \(error)")
            return #"{"id":null,"message":"internal error","type":"error"}"#
        }
    }
}

/// The `refresh` message: the status with its type.
private struct RefreshWire: Encodable {
    var type = "refresh"
    var running: Bool, total: Int, done: Int, failed: Int, current: [String]

    init(_ s: RefreshStatus) {
        running = s.running; total = s.total; done = s.done; failed = s.failed; current = s.current
    }
}

/// The `state` message's shape on the wire.
private struct StateWire: Encodable {
    var type = "state"
    var seq: UInt64
    var episode: NowPlaying?
    var paused: Bool
    var position: Double
    var duration: Double
    var rate: Double
    var volume: Double
    var muted: Bool
    var buffering: Bool
    var queue: [Int64] = []
    var shuffle = false
    var `repeat` = "off"
    var sleep: SleepStatus?
    var settings: PlaybackSettings
    var chapters: [Chapter]
    var chapter: Int
    var error: String?
    var outputs: [AudioDevice]
    var output: String
    var notice: String?
    var resumeOffer: String?
    var failures: [String: String]
    var rooms: [Room]
    var roomsNotice: String?
    var skipped: SkipNotice?
    var levelGain: Double?
    var alarm: AlarmStatus?

    init(seq: UInt64, _ s: PlaybackState) {
        self.seq = seq; episode = s.episode; paused = s.paused; position = s.position
        duration = s.duration; rate = s.rate; volume = s.volume; muted = s.muted
        buffering = s.buffering; chapters = s.chapters; chapter = s.chapter; error = s.error
        queue = s.queue; shuffle = s.shuffle; self.repeat = s.repeatMode.rawValue
        settings = s.settings; sleep = s.sleep
        outputs = s.outputs; output = s.output; notice = s.notice; resumeOffer = s.resumeOffer
        failures = Dictionary(uniqueKeysWithValues: s.failures.map { (String($0.key), $0.value) })
        rooms = s.rooms; roomsNotice = s.roomsNotice; skipped = s.skipped; levelGain = s.levelGain; alarm = s.alarm
    }

    func encode(to encoder: Encoder) throws {
        enum K: String, CodingKey {
            case type, seq, episode, paused, position, duration, rate, volume, muted, buffering
            case queue, shuffle, `repeat`, sleep, settings, chapters, chapter, error
            case outputs, output, notice, resumeOffer, failures, rooms, roomsNotice, skipped, levelGain, alarm
        }
        var c = encoder.container(keyedBy: K.self)
        try c.encode(type, forKey: .type); try c.encode(seq, forKey: .seq)
        try c.encode(episode, forKey: .episode) // explicit null when nothing is loaded
        try c.encode(paused, forKey: .paused); try c.encode(position, forKey: .position)
        try c.encode(duration, forKey: .duration); try c.encode(rate, forKey: .rate)
        try c.encode(volume, forKey: .volume); try c.encode(muted, forKey: .muted)
        try c.encode(buffering, forKey: .buffering); try c.encode(queue, forKey: .queue)
        try c.encode(shuffle, forKey: .shuffle); try c.encode(self.repeat, forKey: .repeat)
        try c.encode(sleep, forKey: .sleep); try c.encode(settings, forKey: .settings)
        try c.encode(chapters, forKey: .chapters)
        try c.encode(chapter, forKey: .chapter); try c.encode(error, forKey: .error)
        try c.encode(outputs, forKey: .outputs); try c.encode(output, forKey: .output)
        try c.encode(notice, forKey: .notice); try c.encode(resumeOffer, forKey: .resumeOffer)
        try c.encode(failures, forKey: .failures)
        try c.encode(rooms, forKey: .rooms); try c.encode(roomsNotice, forKey: .roomsNotice)
        try c.encode(skipped, forKey: .skipped)
        try c.encode(levelGain, forKey: .levelGain)
        try c.encode(alarm, forKey: .alarm)
    }
}

private struct TimeWire: Encodable {
    var type = "time"
    var seq: UInt64
    var position: Double
    var duration: Double
    var rate: Double
    var paused: Bool
}
