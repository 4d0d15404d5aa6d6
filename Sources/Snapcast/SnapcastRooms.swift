import EarshotCore
import Foundation

/// Earshot's link to a snapserver (issue 17): a JSON-RPC connection kept open (made again every
/// 2 s while the server is away), the server's status kept current from its notifications, and
/// the rooms' volume, mute and join/leave carried out (`RoomPlan` decides the calls). Whoever
/// listens gets a `Snapshot` on every change: whether Earshot's stream is there, its pipe, the rooms.
public actor SnapcastRooms {
    /// What the rest of Earshot needs to know.
    public struct Snapshot: Sendable, Equatable {
        /// Connected, and the server has Earshot's stream as a pipe Earshot can write.
        public var available: Bool
        /// The pipe mpv writes to (the stream's `uri.path`), for a pipe source.
        public var pipePath: String?
        /// Where to send the audio, for a TCP source (`mode=server`: the snapserver listens).
        public var tcpHost: String?
        public var tcpPort: Int?
        public var rooms: [Room]
        /// Why the rooms are not available, in words for the listener (nil when they are).
        public var notice: String?

        public static let unavailable = Snapshot(available: false, pipePath: nil, tcpHost: nil, tcpPort: nil, rooms: [], notice: nil)
    }

    public let host: String
    public let port: Int
    public let streamName: String
    private var client: SnapcastClient?
    private var status: SnapcastStatus?
    private var running = false
    private var loop: Task<Void, Never>?
    private var listener: (@Sendable (Snapshot) -> Void)?
    public private(set) var snapshot = Snapshot.unavailable

    /// How long to wait before connecting again.
    public static let retryDelay: Duration = .seconds(2)

    public init(host: String, port: Int = 1705, streamName: String = "Earshot") {
        self.host = host; self.port = port; self.streamName = streamName
    }

    /// Starts connecting (and reconnecting); `listener` hears every snapshot.
    public func start(_ listener: @escaping @Sendable (Snapshot) -> Void) {
        guard !running else { return }
        running = true
        self.listener = listener
        loop = Task { await self.run() }
    }

    public func stop() {
        running = false
        loop?.cancel()
        client?.close()
    }

    private func run() async {
        var reported: String?
        while running, !Task.isCancelled {
            do {
                let connection = try SnapcastClient(host: host, port: port)
                client = connection
                try await refresh()
                reported = nil
                Log.info("snapcast", "connected to the snapserver at \(host):\(port)")
                for await (method, params) in connection.notifications {
                    await notified(method, params)
                }
                client = nil
                status = nil
                Log.warning("snapcast", "the snapserver at \(host):\(port) closed the connection")
                publish(notice: "The Snapcast server stopped: the rooms are not reachable. Earshot connects again when it is back.")
            } catch {
                client?.close()
                client = nil
                status = nil
                let why = "\(error)"
                if why != reported {
                    Log.warning("snapcast", "cannot reach the snapserver at \(host):\(port): \(why)")
                    reported = why
                }
                publish(notice: "The Snapcast server at \(host):\(port) cannot be reached (\(why)). Earshot tries again every few seconds.")
            }
            try? await Task.sleep(for: Self.retryDelay)
        }
    }

    /// Asks for the whole status again and publishes it.
    private func refresh() async throws {
        guard let client else { return }
        let answer = try await client.request("Server.GetStatus")
        guard case .object(let fields) = answer, let server = fields["server"], let status = SnapcastStatus(server) else {
            throw SnapcastClient.RPCError(description: "Server.GetStatus answered something Earshot cannot read")
        }
        self.status = status
        publish()
    }

    private func notified(_ method: String, _ params: JSONValue) async {
        guard case .object(let fields) = params else { return }
        switch method {
        case "Client.OnVolumeChanged":
            // The commonest one (a slider on another controller): changed in place.
            if let id = fields["id"]?.string, case .object(let volume)? = fields["volume"], var status {
                for g in status.groups.indices {
                    for c in status.groups[g].clients.indices where status.groups[g].clients[c].id == id {
                        if let percent = volume["percent"]?.number { status.groups[g].clients[c].volume = Int(percent) }
                        if let muted = volume["muted"]?.bool { status.groups[g].clients[c].muted = muted }
                    }
                }
                self.status = status
                publish()
            }
        case "Server.OnUpdate":
            if let server = fields["server"], let status = SnapcastStatus(server) {
                self.status = status
                publish()
            }
        default:
            // Connects, names, groups, streams: fetched whole (a few KB), so nothing is missed.
            do { try await refresh() } catch { Log.warning("snapcast", "could not read the snapserver's status: \(error)") }
        }
    }

    private func publish(notice override: String? = nil) {
        var next = Snapshot.unavailable
        if let status {
            next.rooms = Room.rooms(in: status, stream: streamName)
            if let stream = status.streams.first(where: { $0.id == streamName }) {
                if stream.scheme == "pipe", !stream.path.isEmpty {
                    next.available = true
                    next.pipePath = stream.path
                } else if stream.scheme == "tcp", (stream.query["mode"] ?? "server") == "server", let target = tcpTarget(stream) {
                    next.available = true
                    (next.tcpHost, next.tcpPort) = target
                } else {
                    next.notice = "The Snapcast stream \(streamName) is a \(stream.scheme) source Earshot cannot feed. In the snapserver's configuration use a pipe (\(SnapcastServerConfig.sourceLine(name: streamName))) or a TCP source in server mode (source = tcp://0.0.0.0:4953?name=\(streamName)&mode=server)."
                }
            } else {
                next.notice = "The snapserver has no stream named \(streamName). Add this line under [stream] in its configuration (snapserver.conf) and restart it: \(SnapcastServerConfig.sourceLine(name: streamName))"
            }
        } else {
            next.notice = override
        }
        guard next != snapshot else { return }
        snapshot = next
        listener?(next)
    }

    /// Where a TCP source listens: its `host:port` (or `port=`), an any-address or loopback
    /// meaning the snapserver's own machine — the host Earshot reaches it at.
    func tcpTarget(_ stream: SnapcastStatus.Stream) -> (String, Int)? {
        var address = stream.host
        var port = 4953
        if let colon = address.lastIndex(of: ":"), let number = Int(address[address.index(after: colon)...]) {
            port = number
            address = String(address[..<colon])
        }
        if let number = stream.query["port"].flatMap(Int.init) { port = number }
        if address.hasPrefix("[") { address = String(address.dropFirst().dropLast()) }
        if address.isEmpty || address == "0.0.0.0" || address == "::" || address.hasPrefix("127.") || address == "::1" || address == "localhost" {
            address = host
        }
        return (1...65535).contains(port) ? (address, port) : nil
    }

    // MARK: Commands

    public enum CommandFailure: Error, CustomStringConvertible {
        case unavailable
        case refused(String)
        public var description: String {
            switch self {
            case .unavailable: "the Snapcast server is not reachable"
            case .refused(let why): why
            }
        }
    }

    /// A room's volume, 0…100.
    public func setVolume(_ room: String, _ percent: Int) async throws {
        let (client, status) = try ready()
        guard let (_, found) = status.locate(room) else { throw CommandFailure.refused("no room \(room)") }
        _ = try await client.request("Client.SetVolume", .object([
            "id": .string(room), "volume": .object(["percent": .number(Double(max(0, min(100, percent)))), "muted": .bool(found.muted)]),
        ]))
        try await refresh()
    }

    public func setMuted(_ room: String, _ muted: Bool) async throws {
        let (client, status) = try ready()
        guard let (_, found) = status.locate(room) else { throw CommandFailure.refused("no room \(room)") }
        _ = try await client.request("Client.SetVolume", .object([
            "id": .string(room), "volume": .object(["percent": .number(Double(found.volume)), "muted": .bool(muted)]),
        ]))
        try await refresh()
    }

    public func join(_ room: String) async throws {
        let (_, status) = try ready()
        do { try await carryOut(try RoomPlan.join(room, to: streamName, in: status)) } catch let refusal as RoomPlan.Refusal {
            throw CommandFailure.refused(refusal.description)
        }
    }

    public func leave(_ room: String) async throws {
        let (_, status) = try ready()
        do { try await carryOut(try RoomPlan.leave(room, from: streamName, in: status)) } catch let refusal as RoomPlan.Refusal {
            throw CommandFailure.refused(refusal.description)
        }
    }

    private func ready() throws -> (SnapcastClient, SnapcastStatus) {
        guard let client, let status else { throw CommandFailure.unavailable }
        return (client, status)
    }

    private func carryOut(_ calls: [RoomPlan.Call]) async throws {
        for call in calls {
            guard let client else { throw CommandFailure.unavailable }
            switch call {
            case .setStream(let group, let stream):
                _ = try await client.request("Group.SetStream", .object(["id": .string(group), "stream_id": .string(stream)]))
            case .setClients(let group, let clients):
                let answer = try await client.request("Group.SetClients", .object(["id": .string(group), "clients": .array(clients.map(JSONValue.string))]))
                if case .object(let fields) = answer, let server = fields["server"], let status = SnapcastStatus(server) { self.status = status }
            case .setStreamOfGroupOf(let room, let stream):
                try await refresh()
                guard let (group, _) = status?.locate(room) else { throw CommandFailure.refused("no room \(room)") }
                if group.streamID != stream {
                    _ = try await client.request("Group.SetStream", .object(["id": .string(group.id), "stream_id": .string(stream)]))
                }
            case .setVolume(let room, let percent, let muted):
                _ = try await client.request("Client.SetVolume", .object([
                    "id": .string(room), "volume": .object(["percent": .number(Double(percent)), "muted": .bool(muted)]),
                ]))
            }
        }
        try await refresh()
    }
}
