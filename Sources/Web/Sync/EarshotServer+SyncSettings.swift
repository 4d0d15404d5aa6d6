import EarshotCore
import Foundation
import Library

/// The sync account in the host's settings (the Devices view): off until the listener turns it on
/// with a user name and a password chosen or made (shown once); the addresses to type into the app.
extension EarshotServer {
    /// `GET /api/sync`: `{enabled, user?, created?, addresses, lan, devices, pending}`.
    func syncSettings(_ request: HTTPRequest) async throws -> HTTPResponse {
        Self.syncJSON(try await syncStatus(password: nil))
    }

    private struct AccountBody: Decodable { var user: String; var password: String? }

    /// `PUT /api/sync {user, password?}`: turns sync on, or changes the account (every session of
    /// the old one ends). No password: one is made and shown in this answer only.
    func saveSyncSettings(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try request.decodeJSON(AccountBody.self, hint: "send {\"user\": \"name\", \"password\": \"…\"} (password optional)")
        let made: String?
        do { made = try await SyncAccountSetup.set(user: body.user, password: body.password, store: store) } catch let refusal as SyncSetupError {
            throw HTTPError.badRequest(refusal.description)
        }
        await syncDesk.accountChanged()
        Log.info("sync", "the sync account is now \(body.user.trimmingCharacters(in: .whitespaces))")
        return Self.syncJSON(try await syncStatus(password: made))
    }

    /// `DELETE /api/sync`: sync off; the devices and the actions phones sent are forgotten (the
    /// library's positions and subscriptions stay as they are).
    func removeSyncSettings(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await SyncAccount.remove(store)
        try await store.forgetSyncData()
        await syncDesk.accountChanged()
        Log.info("sync", "sync turned off")
        return Self.syncJSON(try await syncStatus(password: nil))
    }

    private func syncStatus(password: String?) async throws -> JSONValue {
        let account = try await SyncAccount.load(store)
        var body: [String: JSONValue] = [
            "enabled": .bool(account != nil),
            "lan": .bool(configuration.lan),
            // What to type into the app: http:// and the port in full (AntennaPod takes host:port alone as https).
            "addresses": .array((configuration.lan ? lanNames() : ["127.0.0.1"]).map { .string("http://\($0):\(port)") }),
            "pending": .number(Double(await syncSubscriber.waiting)),
        ]
        if let account {
            body["user"] = .string(account.user)
            body["created"] = .number(account.created)
            body["devices"] = .array(try await store.syncDevices().map { device in
                .object(["id": .string(device.id), "caption": .string(device.caption), "type": .string(device.type),
                         "lastSync": .number(device.seen)])
            })
        } else {
            body["devices"] = .array([])
        }
        if let password { body["password"] = .string(password) }
        return .object(body)
    }
}
