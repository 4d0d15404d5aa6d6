import EarshotCore
import Foundation
import Library

/// Nextcloud's gpoddersync API, AntennaPod's other sync option: the same subscriptions and episode
/// actions with Basic credentials on every request and no device or user in the path, and the
/// Login Flow v2 AntennaPod logs in with (the listener types the sync account's name and password
/// into a page of Earshot in the phone's browser, and the app receives them).
extension EarshotServer {
    /// Nextcloud's API names no device: its uploads are this device's.
    static let nextcloudDevice = "nextcloud"

    /// `GET /index.php/apps/gpoddersync/subscriptions?since=`: `{add, remove, timestamp}`.
    func nextcloudSubscriptions(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request, user: false) { _ in
            try await subscriptionChangesAnswer(since: Self.syncSince(request), device: Self.nextcloudDevice)
        }
    }

    /// `POST /index.php/apps/gpoddersync/subscription_change/create {add, remove}`: `{timestamp}`.
    func nextcloudSubscriptionChange(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request, user: false) { _ in
            _ = try await receiveSubscriptionUpload(request, device: Self.nextcloudDevice)
            return Self.syncJSON(.object(["timestamp": .number(Date().timeIntervalSince1970.rounded(.down))]))
        }
    }

    /// `GET /index.php/apps/gpoddersync/episode_action?since=`: `{actions, timestamp}`.
    func nextcloudEpisodeActions(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request, user: false) { _ in try await episodeActionsAnswer(since: Self.syncSince(request)) }
    }

    /// `POST /index.php/apps/gpoddersync/episode_action/create [actions]`: `{timestamp}`.
    func nextcloudUploadEpisodeActions(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request, user: false) { _ in
            let timestamp = try await receiveEpisodeActionUpload(request, device: Self.nextcloudDevice)
            return Self.syncJSON(.object(["timestamp": .number(Double(timestamp))]))
        }
    }

    // MARK: Login Flow v2

    /// This server as the phone reached it (the Host it sent), for the absolute addresses the flow needs.
    func syncBaseURL(_ request: HTTPRequest) -> String {
        "http://" + (request.headers["host"] ?? "127.0.0.1:\(port)")
    }

    /// `POST /index.php/login/v2`: `{poll: {token, endpoint}, login}`, both addresses absolute.
    func nextcloudLoginStart(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard try await SyncAccount.load(store) != nil else {
            throw HTTPError(503, "sync is not set up on this Earshot: turn it on in Earshot's settings (Devices) first")
        }
        let (poll, login) = await syncDesk.startFlow()
        let base = syncBaseURL(request)
        return Self.syncJSON(.object([
            "poll": .object(["token": .string(poll), "endpoint": .string(base + "/index.php/login/v2/poll")]),
            "login": .string(base + "/index.php/login/v2/flow/" + login),
        ]))
    }

    /// `POST /index.php/login/v2/poll` (form `token=…`): 404 until the listener logged in, then once
    /// `{server, loginName, appPassword}`.
    func nextcloudLoginPoll(_ request: HTTPRequest) async throws -> HTTPResponse {
        let form = String(decoding: request.body, as: UTF8.self)
        let token = form.split(separator: "&").compactMap { pair -> String? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0] == "token" ? String(parts[1]) : nil
        }.first ?? request.query["token"] ?? ""
        guard let granted = await syncDesk.poll(token.trimmingCharacters(in: .whitespaces)) else { throw HTTPError.notFound("not logged in yet") }
        return Self.syncJSON(.object([
            "server": .string(syncBaseURL(request)), "loginName": .string(granted.user), "appPassword": .string(granted.password),
        ]))
    }

    /// `GET /index.php/login/v2/flow/{token}`: the page the app opens in the phone's browser.
    func nextcloudLoginPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let token = request.parameters["token"] ?? ""
        let live = Hex.isHex(token, count: 64) ? await syncDesk.flowExists(login: token) : false
        let html = try templates.render("sync-login", [
            "token": .string(token), "live": .bool(live), "version": .string(assetVersion),
        ])
        return HTTPResponse(status: live ? 200 : 404, contentType: "text/html; charset=utf-8",
                            headers: [("cache-control", "no-store")], body: Data(html.utf8))
    }

    private struct GrantBody: Decodable { var token: String; var user: String; var password: String }

    /// `POST /index.php/login/v2/grant {token, user, password}` (the login page): 200 `{user}` when
    /// the credentials are right; 401 or 429 as any sync login.
    func nextcloudLoginGrant(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try request.decodeJSON(GrantBody.self, hint: "send {\"token\", \"user\", \"password\"}")
        try await syncDesk.grant(login: body.token, credentials: SyncCredentials(user: body.user.trimmingCharacters(in: .whitespaces), password: body.password),
                                 request: request)
        return Self.syncJSON(.object(["user": .string(body.user.trimmingCharacters(in: .whitespaces))]))
    }
}
