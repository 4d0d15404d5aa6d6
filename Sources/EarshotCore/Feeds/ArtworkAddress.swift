import FoundationEssentials

/// Where the server keeps and serves its copies of a feed's artwork: `/artwork/{key}/{size}.jpg`,
/// `key` being a hash of the original address. Pure: the library, the engine and the web server
/// all name the same files.
public enum ArtworkAddress {
    /// The widths (and heights: artwork is square, others fit inside) kept: 96 for list rows
    /// (48 CSS px at 2×), 256 for tiles and Media Session's small slot, 512 for the player and
    /// Media Session's large one.
    public static let sizes = [96, 256, 512]

    /// The key of an http(s) artwork address (16 hex digits, FNV-1a 64 of its UTF-8); nil for any
    /// other address (artwork is fetched over http(s) only).
    public static func key(for url: String) -> String? {
        let lower = url.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The served folder of an artwork address, e.g. "/artwork/3f2a…"; its sizes are
    /// "…/96.jpg", "…/256.jpg", "…/512.jpg". Nil when the address is not http(s).
    public static func path(for url: String?) -> String? {
        url.flatMap(key(for:)).map { "/artwork/\($0)" }
    }

    /// Whether `text` has the shape of a key (what the route accepts before touching the disk).
    public static func isKey(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The kept size for a wanted one: the smallest at least as large, else the largest.
    public static func size(atLeast wanted: Int) -> Int {
        sizes.first { $0 >= wanted } ?? sizes[sizes.count - 1]
    }
}
