import FoundationEssentials

/// The rules for a playlist's name: what the listener typed, trimmed, with runs of white space
/// (newlines and tabs included) made one space; not empty, at most `maxLength` characters, no
/// control characters. Two playlists may not share a name ignoring case (`key`), so a name
/// picks out one playlist in the "Add to playlist" list.
public enum PlaylistName {
    /// Characters (as the listener counts them: grapheme clusters), after cleaning.
    public static let maxLength = 100

    /// The name as it is stored, or why `raw` cannot be one.
    public static func clean(_ raw: String) throws(CommandError) -> String {
        let words = raw.split(whereSeparator: { $0.isWhitespace })
        let name = words.joined(separator: " ")
        guard !name.isEmpty else { throw CommandError("a playlist needs a name") }
        guard name.count <= maxLength else { throw CommandError("a playlist name has at most \(maxLength) characters") }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw CommandError("a playlist name cannot contain control characters")
        }
        return name
    }

    /// What two names must differ in to both exist: the name in one Unicode form (NFC), lowercased.
    public static func key(_ name: String) -> String {
        // The standard library's own NFC (what its `==` compares by): Foundation's
        // `precomposedStringWithCanonicalMapping` would tie EarshotCore to Foundation proper.
        String(decoding: name._nfcCodeUnits, as: UTF8.self).lowercased()
    }
}
