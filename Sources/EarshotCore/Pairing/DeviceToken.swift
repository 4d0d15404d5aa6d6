/// The long-lived secret a paired device shows in its cookie: 256 random bits as 64 hex digits.
/// The library stores only `hash` (SHA-256), so the token itself exists in the device's cookie alone.
public struct DeviceToken: Sendable, Hashable {
    /// 64 lower-case hex digits.
    public let value: String

    /// The cookie's name.
    public static let cookieName = "earshot_device"
    /// How long a browser keeps the cookie: 400 days, the most Chromium allows. Every page load of
    /// a paired device sets it again, so a phone in use never loses it.
    public static let cookieLifetime = 400 * 24 * 3600

    /// A fresh token from `generator` (the system's CSPRNG in the server).
    public static func generate<G: RandomNumberGenerator>(using generator: inout G) -> DeviceToken {
        DeviceToken(unchecked: Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    private init(unchecked value: String) { self.value = value }

    /// A token as a client sent it; nil unless it has the exact shape of one.
    public init?(_ value: some StringProtocol) {
        guard Hex.isHex(value, count: 64) else { return nil }
        self.value = String(value)
    }

    /// What the library keeps: the SHA-256 of the token, in hex.
    public var hash: String { SHA256.hex(value) }

    /// The token in a `Cookie` header ("a=1; earshot_device=…"), or nil (absent or malformed).
    public static func fromCookieHeader(_ header: String?) -> DeviceToken? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingSpaces == cookieName else { continue }
            if let token = DeviceToken(parts[1].trimmingSpaces) { return token }
        }
        return nil
    }

    /// The `Set-Cookie` value that hands this token to a browser: script cannot read it (HttpOnly),
    /// no other site's page or link sends it (SameSite=Strict), every path of this server gets it.
    public var setCookie: String {
        "\(Self.cookieName)=\(value); Path=/; Max-Age=\(Self.cookieLifetime); HttpOnly; SameSite=Strict"
    }

    /// The `Set-Cookie` value that makes a browser forget a token (a revoked or unknown one).
    public static let clearCookie = "\(cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's `trimmingCharacters` is not here).
    var trimmingSpaces: Substring {
        let text = Substring(self)
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return start < end ? text[start..<end] : text[start..<start]
    }
}

/// Constant-time equality for secrets: the time taken does not tell how many leading bytes matched.
public func secretsMatch(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for i in x.indices { difference |= x[i] ^ y[i] }
    return difference == 0
}
