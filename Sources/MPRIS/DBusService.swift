import CGio
import EarshotCore
import Foundation

/// What a D-Bus object answers. Called on the D-Bus thread: `property` and `setProperty` must
/// answer at once (from a snapshot); `call` may answer later, from any thread, through `reply`.
public protocol DBusObjectHandler: AnyObject, Sendable {
    func call(interface: String, method: String, arguments: [DBusValue], reply: DBusReply)
    func property(interface: String, name: String) -> DBusValue?
    /// nil when the write was taken, else why not.
    func setProperty(interface: String, name: String, value: DBusValue) -> String?
}

/// The answer to one method call, given exactly once (GDBus frees the invocation with it).
public final class DBusReply: @unchecked Sendable {
    // @unchecked: the invocation is touched once, by whichever thread answers (GDBus allows any).
    private let invocation: OpaquePointer
    private let lock = NSLock()
    private var answered = false

    init(_ invocation: OpaquePointer) { self.invocation = invocation }

    private func once() -> Bool {
        lock.lock(); defer { lock.unlock() }
        if answered { return false }
        answered = true
        return true
    }

    /// An empty reply (MPRIS methods return nothing).
    public func succeed() {
        guard once() else { return }
        g_dbus_method_invocation_return_value(invocation, nil)
    }

    public func fail(_ name: String, _ message: String) {
        guard once() else { return }
        g_dbus_method_invocation_return_dbus_error(invocation, name, message)
    }
}

/// Why the bus could not be used.
public struct DBusFailure: Error, CustomStringConvertible {
    public var description: String
}

/// One object on the session bus under a well-known name, served by GDBus on a thread of its own
/// (its own GMainContext and loop): GDBus runs our vtable there, and nothing else of Earshot runs
/// on that thread. Signals are sent from any thread (GDBusConnection is thread-safe).
public final class DBusService: @unchecked Sendable {
    // @unchecked: `connection`, `loop` and `thread` are set once before init returns; `name` too.
    public private(set) var name = ""
    private var connection: OpaquePointer?
    private var loop: OpaquePointer?
    private var thread: Thread?
    private let handler: DBusObjectHandler
    private let path: String
    /// The vtable's user data, kept for good; each registration holds a retain of its own, which
    /// GDBus gives back through the free function.
    private let box: Unmanaged<HandlerBox>

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else systemd's `$XDG_RUNTIME_DIR/bus`
    /// when that socket exists; nil when there is none (GLib's own lookup would try to autolaunch
    /// a bus through X11, which a headless box must not do).
    public static func sessionBusAddress(_ environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            let socket = runtime + "/bus"
            var info = stat()
            if stat(socket, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK { return "unix:path=" + socket }
        }
        return nil
    }

    /// Connects to `address`, exports `handler` at `path` with the interfaces of `introspection`
    /// and takes `busName` (or `fallbackName` when another connection owns it). Throws when any
    /// of that fails; the caller says so in one line and goes on without.
    public init(address: String, busName: String, fallbackName: String, path: String, introspection: String,
                interfaces: [String], handler: DBusObjectHandler) throws(DBusFailure) {
        self.handler = handler
        self.path = path
        let ready = DispatchSemaphore(value: 0)
        let setup = SetupBox()
        let box = Unmanaged.passRetained(HandlerBox(handler))
        self.box = box
        let thread = Thread { [self] in
            let context = g_main_context_new()
            g_main_context_push_thread_default(context)
            defer {
                g_main_context_pop_thread_default(context)
                g_main_context_unref(context)
            }
            do throws(DBusFailure) {
                try self.connect(address: address, busName: busName, fallbackName: fallbackName,
                                 introspection: introspection, interfaces: interfaces, box: self.box)
            } catch {
                setup.failure = error
                ready.signal()
                return
            }
            let loop = g_main_loop_new(context, 0)
            self.loop = loop
            ready.signal()
            g_main_loop_run(loop)
            g_main_loop_unref(loop)
        }
        thread.name = "earshot.dbus"
        self.thread = thread
        thread.start()
        ready.wait()
        if let failure = setup.failure { throw failure }
    }

    private final class SetupBox: @unchecked Sendable { var failure: DBusFailure? }

    /// On the D-Bus thread, with its context pushed (so GDBus dispatches our vtable to it).
    private func connect(address: String, busName: String, fallbackName: String, introspection: String,
                         interfaces: [String], box: Unmanaged<HandlerBox>) throws(DBusFailure) {
        var error: UnsafeMutablePointer<GError>?
        let flags = Int32(EARSHOT_G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                          | EARSHOT_G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw Self.failure("cannot connect to the session bus at \(address)", error)
        }
        self.connection = connection
        guard let node = g_dbus_node_info_new_for_xml(introspection, &error) else {
            throw Self.failure("bad introspection data", error)
        }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, interface, method, parameters, invocation, data in
            guard let data, let interface, let method, let invocation else { return }
            let handler = Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue().handler
            let arguments = parameters.map { DBusValue.children($0).compactMap { $0 } } ?? []
            handler.call(interface: String(cString: interface), method: String(cString: method),
                         arguments: arguments, reply: DBusReply(invocation))
        }
        vtable.get_property = { _, _, _, interface, name, error, data in
            guard let data, let interface, let name else { return nil }
            let handler = Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue().handler
            guard let value = handler.property(interface: String(cString: interface), name: String(cString: name)) else {
                g_set_error_literal(error, g_dbus_error_quark(), Int32(EARSHOT_G_DBUS_ERROR_INVALID_ARGS),
                                    "no such property")
                return nil
            }
            return value.makeVariant()
        }
        vtable.set_property = { _, _, _, interface, name, value, error, data in
            guard let data, let interface, let name, let value else { return 0 }
            let handler = Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue().handler
            guard let read = DBusValue.read(value) else {
                g_set_error_literal(error, g_dbus_error_quark(), Int32(EARSHOT_G_DBUS_ERROR_INVALID_ARGS),
                                    "unexpected value type")
                return 0
            }
            if let refusal = handler.setProperty(interface: String(cString: interface), name: String(cString: name), value: read) {
                g_set_error_literal(error, g_dbus_error_quark(), Int32(EARSHOT_G_DBUS_ERROR_INVALID_ARGS), refusal)
                return 0
            }
            return 1
        }
        for interface in interfaces {
            guard let info = g_dbus_node_info_lookup_interface(node, interface) else {
                throw DBusFailure(description: "no interface \(interface) in the introspection data")
            }
            _ = box.retain() // this registration's; GDBus releases it with the free function
            let id = g_dbus_connection_register_object(connection, path, info, &vtable, box.toOpaque(), { data in
                if let data { Unmanaged<HandlerBox>.fromOpaque(data).release() }
            }, &error)
            guard id != 0 else { throw Self.failure("cannot export \(interface) at \(path)", error) }
        }
        name = try requestName(busName, connection) ? busName : fallbackName
        if name == fallbackName, !(try requestName(fallbackName, connection)) {
            throw DBusFailure(description: "both \(busName) and \(fallbackName) are taken on the session bus")
        }
    }

    /// RequestName without queueing: true when this connection owns `name` now.
    private func requestName(_ name: String, _ connection: OpaquePointer) throws(DBusFailure) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let arguments = DBusValue.tuple([.string(name), .uint32(4)]).makeVariant() // DO_NOT_QUEUE
        let reply = "(u)".withCString { type in
            g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                        "RequestName", arguments, earshot_variant_type(type), 0, 5000, nil, &error)
        }
        guard let reply else { throw Self.failure("cannot ask for the name \(name)", error) }
        defer { g_variant_unref(reply) }
        let code = DBusValue.children(reply).first??.int64 ?? 0
        return code == 1 || code == 4 // primary owner, or already it
    }

    private static func failure(_ what: String, _ error: UnsafeMutablePointer<GError>?) -> DBusFailure {
        defer { if let error { g_error_free(error) } }
        return DBusFailure(description: "\(what): \(String(cString: earshot_gio_error_message(error)))")
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface`.
    public func propertiesChanged(_ interface: String, _ changed: [String: DBusValue]) {
        guard !changed.isEmpty else { return }
        emit(MPRISInterface.properties, "PropertiesChanged", .tuple([.string(interface), .dictionary(changed), .strings([])]))
    }

    /// A signal from our object (its body a tuple).
    public func emit(_ interface: String, _ signal: String, _ body: DBusValue) {
        guard let connection else { return }
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_emit_signal(connection, nil, path, interface, signal, body.makeVariant(), &error) == 0 {
            Log.warning("mpris", Self.failure("cannot send \(signal)", error).description)
        }
    }

    /// Leaves the bus: the loop ends, the name and the object go with the connection.
    public func stop() {
        if let connection {
            _ = g_dbus_connection_flush_sync(connection, nil, nil)
            _ = g_dbus_connection_close_sync(connection, nil, nil)
        }
        if let loop { g_main_loop_quit(loop) }
    }
}

/// What GDBus holds as the vtable's user data.
private final class HandlerBox: Sendable {
    let handler: DBusObjectHandler
    init(_ handler: DBusObjectHandler) { self.handler = handler }
}
