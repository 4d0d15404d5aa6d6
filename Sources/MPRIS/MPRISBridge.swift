import EarshotCore
import Foundation
import Playback
import Web

/// Earshot as an MPRIS media player (`org.mpris.MediaPlayer2.earshot`): the desktop's media keys
/// and widget, Bluetooth headset buttons (through BlueZ) and KDE Connect drive it, and see what
/// plays. Engine messages become properties (`MPRISPlayer`) and signals; calls become the same
/// commands a browser sends (`MPRISCall`, then `EarshotServer.perform`).
///
/// Threads: GDBus calls `property`, `setProperty` and `call` on the D-Bus thread (DBusService);
/// they read the snapshot under `lock` and hand work to tasks. Engine messages arrive through an
/// AsyncStream and are applied in order by one task.
public final class MPRISBridge: DBusObjectHandler, @unchecked Sendable {
    // @unchecked: `snapshot` is guarded by `lock`; `service` is set once in `start`.
    private let server: EarshotServer
    private let lock = NSLock()
    private var snapshot = Snapshot()
    private var service: DBusService?

    private struct Snapshot {
        var state = PlaybackState()
        var player = MPRISPlayer(state: PlaybackState())
        var clock = MPRISClock()
        /// The artwork address whose file `artFile` is (so a new episode's art is looked up again).
        var artFor: String?
        var artFile: String?
        var mediaFor: Int64?
        var mediaURL: String?
    }

    private init(server: EarshotServer) { self.server = server }

    /// Joins the session bus, or says in one line why not and returns nil (everything else works
    /// without it).
    public static func start(server: EarshotServer, engine: PlaybackEngine,
                             environment: [String: String] = ProcessInfo.processInfo.environment) async -> MPRISBridge? {
        guard let address = DBusService.sessionBusAddress(environment) else {
            Log.info("mpris", "no session bus (DBUS_SESSION_BUS_ADDRESS is not set): media keys and the desktop's media controls will not see Earshot")
            return nil
        }
        let bridge = MPRISBridge(server: server)
        if case .state(_, let state) = await engine.snapshot() { bridge.apply(state) }
        do {
            bridge.service = try DBusService(address: address, busName: MPRISInterface.busName,
                                             fallbackName: MPRISInterface.busName + ".instance\(getpid())",
                                             path: MPRISInterface.objectPath, introspection: MPRISInterface.introspection,
                                             interfaces: [MPRISInterface.root, MPRISInterface.player], handler: bridge)
        } catch {
            Log.warning("mpris", "not on the session bus: \(error.description); media keys and the desktop's media controls will not see Earshot")
            return nil
        }
        Log.info("mpris", "on the session bus as \(bridge.service?.name ?? "?")")
        // Applied as they are sent (the engine's actor calls listeners in order), so a reply to a
        // call and the properties after it agree.
        _ = await engine.addListener { [weak bridge] message in bridge?.received(message) }
        return bridge
    }

    /// Leaves the bus.
    public func stop() { service?.stop() }

    // MARK: - Engine → bus

    private func received(_ message: ServerMessage) {
        switch message {
        case .state(_, let state):
            apply(state)
        case .time(_, let position, let duration, let rate, let paused):
            lock.withLock {
                snapshot.state.position = position
                snapshot.state.duration = duration
                let seek = snapshot.clock.update(episode: snapshot.state.episode?.id, position: position, rate: rate,
                                                 playing: !paused && snapshot.state.episode != nil, at: Self.now())
                if let seek { emitSeeked(seek) }
            }
        default:
            break
        }
    }

    /// Rebuilds the properties for `state` and emits what changed, and `Seeked` for a jump. Under
    /// the lock, emissions included (GDBus only queues them): what clients see stays in order.
    private func apply(_ state: PlaybackState) {
        lookUpDetails(state)
        lock.withLock {
            let art = snapshot.artFor == state.episode?.artwork ? snapshot.artFile.map { URL(fileURLWithPath: $0).absoluteString } : nil
            let media = snapshot.mediaFor == state.episode?.id ? snapshot.mediaURL : nil
            let player = MPRISPlayer(state: state, artURL: art, mediaURL: media)
            let changes = player.changes(since: snapshot.player)
            snapshot.player = player
            snapshot.state = state
            let seek = snapshot.clock.update(episode: state.episode?.id, position: state.position, rate: state.rate,
                                             playing: state.isPlaying, at: Self.now())
            service?.propertiesChanged(MPRISInterface.player, changes)
            if let seek { emitSeeked(seek) }
        }
    }

    private func emitSeeked(_ position: Double) {
        service?.emit(MPRISInterface.player, "Seeked", .tuple([.int64(MPRISPlayer.microseconds(position))]))
    }

    /// A looked-up detail arrived: rebuild from the last state.
    private func refresh() {
        apply(lock.withLock { snapshot.state })
    }

    /// Starts the lookups a new episode needs (its enclosure, its artwork on disk); each one that
    /// lands rebuilds the properties.
    private func lookUpDetails(_ state: PlaybackState) {
        guard let episode = state.episode else { return }
        let (needMedia, needArt): (Bool, Bool) = lock.withLock {
            let media = snapshot.mediaFor != episode.id
            let art = episode.artwork != nil && snapshot.artFor != episode.artwork
            if media { snapshot.mediaFor = episode.id; snapshot.mediaURL = nil }
            if art { snapshot.artFor = episode.artwork; snapshot.artFile = nil }
            return (media, art)
        }
        let server = self.server
        if needMedia {
            Task {
                let url = await server.mediaURL(episode: episode.id)
                self.lock.withLock { if self.snapshot.mediaFor == episode.id { self.snapshot.mediaURL = url } }
                if url != nil { self.refresh() }
            }
        }
        if needArt, let artwork = episode.artwork {
            Task {
                let file = await server.artworkFile(artwork)
                self.lock.withLock { if self.snapshot.artFor == artwork { self.snapshot.artFile = file } }
                if file != nil { self.refresh() }
            }
        }
    }

    private static func now() -> Double { ProcessInfo.processInfo.systemUptime }

    // MARK: - Bus → Earshot (on the D-Bus thread)

    public func property(interface: String, name: String) -> DBusValue? {
        if interface == MPRISInterface.root { return MPRISInterface.rootProperties[name] }
        guard interface == MPRISInterface.player else { return nil }
        return lock.withLock {
            let position = MPRISPlayer.microseconds(snapshot.clock.position(at: Self.now()))
            return snapshot.player.all(position: position)[name]
        }
    }

    public func setProperty(interface: String, name: String, value: DBusValue) -> String? {
        guard interface == MPRISInterface.player else { return "\(interface) has no writable properties" }
        let state = lock.withLock { snapshot.state }
        switch MPRISCall.set(name, value, state: state) {
        case .command(let command):
            let server = self.server
            Task {
                do throws(CommandError) { try await server.perform(command) } catch {
                    Log.warning("mpris", "setting \(name): \(error.message)")
                }
            }
            return nil
        case .nothing, .open, .playOn:
            return nil
        case .refuse(let why):
            return why
        }
    }

    public func call(interface: String, method: String, arguments: [DBusValue], reply: DBusReply) {
        let state = lock.withLock { snapshot.state }
        let server = self.server
        switch MPRISCall.method(interface, method, arguments, state: state) {
        case .command(let command): answer(reply) { () async throws(CommandError) in try await server.perform(command) }
        case .open(let uri): answer(reply) { () async throws(CommandError) in try await server.open(uri) }
        case .playOn: answer(reply) { () async throws(CommandError) in try await server.playOn() }
        case .nothing:
            reply.succeed()
        case .refuse(let why):
            reply.fail(MPRISInterface.errorName, why)
        }
    }

    /// Carries `work` out in a task and answers the call when it is done, so a caller that asks
    /// next (playerctl status after playerctl pause) sees it done.
    private func answer(_ reply: DBusReply, _ work: @escaping @Sendable () async throws(CommandError) -> Void) {
        Task {
            do throws(CommandError) {
                try await work()
                reply.succeed()
            } catch {
                reply.fail(MPRISInterface.errorName, error.message)
            }
        }
    }
}
