/// A device paired with this Earshot, as listed to the host.
public struct PairedDevice: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String
    /// Unix seconds.
    public var created: Double
    /// Unix seconds: the last request or socket seen from it.
    public var lastSeen: Double

    public init(id: Int64, name: String, created: Double, lastSeen: Double) {
        self.id = id; self.name = name; self.created = created; self.lastSeen = lastSeen
    }
}
