import FoundationEssentials

/// Who hears an actor's messages (the web server, tests): added and removed by id, each told
/// every message in turn. The engine and the download manager each keep one.
public struct Listeners<Message: Sendable>: Sendable {
    public typealias Listener = @Sendable (Message) -> Void

    private var table: [UUID: Listener] = [:]

    public init() {}

    /// Adds `listener`; the id removes it again.
    public mutating func add(_ listener: @escaping Listener) -> UUID {
        let id = UUID()
        table[id] = listener
        return id
    }

    public mutating func remove(_ id: UUID) { table[id] = nil }

    /// Tells every listener.
    public func send(_ message: Message) {
        for listener in table.values { listener(message) }
    }
}
