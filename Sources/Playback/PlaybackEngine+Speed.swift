import EarshotCore
import Foundation

/// The engine's bookkeeping for speed, volume and the sleep timer (one stored property of the actor).
struct PlaybackControls: Sendable {
    /// The speed episodes of podcasts without a speed of their own start at: the last one the
    /// listener chose while such an episode (or nothing) was loaded.
    var generalRate: Double = 1
    /// The sleep timer, nil when none is set.
    var sleep: SleepTimer?
    /// Carries the timer out while it is set (PlaybackEngine+Sleep).
    var sleepTask: Task<Void, Never>?
    /// The fraction of the listener's volume mpv plays at: below 1 only while the timer fades.
    var fadeLevel: Double = 1
}

extension PlaybackEngine {
    /// `rate`, `volume`, `mute` and `podcast.speed`.
    func handleSpeedAndVolume(_ command: ClientCommand) async throws(CommandError) {
        switch command {
        case .rate(let value):
            // A podcast's own speed stays its own: changing speed during one of its episodes is
            // for now only. Otherwise it is the speed such episodes start at from now on.
            if current.map({ state.settings.podcastSpeeds[$0.podcastID] == nil }) ?? true {
                controls.generalRate = value
            }
            setRate(value)
        case .volume(let value):
            state.volume = value
            applyVolume()
        case .mute(let on):
            state.muted = on
            player.setMuted(on)
        case .podcastSpeed(let podcast, let rate):
            try await setPodcastSpeed(podcast, rate)
        default:
            return
        }
        publishState()
    }

    /// Sets mpv's speed (the state follows at once; mpv's echo agrees). The rooms' clock learns
    /// where the new speed begins: what they hear for the next second is still the old one.
    func setRate(_ rate: Double) {
        lookAtListening() // the time until now counts at the old speed
        let changed = rate != state.rate
        state.rate = rate
        guard changed else { player.setSpeed(playerSpeed(for: rate)); return }
        setPlayerSpeed(playerSpeed(for: rate))
    }

    /// mpv's volume: the listener's, times the sleep timer's fade.
    func applyVolume() {
        player.setVolume(state.volume * controls.fadeLevel)
    }

    /// Before an episode loads: the speed its podcast starts at, or the general one.
    func applyStartingSpeed(for episode: Episode) {
        let rate = PlaybackSpeed.starting(podcast: episode.podcastID, settings: state.settings, general: controls.generalRate)
        if rate != state.rate { setRate(rate) }
    }

    /// Stores (or clears) a podcast's speed. Set while one of its episodes plays, it applies now.
    private func setPodcastSpeed(_ podcast: Int64, _ rate: Double?) async throws(CommandError) {
        try await requireSubscribed(podcast)
        var settings = state.settings
        settings.podcastSpeeds[podcast] = rate
        try await storeSettings(settings)
        if let rate, current?.podcastID == podcast, rate != state.rate { setRate(rate) }
    }

    /// A podcast's own settings (`podcast.speed`, `podcast.settings`) are for subscribed podcasts.
    func requireSubscribed(_ podcast: Int64) async throws(CommandError) {
        let found: Podcast?
        do { found = try await store.podcast(id: podcast) } catch { throw CommandError.internalFailure("could not read the library", error) }
        guard found != nil else { throw CommandError("no podcast with id \(podcast)") }
    }
}
