/// The `playlist.*` commands (docs/protocol.md), decoded. Names are cleaned (`PlaylistName`)
/// here, so a command that decodes carries a name fit to store.
public enum PlaylistCommand: Sendable, Equatable {
    /// A new playlist, optionally with its first episodes.
    case create(name: String, episodes: [Int64])
    case rename(playlist: Int64, name: String)
    case delete(playlist: Int64)
    /// Appends episodes; ones already in the playlist stay where they are.
    case add(playlist: Int64, episodes: [Int64])
    case remove(playlist: Int64, episode: Int64)
    /// Positions among the episodes the playlist shows.
    case move(playlist: Int64, from: Int, to: Int)
    /// Up Next becomes the playlist; `episode` (default: the first) plays.
    case play(playlist: Int64, episode: Int64?)

    /// Every command but `play` changes what the playlists are (clients refetch them).
    public var changesPlaylists: Bool {
        if case .play = self { return false }
        return true
    }

    /// At most this many episodes in one `create` or `add`.
    public static let maxEpisodesPerCommand = 1000

    /// Decodes the command `name` ("playlist.create", …) from a frame's fields.
    static func parse(name: String, fields: [String: JSONValue]) throws(CommandError) -> PlaylistCommand {
        func id(_ key: String) throws(CommandError) -> Int64 {
            guard let value = fields[key]?.number, value.isFinite, value == value.rounded(), value > 0, value < 9e15
            else { throw CommandError("\"\(name)\" needs an id \"\(key)\"") }
            return Int64(value)
        }
        func index(_ key: String) throws(CommandError) -> Int {
            guard let value = fields[key]?.number, value.isFinite, value == value.rounded(), value >= 0, value < 1e9
            else { throw CommandError("\"\(name)\" needs a position \"\(key)\" ≥ 0") }
            return Int(value)
        }
        func playlistName() throws(CommandError) -> String {
            guard let raw = fields["name"]?.string else { throw CommandError("\"\(name)\" needs a string \"name\"") }
            return try PlaylistName.clean(raw)
        }
        /// `episode` (one id) or `episodes` (a list of ids); none at all only when `optional`.
        func episodes(optional: Bool) throws(CommandError) -> [Int64] {
            if fields["episode"] != nil { return [try id("episode")] }
            guard let value = fields["episodes"] else {
                if optional { return [] }
                throw CommandError("\"\(name)\" needs \"episode\" or \"episodes\"")
            }
            guard case .array(let list) = value, list.count <= maxEpisodesPerCommand,
                  !list.isEmpty || optional else {
                throw CommandError("\"episodes\" must be a list of 1 to \(maxEpisodesPerCommand) episode ids")
            }
            var ids: [Int64] = []
            for item in list {
                guard let value = item.number, value.isFinite, value == value.rounded(), value > 0, value < 9e15
                else { throw CommandError("\"episodes\" must hold episode ids") }
                ids.append(Int64(value))
            }
            return ids
        }

        switch name {
        case "playlist.create": return .create(name: try playlistName(), episodes: try episodes(optional: true))
        case "playlist.rename": return .rename(playlist: try id("playlist"), name: try playlistName())
        case "playlist.delete": return .delete(playlist: try id("playlist"))
        case "playlist.add": return .add(playlist: try id("playlist"), episodes: try episodes(optional: false))
        case "playlist.remove": return .remove(playlist: try id("playlist"), episode: try id("episode"))
        case "playlist.move": return .move(playlist: try id("playlist"), from: try index("from"), to: try index("to"))
        case "playlist.play":
            return .play(playlist: try id("playlist"), episode: fields["episode"] == nil ? nil : try id("episode"))
        default: throw CommandError("unknown command \"\(name)\"")
        }
    }
}
