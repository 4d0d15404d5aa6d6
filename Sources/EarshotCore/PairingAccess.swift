/// Who is asking, as far as the server can tell.
public enum Requester: Sendable, Equatable {
    /// This machine itself: a loopback peer that no proxy forwarded. May do everything.
    case host
    /// A paired device (its id in the library), shown by a valid cookie.
    case device(Int64)
    /// Anyone else on the network: may only pair.
    case stranger
}

/// What a request may get.
public enum AccessVerdict: Sendable, Equatable {
    /// The whole app.
    case serve
    /// Only what pairing needs: the pairing page, its files and `POST /api/pair`.
    case pairingOnly
    /// Refused at the door with this status and message.
    case refuse(status: Int, message: String)
}

/// Who may call a route: each row of the server's route table names one.
public enum RouteAccess: String, Sendable, Equatable, CaseIterable {
    /// Anyone who can reach the server, strangers too: the pairing page, its files, `POST /api/pair`.
    case anyone
    /// A page of the app: the host and paired devices get it; a stranger gets the pairing page instead.
    case pairedPage
    /// The host and paired devices; a stranger is refused (401: pair first).
    case paired
    /// This machine's own browser only; a paired device is refused (403).
    case host

    /// The more open of two (for a path whose rows differ): anyone > pairedPage > paired > host.
    public func opener(_ other: RouteAccess) -> RouteAccess {
        let order: [RouteAccess] = [.anyone, .pairedPage, .paired, .host]
        return order.firstIndex(of: self)! <= order.firstIndex(of: other)! ? self : other
    }
}

/// The pairing rules of docs/protocol.md as one pure decision: a stranger gets the pairing page and
/// nothing else; a paired device gets the app but cannot pair others, list or revoke devices; the
/// host gets everything. 401 means "pair first", 403 "paired, but not allowed".
public enum PairingAccess {
    /// The page path a stranger is sent to; the QR code's URL is this with `#s=<secret>`.
    public static let pairingPath = "/pair"
    /// The one API a stranger may call.
    public static let pairAPIPath = "/api/pair"

    /// What `requester` may get of a route whose row says `access` (nil: no row has this path).
    /// The route table (Web's `EarshotServer.routes`) says who may call each route; this is the rule.
    public static func verdict(_ requester: Requester, access: RouteAccess?) -> AccessVerdict {
        switch (requester, access) {
        case (.host, _):
            return .serve
        case (.device, .host?):
            return .refuse(status: 403, message: "only the Earshot machine's own browser can pair or remove devices")
        case (.device, _):
            return .serve
        case (.stranger, .anyone?), (.stranger, .pairedPage?):
            return .pairingOnly
        case (.stranger, _):
            return .refuse(status: 401, message: "this device is not paired with Earshot: open the page and enter the code shown on the Earshot machine")
        }
    }
}
