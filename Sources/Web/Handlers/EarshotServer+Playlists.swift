import EarshotCore
import Foundation

/// Playlists are read over HTTP and changed over the socket (`playlist.*`).
extension EarshotServer {
    private struct PlaylistsBody: Encodable { var playlists: [Playlist] }
    struct PlaylistBody: JSONTextWritable {
        var playlist: Playlist
        var episodes: [Episode]
        func writeJSON(into writer: inout JSONTextWriter) throws {
            try writer.writeEpisodes(of: playlist, as: "playlist", episodes)
        }
    }

    /// Tells every client that playlists changed (docs/protocol.md: `playlists`); they refetch
    /// `/api/playlists`. Sent after the command's `ack`, so its sender sees the change too.
    func playlistsChanged() {
        transport.send(.playlists)
    }

    func listPlaylists(_ request: HTTPRequest) async throws -> HTTPResponse {
        try .json(PlaylistsBody(playlists: try await store.playlists()))
    }

    func onePlaylist(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.id()
        guard let found = try await store.playlistWithEpisodes(id: id) else { throw HTTPError.notFound("no playlist \(id)") }
        return try .json(PlaylistBody(playlist: found.playlist, episodes: found.episodes))
    }
}
