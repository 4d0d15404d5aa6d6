import EarshotCore
import Foundation
import Library

/// The sync account as the library keeps it (settings row `sync.account`): the user name and the
/// password's yescrypt hash, never the password.
struct SyncAccount: Codable, Sendable, Equatable {
    var user: String
    var hash: String
    var created: Double

    static let settingKey = "sync.account"

    static func load(_ store: LibraryStore) async throws -> SyncAccount? {
        guard let text = try await store.setting(settingKey) else { return nil }
        return try JSONDecoder().decode(SyncAccount.self, from: Data(text.utf8))
    }

    func save(_ store: LibraryStore) async throws {
        try await store.setSetting(Self.settingKey, String(decoding: try JSONEncoder().encode(self), as: UTF8.self))
    }

    static func remove(_ store: LibraryStore) async throws { try await store.setSetting(settingKey, nil) }

    /// A password to show once: 20 letters and digits in groups of five (about 100 bits), none
    /// that look alike, easy to type on a phone.
    static func generatePassword() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var random = SystemRandomNumberGenerator()
        let letters = (0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
        return stride(from: 0, to: 20, by: 5).map { String(letters[$0..<$0 + 5]) }.joined(separator: "-")
    }

    /// Passwords a user chooses: at least 8 characters, at most 256 (yescrypt takes any length).
    static func checkChosen(_ password: String) -> String? {
        if password.count < 8 { return "choose a password of at least 8 characters, or leave it empty for one made for you" }
        if password.utf8.count > 256 { return "choose a password of at most 256 characters" }
        if password.contains(where: { $0.isNewline }) { return "a password cannot hold a line break" }
        return nil
    }
}

/// Setting the sync account without a server (`earshot sync-user NAME` on a headless box). A
/// running server reads the account on each request, so it takes the change at once (its old
/// sessions of another user name no longer match).
public enum SyncAccountSetup {
    /// Stores `user` with `password` (nil or empty: one is made). Returns the password made, to
    /// be shown once, or nil when the caller chose it. Throws a message for the user.
    public static func set(user name: String, password: String?, store: LibraryStore) async throws -> String? {
        guard let user = SyncUserName.clean(name) else { throw SyncSetupError(SyncUserName.rule) }
        let chosen = password.flatMap { $0.isEmpty ? nil : $0 }
        if let chosen, let problem = SyncAccount.checkChosen(chosen) { throw SyncSetupError(problem) }
        let secret = chosen ?? SyncAccount.generatePassword()
        try await SyncAccount(user: user, hash: PasswordHash.make(secret), created: Date().timeIntervalSince1970).save(store)
        return chosen == nil ? secret : nil
    }
}

public struct SyncSetupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
