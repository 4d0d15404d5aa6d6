import EarshotCore
import Foundation

/// What sync (a phone's episode actions, issue 16) needs of the player: whether an episode is
/// playing here (then the speakers win), the listener's played margin, and following a position a
/// phone moved when that episode is the one loaded (so "play" resumes where the phone stopped).
extension PlaybackEngine {
    /// Whether `episodeID` is loaded here and playing.
    public func isPlayingHere(_ episodeID: Int64) -> Bool {
        state.episode?.id == episodeID && state.isPlaying
    }

    /// The listener's played margin (what counts as the end).
    public var syncPlayedMargin: Double { playedMargin }

    /// A phone moved `episodeID` (the library holds it already). When it is the loaded episode and
    /// not playing, the player moves there too, without writing it back: the library's row keeps
    /// saying the phone did it.
    public func followSyncedProgress(episodeID: Int64, position: Double, played: Bool) {
        guard state.episode?.id == episodeID, !state.isPlaying else { return }
        moveHeldEpisode(to: played ? 0 : position)
    }

    /// Moves the episode held here (not playing) to a position the library already holds: the
    /// player seeks when the file is open, and the position counts as saved.
    func moveHeldEpisode(to target: Double) {
        state.position = target
        savedPosition = target
        if loaded {
            let (phase, sendNow) = loading.seekRequested(target)
            loading = phase
            if sendNow { player.seek(to: target) }
        }
        publishState()
    }
}
