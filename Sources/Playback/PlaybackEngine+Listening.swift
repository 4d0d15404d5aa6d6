import EarshotCore
import Foundation

/// The engine's bookkeeping for skip silence and leveling (one stored property of the actor).
struct ListeningSession: Sendable {
    /// The filter chain mpv has now (its `af`).
    var applied = AudioFilterChain()
    /// Skip silence's decisions for the loaded episode.
    var silence = SilenceRun()
    /// When the pause playing fast now sped up.
    var fastSince: Date?
}

extension PlaybackEngine {
    /// The chain an episode plays through: its podcast's skip silence and leveling (or the
    /// defaults), with its measured gain when it has one.
    func filters(for episode: Episode) -> AudioFilterChain {
        state.settings.filters(for: episode.podcastID, measured: measuredLoudness(episode.mediaURL))
    }

    /// Gives mpv the chain `episode` plays through (before it loads, or when a setting changed
    /// while it plays) and starts skip silence afresh at `position`. Setting the same chain again
    /// is skipped: mpv rebuilds its filters on every change, a moment without sound.
    func applyFilters(for episode: Episode, at position: Double) {
        let chain = filters(for: episode)
        if chain != listening.applied {
            player.setFilters(chain.mpvValue)
            listening.applied = chain
        }
        state.levelGain = chain.gain
        silenceRestarted(at: position)
    }

    /// Playing (re)starts at `position`: a pause playing fast is left at the listener's speed.
    func silenceRestarted(at position: Double) {
        if listening.silence.isFast { setPlayerSpeed(state.rate) }
        listening.silence.restart(at: position)
        listening.fastSince = nil
    }

    /// What `silencedetect` reported: a pause plays fast until its end is found, then playing
    /// goes on a little before that end at the listener's speed.
    func silenceReported(start: Double?, end: Double?) async {
        let level = listening.applied.skipSilence
        guard loaded, current != nil, level != .off, loading.positionsAreCurrent else { return }
        lookAtListening() // the time until now was played at the speed it had
        switch listening.silence.report(start: start, end: end, level: level) {
        case .speedUp?:
            silenceSpedUpForListening()
            listening.fastSince = Date()
            setPlayerSpeed(min(state.rate * SilenceSkipping.fastFactor, SilenceSkipping.maximumSpeed))
        case .resume(let target, _, _)?:
            silenceEndedForListening(at: target)
            listening.fastSince = nil
            setPlayerSpeed(state.rate)
            await seek(to: target, restartingSilence: false)
        case nil:
            break
        }
    }

    /// The speed mpv plays at (the listener's, or a pause's): the rooms' clock learns it too.
    func setPlayerSpeed(_ speed: Double) {
        player.setSpeed(speed)
        guard playingToRooms, loaded, loading.positionsAreCurrent else { return }
        roomsLink.clock.speedChanged(at: player.timePosition() ?? state.position, to: speed)
    }

    /// mpv's position while a pause plays fast is its last written audio less what its buffer
    /// holds at the *new* speed (16× the old): seconds too early, even below zero. A pause only
    /// moves on, and it ends in a seek that sets the position exactly, so until then the
    /// position shown never goes back.
    func steadyPosition(_ position: Double) -> Double {
        listening.silence.isFast ? max(position, state.position) : position
    }

    /// The speed mpv should play at for the listener's `rate` now.
    func playerSpeed(for rate: Double) -> Double {
        listening.silence.isFast ? min(rate * SilenceSkipping.fastFactor, SilenceSkipping.maximumSpeed) : rate
    }

    /// After the settings changed: the loaded episode's chain follows them now.
    func settingsChangedFilters() {
        guard let episode = current, loaded else { return }
        let chain = filters(for: episode)
        guard chain != listening.applied else { return }
        player.setFilters(chain.mpvValue)
        listening.applied = chain
        state.levelGain = chain.gain
        silenceRestarted(at: state.position)
    }
}
