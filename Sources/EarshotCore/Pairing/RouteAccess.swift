/// Who may call a route: each row of the server's route table names one.
public enum RouteAccess: String, Sendable, Equatable, CaseIterable {
    /// Anyone who can reach the server, strangers too: the pairing page, its files, `POST /api/pair`.
    case anyone
    /// Sync clients (phone podcast apps, issue 16): anyone may knock, pairing or not, and the handler
    /// then demands the sync account's own credentials (Basic auth or its session cookie) — never
    /// the browser pairing cookie, and the host gets no pass either.
    case syncClient
    /// A page of the app: the host and paired devices get it; a stranger gets the pairing page instead.
    case pairedPage
    /// The host and paired devices; a stranger is refused (401: pair first).
    case paired
    /// This machine's own browser only; a paired device is refused (403).
    case host

    /// The more open of two (for a path whose rows differ): anyone > syncClient > pairedPage > paired > host.
    public func opener(_ other: RouteAccess) -> RouteAccess {
        let order: [RouteAccess] = [.anyone, .syncClient, .pairedPage, .paired, .host]
        return order.firstIndex(of: self)! <= order.firstIndex(of: other)! ? self : other
    }
}
