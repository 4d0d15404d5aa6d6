/// What a request may get.
public enum AccessVerdict: Sendable, Equatable {
    /// The whole app.
    case serve
    /// Only what pairing needs: the pairing page, its files and `POST /api/pair`.
    case pairingOnly
    /// Refused at the door with this status and message.
    case refuse(status: Int, message: String)
}
