import FoundationEssentials

/// One episode action of gpodder.net's API (and Nextcloud's gpoddersync, which copies it): a
/// device says it found, downloaded, played or deleted an episode. Only `play` and `new` change
/// the library; every action is kept and handed to the other devices as it came.
public struct EpisodeAction: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case new, download, play, delete
        /// gpodder.net's old "flattr" action (mygpoclient can still send it): kept, changes nothing.
        case flattr
    }

    /// The feed's address.
    public var podcast: String
    /// The episode's media (enclosure) address.
    public var episode: String
    /// The episode's guid, when the client sends it (AntennaPod does).
    public var guid: String?
    /// The device that did it (absent in uploads from some clients: then the uploader's).
    public var device: String?
    public var kind: Kind
    /// When it happened, Unix seconds; nil when the client did not say (then when it arrived).
    public var timestamp: Double?
    /// `play` only: where this listening began, where it stopped and the episode's length, seconds.
    public var started: Int?
    public var position: Int?
    public var total: Int?

    public init(podcast: String, episode: String, guid: String? = nil, device: String? = nil, kind: Kind,
                timestamp: Double? = nil, started: Int? = nil, position: Int? = nil, total: Int? = nil) {
        self.podcast = podcast; self.episode = episode; self.guid = guid; self.device = device; self.kind = kind
        self.timestamp = timestamp; self.started = started; self.position = position; self.total = total
    }
}

/// Why an uploaded action could not be read: the whole upload is refused (nothing stored).
public struct EpisodeActionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let reason: String
    public var description: String { "episode action \(index): \(reason)" }
}

extension EpisodeAction {
    /// Reads an upload: a JSON array of action objects. Liberal where clients differ — the action's
    /// name in any case, numbers as JSON numbers or numeric strings, a timestamp as ISO 8601 text
    /// or Unix seconds, unknown fields ignored — and strict where a mistake would mislead: podcast
    /// and episode must be present, a `play` needs its position, numbers must be whole and not negative.
    public static func decodeUpload(_ value: JSONValue) throws(EpisodeActionError) -> [EpisodeAction] {
        guard case .array(let items) = value else {
            throw EpisodeActionError(index: 0, reason: "send a JSON array of episode actions")
        }
        var actions: [EpisodeAction] = []
        actions.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            actions.append(try decode(item, index: index))
        }
        return actions
    }

    static func decode(_ value: JSONValue, index: Int) throws(EpisodeActionError) -> EpisodeAction {
        func fail(_ reason: String) -> EpisodeActionError { EpisodeActionError(index: index, reason: reason) }
        guard case .object(let fields) = value else { throw fail("not an object") }
        func text(_ key: String) -> String? {
            guard let string = fields[key]?.string?.trimmed, !string.isEmpty else { return nil }
            return string
        }
        func whole(_ key: String) throws(EpisodeActionError) -> Int? {
            let number: Double?
            switch fields[key] {
            case nil, .null?: return nil
            case .number(let n)?: number = n
            case .string(let s)?: number = Double(s.trimmed)
            default: number = nil
            }
            guard let number, number.isFinite, number >= -1, number < 1e9 else { throw fail("\(key) must be a whole number of seconds") }
            // AntennaPod writes -1 for "unknown" (started, total): read as absent.
            return number < 0 ? nil : Int(number.rounded(.down))
        }
        guard let podcast = text("podcast") else { throw fail("podcast (the feed's address) is missing") }
        guard let episode = text("episode") else { throw fail("episode (the media address) is missing") }
        guard let name = text("action"), let kind = Kind(rawValue: name.lowercased()) else {
            throw fail("action must be one of new, download, play, delete, flattr")
        }
        var timestamp: Double?
        switch fields["timestamp"] {
        case nil, .null?: timestamp = nil
        case .string(let s)?:
            guard let parsed = SyncTime.parse(s.trimmed) ?? Double(s.trimmed) else { throw fail("timestamp \(s.prefix(40)) is not a date") }
            timestamp = parsed
        case .number(let n)?:
            guard n.isFinite, n >= 0 else { throw fail("timestamp must be a date") }
            timestamp = n > 1e11 ? n / 1000 : n // milliseconds, as some clients send
        default: throw fail("timestamp must be a date")
        }
        var action = EpisodeAction(podcast: podcast, episode: episode, guid: text("guid"), device: text("device"), kind: kind,
                                   timestamp: timestamp)
        if kind == .play {
            action.started = try whole("started")
            action.total = try whole("total")
            guard let position = try whole("position") else { throw fail("a play action needs its position") }
            action.position = position
        }
        return action
    }

    /// The action as gpodder.net writes it: `timestamp` as `YYYY-MM-DDTHH:MM:SS` (UTC);
    /// `started`, `position`, `total` only for `play`, and only those known (mygpoclient refuses
    /// a negative one, so "unknown" is no field at all).
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "podcast": .string(podcast), "episode": .string(episode), "action": .string(kind.rawValue),
        ]
        if let guid { object["guid"] = .string(guid) }
        if let device { object["device"] = .string(device) }
        if let timestamp { object["timestamp"] = .string(SyncTime.format(timestamp)) }
        if kind == .play {
            object["position"] = .number(Double(position ?? 0))
            if let started { object["started"] = .number(Double(started)) }
            if let total { object["total"] = .number(Double(total)) }
        }
        return .object(object)
    }
}
