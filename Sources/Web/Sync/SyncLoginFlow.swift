import EarshotCore
import Foundation

/// One Nextcloud Login Flow v2 under way (AntennaPod's Nextcloud sync logs in only this way): the
/// app asks for a flow, opens `login` in the phone's browser, where the listener gives the sync
/// account's name and password, and polls until the flow hands it those credentials, once.
struct SyncLoginFlow: Sendable {
    /// In the login page's address (a different secret from the poll token the app holds).
    var loginToken: String
    var started: Double
    var granted: SyncCredentials?

    /// AntennaPod polls for 5 minutes; a flow lives a little longer.
    static let lifetime = 20.0 * 60
    static let maxFlows = 32
}

extension SyncDesk {
    /// Starts a flow: (poll token, login token), both 64 hex digits (AntennaPod posts the poll token
    /// without URL-encoding it).
    func startFlow() -> (poll: String, login: String) {
        let now = Self.now()
        flows = flows.filter { now - $0.value.started < SyncLoginFlow.lifetime }
        if flows.count >= SyncLoginFlow.maxFlows, let oldest = flows.min(by: { $0.value.started < $1.value.started }) {
            flows[oldest.key] = nil
        }
        let poll = Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
        let login = Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
        flows[poll] = SyncLoginFlow(loginToken: login, started: now, granted: nil)
        return (poll, login)
    }

    /// Whether a login page's token belongs to a live flow.
    func flowExists(login: String) -> Bool {
        let now = Self.now()
        return flows.values.contains { secretsMatch($0.loginToken, login) && now - $0.started < SyncLoginFlow.lifetime }
    }

    /// The listener's answer on the login page: the credentials are checked as any sync login
    /// (throttled), then kept for the app's next poll.
    func grant(login: String, credentials: SyncCredentials, request: HTTPRequest) async throws(HTTPError) {
        guard let key = flows.first(where: { secretsMatch($0.value.loginToken, login) })?.key,
              let flow = flows[key], Self.now() - flow.started < SyncLoginFlow.lifetime else {
            throw HTTPError.notFound("this login has expired: start again in the app")
        }
        var checked = request
        checked.headers["authorization"] = credentials.basicHeader
        checked.headers["cookie"] = nil
        let caller: Caller
        do { caller = try await authenticate(checked, pathUser: nil) } catch where error.status == 401 {
            // No Basic challenge here: a browser's fetch would answer it with its own login prompt.
            throw HTTPError(401, error.message)
        }
        flows[key]?.granted = SyncCredentials(user: caller.user, password: credentials.password)
    }

    /// The app's poll: the credentials once granted (the flow then ends), else nil.
    func poll(_ token: String) -> SyncCredentials? {
        guard let flow = flows[token], let granted = flow.granted else { return nil }
        flows[token] = nil
        return granted
    }
}
