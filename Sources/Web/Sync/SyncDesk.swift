import EarshotCore
import Foundation
import Library

/// The door of the sync API (issue 16): who a sync request is, by HTTP Basic credentials or the
/// session cookie a successful login handed out; wrong passwords throttled per address as pairing
/// codes are; the Nextcloud login flows under way. The account itself is read from the library on
/// each request (`earshot sync-user` may change it while the server runs).
actor SyncDesk {
    /// Who a request turned out to be.
    struct Caller: Sendable {
        var user: String
        /// A `Set-Cookie` to send with the answer: a new session for Basic credentials. mygpoclient
        /// answers only three challenges in a client's life, AntennaPod sends credentials only to
        /// `login.json`: both then go on with the cookie.
        var setCookie: String?
    }

    private struct Session {
        var user: String
        /// The account's hash when the session began: a password changed since (even by
        /// `earshot sync-user` while the server runs) ends it.
        var hash: String
        var expires: Double
    }

    let store: LibraryStore
    /// Sessions by the SHA-256 of their token (the token lives in the client's cookie only).
    private var sessions: [String: Session] = [:]
    /// Proofs of passwords already checked against a hash (a keyed SHA-256 of user, password and
    /// hash): AntennaPod's Nextcloud mode sends Basic credentials on every request, and yescrypt is
    /// meant to be slow. A new hash (password changed) matches none of them.
    private var verified: Set<String> = []
    private let key: String
    private var throttle = PairingThrottle()
    /// Nextcloud Login Flow v2 sessions by poll token (SyncLoginFlow.swift).
    var flows: [String: SyncLoginFlow] = [:]
    var random = SystemRandomNumberGenerator()

    static let realm = "Earshot"
    static let maxSessions = 256

    init(store: LibraryStore) {
        self.store = store
        var random = SystemRandomNumberGenerator()
        key = Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// Seconds on the wall clock (sessions outlive nothing but the process).
    nonisolated static func now() -> Double { Date().timeIntervalSince1970 }

    /// 401 with the challenge every client understands (mygpoclient retries only when it sees
    /// `Basic realm=…`).
    static func challenge(_ message: String) -> HTTPError {
        HTTPError(401, message, headers: ["www-authenticate": "Basic realm=\"\(realm)\""])
    }

    /// The caller of a sync request, or the error to answer. `pathUser` is the `{user}` of
    /// gpodder.net's paths (nil for Nextcloud's, which name none); another user's is 400, as
    /// gpodder.net answers it.
    func authenticate(_ request: HTTPRequest, pathUser: String?) async throws(HTTPError) -> Caller {
        let account: SyncAccount?
        do { account = try await SyncAccount.load(store) } catch {
            Log.error("sync", "could not read the sync account: \(String(reflecting: error))")
            throw HTTPError(500, "the sync account could not be read")
        }
        guard let account else {
            throw Self.challenge("sync is not set up on this Earshot: turn it on in Earshot's settings (Devices), or run earshot sync-user")
        }
        let now = Self.now()
        if let token = SyncCredentials.session(inCookieHeader: request.headers["cookie"]),
           let session = sessions[SHA256.hex(token)], session.expires > now, session.user == account.user, session.hash == account.hash {
            sessions[SHA256.hex(token)]?.expires = now + Double(SyncCredentials.sessionLifetime)
            try Self.check(pathUser, account)
            return Caller(user: account.user, setCookie: nil)
        }
        guard let credentials = SyncCredentials.basic(request.headers["authorization"]) else {
            throw Self.challenge("log in with the sync account's user name and password")
        }
        let address = request.peer
        if let wait = throttle.retryAfter(address, now: now) {
            throw HTTPError(429, "too many wrong passwords: try again in \(Int(wait.rounded(.up))) s",
                            headers: ["retry-after": String(Int(wait.rounded(.up)))])
        }
        guard credentials.user == account.user, isRight(credentials.password, user: credentials.user, hash: account.hash) else {
            let wait = throttle.failed(address, now: now)
            Log.warning("sync", "wrong sync user name or password from \(address)\(wait > 0 ? " (waits \(Int(wait)) s)" : "")")
            throw Self.challenge("wrong user name or password")
        }
        throttle.succeeded(address)
        try Self.check(pathUser, account)
        return Caller(user: account.user, setCookie: SyncCredentials.setSessionCookie(newSession(for: account, now: now)))
    }

    private static func check(_ pathUser: String?, _ account: SyncAccount) throws(HTTPError) {
        if let pathUser, pathUser.lowercased() != account.user.lowercased() {
            throw HTTPError(400, "this address names another user than the one logged in")
        }
    }

    private func isRight(_ password: String, user: String, hash: String) -> Bool {
        let proof = SHA256.hex("\(key)\u{0}\(user)\u{0}\(password)\u{0}\(hash)")
        if verified.contains(proof) { return true }
        guard PasswordHash.verify(password, against: hash) else { return false }
        if verified.count > 64 { verified.removeAll() }
        verified.insert(proof)
        return true
    }

    private func newSession(for account: SyncAccount, now: Double) -> String {
        let token = Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
        if sessions.count >= Self.maxSessions {
            sessions = sessions.filter { $0.value.expires > now }
            if sessions.count >= Self.maxSessions, let oldest = sessions.min(by: { $0.value.expires < $1.value.expires }) {
                sessions[oldest.key] = nil
            }
        }
        sessions[SHA256.hex(token)] = Session(user: account.user, hash: account.hash, expires: now + Double(SyncCredentials.sessionLifetime))
        return token
    }

    /// Ends the session a request's cookie names (gpodder.net's `logout.json`).
    func logout(_ request: HTTPRequest) {
        if let token = SyncCredentials.session(inCookieHeader: request.headers["cookie"]) { sessions[SHA256.hex(token)] = nil }
    }

    /// The account changed or was turned off: every session and checked password is forgotten.
    func accountChanged() {
        sessions.removeAll()
        verified.removeAll()
        flows.removeAll()
    }
}
