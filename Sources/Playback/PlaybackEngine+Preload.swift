import EarshotCore
import Foundation

/// The next queued episode waits in mpv's playlist behind the playing one (`prefetch-playlist`
/// opens it while the current one ends), so the switch at an episode's end costs no open: mpv
/// moves on by itself and the engine adopts what it started. Only episodes that start from the
/// top are appended (an appended file starts at 0); anything else loads as usual.
extension PlaybackEngine {
    /// Hands mpv the episode `load` set up: adopts the preloaded file mpv already moved on to,
    /// or loads it. Clears the last error and notice (a failure moving the queue on keeps its error).
    func open(_ episode: Episode, at start: Double, paused: Bool) {
        if resilience.keepErrorOnce { resilience.keepErrorOnce = false } else { state.error = nil }
        state.notice = nil
        state.resumeOffer = nil
        resilience.pausedForLostOutput = false
        resilience.waitingForStart = true
        resilience.pausedForCache = false
        resilience.seekingSince = nil
        let adopt = resilience.mpvAdvancing && resilience.preloaded == episode.id && start < 0.5
        resilience.mpvAdvancing = false
        resilience.preloaded = nil
        resilience.preloadRejected = nil
        if adopt {
            // mpv is opening it already (playing: the sleep timer may want it paused).
            if paused { player.setPaused(true) }
        } else {
            player.load(resolveMedia(episode.mediaURL), start: start, paused: paused)
        }
    }

    /// At an episode's natural end: whether mpv is moving on to a preloaded file by itself. Asked
    /// of mpv, not assumed: an append that reached mpv only after the end left it idle
    /// (`playlist-pos` -1), and then the file must be loaded as usual.
    func noteEndOfFile() {
        guard resilience.preloaded != nil else { resilience.mpvAdvancing = false; return }
        resilience.mpvAdvancing = (player.playlistPosition() ?? -1) >= 1
    }

    /// After the engine decided what follows an end: a preloaded file it did not adopt must not
    /// play on (the queue changed, or nothing follows).
    func settlePreload() {
        guard resilience.mpvAdvancing else { return }
        resilience.mpvAdvancing = false
        resilience.preloaded = nil
        if !loaded { player.stop() }
    }

    /// Makes mpv's playlist hold what the queue says plays after the loaded episode (nothing when
    /// the queue ends, the sleep timer waits for this episode's end, or the next one resumes
    /// mid-way). Called when the loaded file starts and whenever the queue changes.
    func syncPreload() async {
        guard loading.isOpen, !resilience.waitingForStart, !resilience.restarting else { return }
        var upcoming = queue
        guard let id = upcoming.episodeEnded(), controls.sleep?.endsWithEpisode != true,
              id != resilience.preloadRejected else { return dropPreload() }
        guard id != resilience.preloaded else { return }
        let episode = try? await store.episode(id: id)
        // Only an episode that starts at 0 (not mid-way, not past its podcast's intro): mpv's
        // playlist starts appended files at their beginning.
        // mpv plays it through the chain it has: only one whose chain is the same goes ahead.
        guard let episode, Self.isPlayable(episode.mediaURL), filters(for: episode) == listening.applied,
              state.settings.skips(for: episode.podcastID).start(
                  from: ResumePoint.start(saved: episode.position, duration: episode.duration, played: episode.played, margin: playedMargin),
                  duration: episode.duration) < 0.5 else {
            resilience.preloadRejected = id
            return dropPreload()
        }
        // The library answered after a suspension: the file or the queue may have changed since.
        var again = queue
        guard loading.isOpen, again.episodeEnded() == id, id != resilience.preloaded else { return }
        dropPreload()
        player.append(resolveMedia(episode.mediaURL))
        resilience.preloaded = id
    }

    private func dropPreload() {
        guard resilience.preloaded != nil else { return }
        player.clearPlaylist()
        resilience.preloaded = nil
    }
}
