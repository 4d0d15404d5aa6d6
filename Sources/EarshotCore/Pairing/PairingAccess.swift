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
        case (.host, _), (_, .syncClient?):
            // Sync rows: served to anyone, the handler asks for the sync account's credentials.
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
