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
}
