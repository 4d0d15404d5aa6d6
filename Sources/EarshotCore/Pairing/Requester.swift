/// Who is asking, as far as the server can tell.
public enum Requester: Sendable, Equatable {
    /// This machine itself: a loopback peer that no proxy forwarded. May do everything.
    case host
    /// A paired device (its id in the library), shown by a valid cookie.
    case device(Int64)
    /// Anyone else on the network: may only pair.
    case stranger
}
