import CCrypt
import EarshotCore
import Foundation

/// The sync account's password as the library keeps it: a yescrypt hash from libxcrypt, the
/// system's own password hashing (salted, memory-hard, its cost chosen by the library), written as
/// `$y$…` with the salt and parameters in it. The only file that imports `CCrypt`.
public enum PasswordHash {
    /// A new hash of `password` with a fresh salt from the system's random source.
    public static func make(_ password: String) throws -> String {
        // "$y$" with count 0 and no random bytes: libxcrypt picks its default cost and reads
        // /dev/urandom (getrandom) for the salt itself.
        guard let setting = crypt_gensalt_ra("$y$", 0, nil, 0) else {
            throw PasswordHashError.unavailable("no salt from libxcrypt (errno \(errno))")
        }
        defer { free(setting) }
        return try hash(password, setting: String(cString: setting))
    }

    /// Whether `password` is the one `stored` was made from (compared in constant time).
    public static func verify(_ password: String, against stored: String) -> Bool {
        guard stored.hasPrefix("$") else { return false }
        do {
            return secretsMatch(try hash(password, setting: stored), stored)
        } catch {
            Log.error("sync", "the stored password hash cannot be checked: \(error)")
            return false
        }
    }

    private static func hash(_ password: String, setting: String) throws -> String {
        // crypt_r's own buffer (32 KiB) on the heap: this runs on the cooperative pool's small stacks.
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer { data.deallocate() }
        memset(data, 0, MemoryLayout<crypt_data>.size)
        guard let result = crypt_r(password, setting, data) else {
            throw PasswordHashError.unavailable("libxcrypt refused the setting (errno \(errno))")
        }
        let text = String(cString: result)
        // Failure is a string starting with "*" (never a valid hash).
        guard text.hasPrefix("$") else { throw PasswordHashError.unavailable("libxcrypt could not hash") }
        return text
    }
}

public enum PasswordHashError: Error, CustomStringConvertible {
    case unavailable(String)
    public var description: String {
        switch self { case .unavailable(let why): "password hashing failed: \(why)" }
    }
}
