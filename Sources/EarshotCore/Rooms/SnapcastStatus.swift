import FoundationEssentials

/// What a snapserver says of itself (`Server.GetStatus`'s `server`, `Server.OnUpdate`'s too), read
/// from its JSON-RPC answer: its groups of clients and its streams. Only what Earshot uses.
public struct SnapcastStatus: Sendable, Equatable {
    public struct Client: Sendable, Equatable {
        /// The client's id (snapclient's `--hostID`, else its MAC).
        public var id: String
        /// The name a person gave it (`config.name`), else the machine's host name.
        public var name: String
        public var connected: Bool
        public var volume: Int
        public var muted: Bool

        public init(id: String, name: String, connected: Bool, volume: Int, muted: Bool) {
            self.id = id; self.name = name; self.connected = connected; self.volume = volume; self.muted = muted
        }
    }

    public struct Group: Sendable, Equatable {
        public var id: String
        public var streamID: String
        public var muted: Bool
        public var clients: [Client]

        public init(id: String, streamID: String, muted: Bool = false, clients: [Client]) {
            self.id = id; self.streamID = streamID; self.muted = muted; self.clients = clients
        }
    }

    public struct Stream: Sendable, Equatable {
        public var id: String
        /// "idle", "playing", …
        public var status: String
        /// The URI's scheme ("pipe", "tcp", …), path (a pipe's file) and host ("127.0.0.1:4953").
        public var scheme: String
        public var path: String
        public var host: String
        public var query: [String: String]

        public init(id: String, status: String, scheme: String, path: String, host: String = "", query: [String: String] = [:]) {
            self.id = id; self.status = status; self.scheme = scheme; self.path = path; self.host = host; self.query = query
        }
    }

    public var groups: [Group]
    public var streams: [Stream]

    public init(groups: [Group], streams: [Stream]) { self.groups = groups; self.streams = streams }

    /// Reads the `server` object of an answer or notification; nil when it is not one.
    public init?(_ value: JSONValue) {
        guard case .object(let server) = value, case .array(let groups)? = server["groups"],
              case .array(let streams)? = server["streams"] else { return nil }
        self.groups = groups.compactMap(Self.group)
        self.streams = streams.compactMap(Self.stream)
    }

    static func group(_ value: JSONValue) -> Group? {
        guard case .object(let fields) = value, let id = fields["id"]?.string else { return nil }
        var clients: [Client] = []
        if case .array(let list)? = fields["clients"] { clients = list.compactMap(client) }
        return Group(id: id, streamID: fields["stream_id"]?.string ?? "", muted: fields["muted"]?.bool ?? false, clients: clients)
    }

    /// A client object (also what `Client.OnConnect` carries).
    public static func client(_ value: JSONValue) -> Client? {
        guard case .object(let fields) = value, let id = fields["id"]?.string else { return nil }
        var name = ""
        var volume = 100
        var muted = false
        if case .object(let config)? = fields["config"] {
            name = config["name"]?.string ?? ""
            if case .object(let level)? = config["volume"] {
                volume = Int(level["percent"]?.number ?? 100)
                muted = level["muted"]?.bool ?? false
            }
        }
        if name.isEmpty, case .object(let host)? = fields["host"] { name = host["name"]?.string ?? "" }
        return Client(id: id, name: name.isEmpty ? id : name, connected: fields["connected"]?.bool ?? false,
                      volume: max(0, min(100, volume)), muted: muted)
    }

    static func stream(_ value: JSONValue) -> Stream? {
        guard case .object(let fields) = value, let id = fields["id"]?.string else { return nil }
        var scheme = "", path = "", host = ""
        var query: [String: String] = [:]
        if case .object(let uri)? = fields["uri"] {
            scheme = uri["scheme"]?.string ?? ""
            // `path`, never `raw`: snapserver rebuilds raw as scheme://host/ + path ("pipe:////tmp/…").
            path = uri["path"]?.string ?? ""
            host = uri["host"]?.string ?? ""
            if case .object(let items)? = uri["query"] {
                for (key, item) in items { if let text = item.string { query[key] = text } }
            }
        }
        return Stream(id: id, status: fields["status"]?.string ?? "unknown", scheme: scheme, path: path, host: host, query: query)
    }

    /// The client with `id` and the group it is in.
    public func locate(_ id: String) -> (group: Group, client: Client)? {
        for group in groups { if let client = group.clients.first(where: { $0.id == id }) { return (group, client) } }
        return nil
    }
}
