import EarshotCore
import Foundation
import Snapcast

/// How Earshot reaches Snapcast (issue 17), from the command line: a snapserver of the user's
/// (`--snapcast HOST[:PORT]`), one Earshot starts (`snapserver` installed, no `--snapcast`), or none.
public struct RoomsConfiguration: Sendable {
    public enum Server: Sendable {
        case external(host: String, port: Int)
        case managed(SnapcastServerConfig, executable: String)
    }
    public var server: Server
    public var streamName: String
    /// The link mpv's SDL disk driver writes to (`SDL_DISKAUDIOFILE`).
    public var pipeLink: String

    public init(server: Server, streamName: String, pipeLink: String) {
        self.server = server; self.streamName = streamName; self.pipeLink = pipeLink
    }
}

/// The rooms on the server's side: the link to the snapserver (`SnapcastRooms`), its snapshots
/// carried to the engine (rooms in the state, "Rooms" among the outputs) and to the pipe link,
/// the `room.*` commands and `GET /api/rooms`.
final class RoomsDesk: @unchecked Sendable {
    // @unchecked: everything is set in init and is itself thread-safe (actors, a locked class).
    let configuration: RoomsConfiguration
    let rooms: SnapcastRooms
    let managed: ManagedSnapserver?
    /// Feeds a TCP source, while the stream is one (guarded by `lock`).
    private var pump: TCPPump?
    /// What the link points at now, and the descriptor holding it when it is a pipe
    /// (`RoomsPipeLink.hold`; guarded by `lock`).
    private var pointedAt = "/dev/null"
    private var held: Int32?
    private let lock = NSLock()

    /// Where mpv's link should point for `snapshot`: the snapserver's pipe, the pump's own pipe
    /// for a TCP source (the pump started or moved as needed), else /dev/null.
    func target(for snapshot: SnapcastRooms.Snapshot) -> String {
        lock.lock(); defer { lock.unlock() }
        if snapshot.available, let host = snapshot.tcpHost, let port = snapshot.tcpPort {
            if let pump, pump.host == host, pump.port == port { return pump.fifoPath }
            pump?.stop()
            let fresh = TCPPump(fifoPath: (configuration.pipeLink as NSString).deletingLastPathComponent + "/tcp.fifo", host: host, port: port)
            do {
                try fresh.start()
                pump = fresh
                return fresh.fifoPath
            } catch {
                Log.error("snapcast", "cannot feed the TCP source \(host):\(port): \(error)")
                pump = nil
                return "/dev/null"
            }
        }
        pump?.stop()
        pump = nil
        if let pipe = snapshot.pipePath, snapshot.available, RoomsPipeLink.isPipe(pipe) { return pipe }
        return "/dev/null"
    }

    func stopPump() { lock.withLock { pump?.stop(); pump = nil } }

    /// Points the link at `target`; a pipe is held (and kept small) while the link points at it.
    func point(to target: String) throws {
        lock.lock(); defer { lock.unlock() }
        guard target != pointedAt else { return }
        if let held { close(held) }
        held = target == "/dev/null" ? nil : RoomsPipeLink.hold(pipe: target)
        try RoomsPipeLink.point(configuration.pipeLink, to: target)
        pointedAt = target
    }

    /// Lets go of the pipe (the server stops).
    func release() {
        lock.withLock {
            if let held { close(held) }
            held = nil
            pointedAt = "/dev/null"
        }
    }

    init(_ configuration: RoomsConfiguration) {
        self.configuration = configuration
        switch configuration.server {
        case .external(let host, let port):
            rooms = SnapcastRooms(host: host, port: port, streamName: configuration.streamName)
            managed = nil
        case .managed(let config, let executable):
            rooms = SnapcastRooms(host: "127.0.0.1", port: config.controlPort, streamName: configuration.streamName)
            managed = ManagedSnapserver(config: config, executable: executable)
        }
    }
}

extension EarshotServer {
    /// Starts the snapserver Earshot manages (if it does) and the link; every snapshot reaches the
    /// engine and the pipe link.
    func startRooms() async {
        guard let desk = roomsDesk else { return }
        if let managed = desk.managed {
            do { try managed.start() } catch { Log.error("snapcast", "could not start snapserver: \(error)") }
        }
        let engine = self.engine
        let link = desk.configuration.pipeLink
        await desk.rooms.start { snapshot in
            do {
                try desk.point(to: desk.target(for: snapshot))
            } catch {
                Log.error("snapcast", "could not point \(link) at the snapserver's pipe: \(error)")
            }
            Task { await engine.roomsChanged(available: snapshot.available, rooms: snapshot.rooms, notice: snapshot.notice) }
        }
    }

    /// Stops the link and the managed snapserver.
    func stopRooms() async {
        guard let desk = roomsDesk else { return }
        await desk.rooms.stop()
        desk.release()
        desk.stopPump()
        desk.managed?.stop()
    }

    /// A `room.*` command.
    func room(_ command: RoomCommand) async throws(CommandError) {
        guard let desk = roomsDesk else { throw CommandError("Snapcast is off: start Earshot with --snapcast HOST, or install snapserver") }
        do {
            switch command {
            case .volume(let room, let value): try await desk.rooms.setVolume(room, value)
            case .mute(let room, let on): try await desk.rooms.setMuted(room, on)
            case .join(let room): try await desk.rooms.join(room)
            case .leave(let room): try await desk.rooms.leave(room)
            }
        } catch let failure as SnapcastRooms.CommandFailure {
            throw CommandError(failure.description)
        } catch {
            throw CommandError("the Snapcast server refused: \(error)")
        }
    }

    /// `GET /api/rooms`: `{"rooms": [Room], "available", "notice"}` (the same rooms as `state.rooms`).
    func listRooms(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let desk = roomsDesk else {
            return try .json(RoomsBody(rooms: [], available: false, notice: "Snapcast is off: start Earshot with --snapcast HOST, or install snapserver"))
        }
        let snapshot = await desk.rooms.snapshot
        return try .json(RoomsBody(rooms: snapshot.rooms, available: snapshot.available, notice: snapshot.notice))
    }

    struct RoomsBody: Encodable {
        var rooms: [Room]
        var available: Bool
        var notice: String?

        /// `notice` is always there (null when there is none), as the protocol says.
        func encode(to encoder: Encoder) throws {
            enum K: String, CodingKey { case rooms, available, notice }
            var c = encoder.container(keyedBy: K.self)
            try c.encode(rooms, forKey: .rooms)
            try c.encode(available, forKey: .available)
            try c.encode(notice, forKey: .notice)
        }
    }
}
