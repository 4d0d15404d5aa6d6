import EarshotCore
import Foundation
import Library

/// Hand-off to a phone's own player (issue 16): the speakers pause when a phone takes the episode,
/// the phone's reports keep the library's position true while it plays there, and the speakers
/// take it back at the phone's position.
extension PlaybackEngine {
    func handleHandoff(_ command: HandoffCommand) async throws(CommandError) {
        switch command {
        case .take(let id):
            _ = try await storedEpisode(id)
            if state.episode != nil, state.isPlaying { setPaused(true) }
            await savePosition(force: true)
        case .position(let id, let position):
            try await storeHandedPosition(id, position)
        case .give(let id, let position):
            try await storeHandedPosition(id, position)
            try await play(episodeID: id)
        }
    }

    private func storedEpisode(_ id: Int64) async throws(CommandError) -> Episode {
        let found: Episode?
        do { found = try await store.episode(id: id) } catch { throw CommandError.internalFailure("could not read the library", error) }
        guard let found else { throw CommandError("no episode with id \(id)") }
        return found
    }

    /// A phone's position: stored (as played when it is at the end), and followed by the player when
    /// the episode is loaded here and not playing. While the speakers play it, a phone's report is
    /// stale (the speakers took it back) and changes nothing.
    private func storeHandedPosition(_ id: Int64, _ position: Double) async throws(CommandError) {
        if state.episode?.id == id, state.isPlaying { return }
        let episode = try await storedEpisode(id)
        let duration = episode.duration > 0 ? episode.duration : (state.episode?.id == id ? state.duration : 0)
        let finished = ResumePoint.isFinished(position: position, duration: duration, margin: playedMargin)
        let target = finished ? 0 : (duration > 0 ? min(position, duration) : position)
        let stored = await persist("the position the phone reached in \(episode.title)") {
            if finished { try await store.setPlayed(episodeID: id, played: true) } else { try await store.savePosition(episodeID: id, position: target) }
        }
        guard stored, state.episode?.id == id else { return }
        moveHeldEpisode(to: target) // PlaybackEngine+Sync.swift
    }
}
