import FoundationEssentials

/// What a sync client shows to say who it is: HTTP Basic credentials (`Authorization: Basic …`,
/// every request for AntennaPod and Nextcloud's API) or the session cookie a login handed out
/// (gpodder.net's `sessionid`). Never the browser pairing cookie: that one is for the web app.
public struct SyncCredentials: Sendable, Equatable {
    public var user: String
    public var password: String

    public init(user: String, password: String) { self.user = user; self.password = password }

    /// The session cookie's name, as gpodder.net calls it (clients keep whatever cookie they get).
    public static let sessionCookie = "sessionid"
    /// How long a session lasts without being used.
    public static let sessionLifetime = 14 * 24 * 3600

    /// The credentials of an `Authorization` header; nil unless it is Basic with `user:password`.
    public static func basic(_ header: String?) -> SyncCredentials? {
        guard let header = header?.trimmed else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmed), data.count <= 1024 else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        return SyncCredentials(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
    }

    /// The `Authorization` header for these credentials (what clients send; for tests).
    public var basicHeader: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }

    /// The session token in a `Cookie` header: 64 hex digits, or nil.
    public static func session(inCookieHeader header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingSpaces == sessionCookie else { continue }
            let value = parts[1].trimmingSpaces
            if Hex.isHex(value, count: 64) { return String(value) }
        }
        return nil
    }

    /// The `Set-Cookie` for a session: HttpOnly, SameSite=Strict (no page of another site sends it).
    public static func setSessionCookie(_ token: String) -> String {
        "\(sessionCookie)=\(token); Path=/; Max-Age=\(sessionLifetime); HttpOnly; SameSite=Strict"
    }

    public static let clearSessionCookie = "\(sessionCookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
}

/// The sync account's name: what clients put in their URLs (`/api/2/devices/{user}.json`), so
/// letters, digits, `.`, `_` and `-`, 1 to 64 of them, not starting with a dot.
public enum SyncUserName {
    public static func clean(_ name: String) -> String? {
        let text = name.trimmed
        guard (1...64).contains(text.count), !text.hasPrefix("."),
              text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) })
        else { return nil }
        return text
    }

    /// Why a name is refused, in words for the settings form.
    public static let rule = "a user name is 1 to 64 letters, digits, dots, dashes or underscores (not starting with a dot)"
}

/// A device id as clients make them (AntennaPod: "antennapod-…"; gpodder.net allows letters,
/// digits, dots, dashes and underscores).
public enum SyncDeviceID {
    public static func clean(_ id: String) -> String? {
        guard (1...64).contains(id.count),
              id.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) })
        else { return nil }
        return id
    }
}
