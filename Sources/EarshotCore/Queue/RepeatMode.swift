/// What happens when an episode ends: nothing more, the same episode again, or the queue over.
/// Raw values are the wire and database spelling ("off", "one", "all").
public enum RepeatMode: String, Sendable, Codable, CaseIterable {
    case off, one, all
}
