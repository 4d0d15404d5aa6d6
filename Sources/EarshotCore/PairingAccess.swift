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

/// The pairing rules of docs/protocol.md as one pure decision: a stranger gets the pairing page and
/// nothing else; a paired device gets the app but cannot pair others, list or revoke devices; the
/// host gets everything. 401 means "pair first", 403 "paired, but not allowed".
public enum PairingAccess {
    /// Files the pairing page loads. Nothing else under `Public/` reaches a stranger.
    public static let pairingFiles: Set<String> = [
        "/js/pair.js", "/js/views/pairing.js", "/css/base.css", "/css/pairing.css", "/icons/earshot.svg",
    ]

    /// The page path a stranger is sent to; the QR code's URL is this with `#s=<secret>`.
    public static let pairingPath = "/pair"
    /// The one API a stranger may call.
    public static let pairAPIPath = "/api/pair"

    /// - Parameter isPage: whether `path` is one of the app's pages (the server's routing knows).
    public static func verdict(_ requester: Requester, method: String, path: String, isPage: Bool) -> AccessVerdict {
        switch requester {
        case .host:
            return .serve
        case .device:
            if isHostOnly(path) {
                return .refuse(status: 403, message: "only the Earshot machine's own browser can pair or remove devices")
            }
            return .serve
        case .stranger:
            let reading = method == "GET" || method == "HEAD"
            if path == pairAPIPath { return .pairingOnly }
            if reading && (isPage || path == pairingPath || pairingFiles.contains(path)) { return .pairingOnly }
            return .refuse(status: 401, message: "this device is not paired with Earshot: open the page and enter the code shown on the Earshot machine")
        }
    }

    /// Device management and code issuing: the host's alone.
    public static func isHostOnly(_ path: String) -> Bool {
        for prefix in ["/api/devices", "/api/pairing"] where path == prefix || path.hasPrefix(prefix + "/") { return true }
        return false
    }
}
