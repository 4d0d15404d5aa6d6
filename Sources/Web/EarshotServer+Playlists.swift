import EarshotCore
import Foundation

extension EarshotServer {
    private struct PlaylistsBody: Encodable { var playlists: [Playlist] }
    private struct PlaylistBody: Encodable { var playlist: Playlist; var episodes: [Episode] }

    /// Tells every client that playlists changed (docs/protocol.md: `playlists`); they refetch
    /// `/api/playlists`. Sent after the command's `ack`, so its sender sees the change too.
    func playlistsChanged() {
        transport.enqueue(SocketOutbox.Message(kind: .other, text: #"{"type":"playlists"}"#), to: nil)
    }

    /// `GET /api/playlists` and `GET /api/playlists/{id}`; nil when the request is not about
    /// playlists. Playlists change over the socket (`playlist.*`), so other methods are 405.
    func playlistsAPI(_ request: HTTPRequest, _ parts: [String]) async throws -> HTTPResponse? {
        guard parts.first == "playlists" else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .error(405, "\(request.method) is not allowed on \(request.path): change playlists with playlist.* commands over /ws")
        }
        switch parts.count {
        case 1:
            return .json(PlaylistsBody(playlists: try await store.playlists()))
        case 2:
            guard let id = Int64(parts[1]), let found = try await store.playlistWithEpisodes(id: id)
            else { return .error(404, "no playlist \(parts[1])") }
            return .json(PlaylistBody(playlist: found.playlist, episodes: found.episodes))
        default:
            return .error(404, "no such endpoint: \(request.path)")
        }
    }
}
