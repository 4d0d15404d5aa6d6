import EarshotCore
import Foundation
import Library

extension PlaybackEngine {
    /// The `playlist.*` commands. Edits go to the library (the server then tells every client);
    /// `play` loads the playlist into Up Next through the queue, like any other queue change.
    func handlePlaylist(_ command: PlaylistCommand) async throws(CommandError) {
        if case .play(let id, let start) = command {
            try await playPlaylist(id, start: start)
            return
        }
        do {
            switch command {
            case .create(let name, let episodes): try await store.createPlaylist(name: name, episodes: episodes)
            case .rename(let id, let name): try await store.renamePlaylist(id: id, to: name)
            case .delete(let id): try await store.deletePlaylist(id: id)
            case .add(let id, let episodes): try await store.addToPlaylist(id: id, episodes: episodes)
            case .remove(let id, let episode): try await store.removeFromPlaylist(id: id, episode: episode)
            case .move(let id, let from, let to): try await store.movePlaylistItem(id: id, from: from, to: to)
            case .play: return
            }
        } catch let error as PlaylistError {
            throw CommandError(error.description)
        } catch {
            throw CommandError.internalFailure("could not change the playlist", error)
        }
    }

    /// Up Next becomes the playlist's shown episodes (what was queued before is dropped; shuffle
    /// and repeat stay as they were) and `start` — or the first — plays from where the listener
    /// left off. The episode playing until now is saved (and marked played in its last 30 s) as
    /// with any switch; it stays queued only if the playlist holds it.
    private func playPlaylist(_ id: Int64, start: Int64?) async throws(CommandError) {
        let found: Playlist?
        do { found = try await store.playlist(id: id) } catch { throw CommandError.internalFailure("could not read the library", error) }
        guard let playlist = found else { throw CommandError("no playlist with id \(id)") }
        guard !playlist.episodeIDs.isEmpty else { throw CommandError("the playlist \"\(playlist.name)\" is empty") }
        if let start, !playlist.episodeIDs.contains(start) {
            throw CommandError("episode \(start) is not in the playlist \"\(playlist.name)\"")
        }
        queue.load(playlist.episodeIDs, start: start)
        await queueChanged()
        if let first = queue.current { try await play(episodeID: first, fromQueue: true) }
        publishState()
    }
}
