import CWebSockets
import EarshotCore
import Foundation

/// The libwebsockets owner: one context, one listening vhost, one service thread that owns
/// every lws object. Other threads only touch the locked outbox and call `lws_cancel_service`
/// (lws's one thread-safe call); the service thread then moves the outbox onto connections
/// and writes in the writeable callbacks.
public final class LWSServer: @unchecked Sendable {
    // @unchecked: `context` is used from other threads only through lws_cancel_service;
    // `connections` and friends are touched only on the service thread; `outbox` is locked.
    var context: OpaquePointer?
    public private(set) var port: Int = 0
    public let host: String
    /// Host/Origin rules; set once the port is bound, before the service thread starts.
    var policy: AccessPolicy
    weak var handler: (any WebHandler)?
    /// Who may have what (pairing); set before `start`, read on the service thread (LWSServer+Access).
    weak var gate: (any AccessGate)?
    /// Bound to every IPv4 address (`--lan`), not loopback alone.
    var listensOnLAN: Bool { host == "0.0.0.0" }
    /// Service thread: when the interfaces were last read for the Host allowlist.
    var namesReadAt = Date.distantPast

    // Service thread only.
    var connections: [UInt: Connection] = [:]
    var wsiByClient: [ClientID: OpaquePointer] = [:]
    var nextClientID: ClientID = 1
    var protocols: UnsafeMutablePointer<lws_protocols>?
    var protocolName: UnsafeMutablePointer<CChar>?
    var ifaceName: UnsafeMutablePointer<CChar>?

    // Any thread, under `lock`.
    let lock = NSLock()
    var outboxResponses: [(ClientID, HTTPResponse)] = []
    var outboxMessages: [(ClientID?, SocketOutbox.Message)] = []
    /// Devices whose connections must close (revoked).
    var outboxKicks: [Int64] = []
    /// Commands read but not yet handled, per client: a client that floods gets refusals
    /// instead of growing the queue without bound.
    var commandsInFlight: [ClientID: Int] = [:]
    var running = false
    private let stopped = DispatchSemaphore(value: 0)

    /// Socket events in arrival order, for the one task that hands them to the handler.
    let socketEvents: AsyncStream<SocketEvent>
    let socketContinuation: AsyncStream<SocketEvent>.Continuation

    enum SocketEvent: Sendable {
        case opened(ClientID), text(ClientID, String), rejected(ClientID, String), closed(ClientID)
    }

    /// Largest request body accepted (413 past it) and largest WebSocket message (error past it).
    public static let maxBody = 1 << 20
    public static let maxFrame = 64 << 10
    /// URL arguments read per request (`?a=1&b=2…`); more are ignored.
    static let maxQueryArguments = 32
    /// Commands one client may have waiting at once.
    public static let maxCommandsInFlight = 64

    /// - Parameters:
    ///   - host: the address to bind ("127.0.0.1" by default: loopback only; "0.0.0.0": every IPv4 address).
    ///   - port: 0 picks any free port; `port` tells which after `start()`.
    ///   - hostNames: names a request's Host may use (the port is added once bound).
    public init(host: String = "127.0.0.1", hostNames: Set<String> = ["127.0.0.1", "localhost", "[::1]"]) {
        self.host = host
        self.policy = AccessPolicy(hostNames: hostNames, port: 0)
        (socketEvents, socketContinuation) = AsyncStream.makeStream(of: SocketEvent.self)
    }

    deinit { stop() }

    /// Binds and starts the service thread. Throws when the port cannot be bound.
    public func start(port requested: Int, handler: any WebHandler) throws {
        self.handler = handler
        lws_set_log_level(LLL_ERR | LLL_WARN, nil)

        protocolName = strdup("earshot")
        // No iface: lws binds the wildcard address: `::` taking IPv4 too (below), on the LAN.
        ifaceName = listensOnLAN ? nil : strdup(host)
        let table = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        table.initialize(repeating: lws_protocols(), count: 2)
        table[0].name = UnsafePointer(protocolName)
        table[0].callback = earshotLWSCallback
        table[0].per_session_data_size = 0
        table[0].rx_buffer_size = 16 << 10
        protocols = table

        var info = lws_context_creation_info()
        info.port = Int32(requested)
        info.iface = UnsafePointer(ifaceName)
        info.protocols = UnsafePointer(table)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        // Not HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE: it adds a second CSP that blocks feed
        // artwork and media; ours (LWSServer+Writing) is the one policy. Not VALIDATE_UTF8:
        // lws would close the socket on a bad frame; we answer it with an `error` instead.
        info.options = 0
        if listensOnLAN {
            // Both families on one socket (IPV6_V6ONLY off, whatever the system's default): phones
            // on an IPv6-only or dual-stack LAN reach it, IPv4 peers arrive as ::ffff:a.b.c.d.
            info.options |= UInt64(LWS_SERVER_OPTION_IPV6_V6ONLY_MODIFY)
        } else if !host.contains(":") {
            info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
        }
        info.timeout_secs = 30
        info.ka_time = 0

        var created = lws_create_context(&info)
        if created == nil, listensOnLAN {
            // A machine with IPv6 turned off: the LAN on IPv4 alone.
            Log.warning("web", "could not listen on IPv6 (turned off on this machine?): the LAN on IPv4 only")
            info.options = UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
            created = lws_create_context(&info)
        }
        guard let context = created else {
            throw WebError.bind("could not listen on \(host):\(requested) (in use, or not an address of this machine)")
        }
        if let vhost = lws_get_vhost_by_name(context, "default") {
            port = Int(lws_get_vhost_listen_port(vhost))
        } else {
            port = requested
        }
        policy.port = port
        lock.lock(); self.context = context; running = true; lock.unlock()

        nonisolated(unsafe) let serviced = context // only this thread services it
        let thread = Thread { [self] in
            while true {
                lock.lock(); let go = running; lock.unlock()
                if !go { break }
                _ = lws_service(serviced, 0)
            }
            stopped.signal()
        }
        thread.name = "lws-service"
        thread.start()

        let events = socketEvents
        Task { [weak self, weak handler] in
            for await event in events {
                guard let self, let handler else { break }
                switch event {
                case .opened(let id): await handler.socketOpened(id)
                case .text(let id, let text):
                    await handler.socketReceived(text, from: id)
                    self.commandHandled(id)
                case .rejected(let id, let reason): await handler.socketRejectedFrame(reason, from: id)
                case .closed(let id):
                    await handler.socketClosed(id)
                    self.forgetCommands(of: id)
                }
            }
        }
    }

    /// Stops serving: the service thread ends, every connection closes, the port is freed.
    public func stop() {
        // Other threads wake the service thread under `lock` (see `wake`): once `running` is
        // false and `context` nil under it, none can touch the context being destroyed.
        lock.lock()
        let wasRunning = running
        running = false
        let context = self.context
        self.context = nil
        if wasRunning, let context { lws_cancel_service(context) }
        lock.unlock()
        guard let context else { return }
        if wasRunning { stopped.wait() }
        lws_context_destroy(context)
        socketContinuation.finish()
        protocols?.deallocate(); protocols = nil
        free(protocolName); protocolName = nil
        free(ifaceName); ifaceName = nil
    }

    // MARK: - From any thread

    /// Service thread: whether one more command from `client` may be queued (counts it if so).
    func admitCommand(from client: ClientID) -> Bool {
        lock.lock(); defer { lock.unlock() }
        let waiting = commandsInFlight[client, default: 0]
        guard waiting < Self.maxCommandsInFlight else { return false }
        commandsInFlight[client] = waiting + 1
        return true
    }

    func forgetCommands(of client: ClientID) {
        lock.lock(); defer { lock.unlock() }
        commandsInFlight[client] = nil
    }

    func commandHandled(_ client: ClientID) {
        lock.lock(); defer { lock.unlock() }
        if let waiting = commandsInFlight[client] { commandsInFlight[client] = max(0, waiting - 1) }
    }

    /// Queues a message for one client (`to`) or for every WebSocket client (`to: nil`).
    public func send(_ message: ServerMessage, to client: ClientID? = nil) {
        enqueue(SocketOutbox.Message(message), to: client)
    }

    func enqueue(_ message: SocketOutbox.Message, to client: ClientID?) {
        lock.lock(); defer { lock.unlock() }
        outboxMessages.append((client, message))
        wake()
    }

    func deliver(_ response: HTTPResponse, to client: ClientID) {
        lock.lock(); defer { lock.unlock() }
        outboxResponses.append((client, response))
        wake()
    }

    /// Under `lock`: interrupts `lws_service` so the service thread drains the outbox.
    private func wake() {
        if running, let context { lws_cancel_service(context) }
    }
}

/// Failures of the transport itself.
public enum WebError: Error, CustomStringConvertible, Sendable {
    case bind(String)
    public var description: String {
        switch self { case .bind(let message): message }
    }
}
