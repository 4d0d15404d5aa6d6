import EarshotCore
import Foundation

/// The engine's bookkeeping for outputs, buffering, failures, mpv's health and the preloaded
/// next episode (one stored property of the actor; the files `+Outputs`, `+Recovery`, `+Preload`).
struct PlaybackResilience: Sendable {
    /// The device mpv is told to use: the chosen one, or "auto" standing in while it is gone.
    var activeOutput = AudioDevice.automatic
    /// Playback paused because the output in use was unplugged (and has not resumed since).
    var pausedForLostOutput = false
    /// Between a load and mpv's first `playback-restart` of it: opening, reading, the first seek.
    var waitingForStart = false
    /// mpv's `paused-for-cache` (its cache ran dry), and since when its `seeking` has been true.
    var pausedForCache = false
    var seekingSince: Date?
    /// Episodes that failed one after another; the queue stops moving on when all have.
    var failuresInARow = 0
    /// A failure moved the queue on: the next load keeps the error where every client sees it.
    var keepErrorOnce = false
    /// Probes mpv every second and restarts it when it quits or stops answering.
    var watchdog: Task<Void, Never>?
    var restarting = false
    var shuttingDown = false
    /// How often mpv was restarted since the engine started.
    var restarts = 0
    /// Restarts for not answering since an mpv last answered a probe (`countsAsHung`).
    var hungRestartsInARow = 0
    /// The episode appended to mpv's playlist after the playing one (PlaybackEngine+Preload),
    /// and the last one found unfit for it (it resumes mid-way, or its address is not playable).
    var preloaded: Int64?
    var preloadRejected: Int64?
    /// mpv reached the end with `preloaded` behind it: it is opening that one by itself.
    var mpvAdvancing = false
}

extension PlaybackEngine {
    /// How often the watchdog probes mpv, and how long an answer may take before mpv counts as hung
    /// while an episode is loaded (`countsAsHung`).
    static let probeInterval: Duration = .seconds(1)
    public static let probeTimeout: TimeInterval = 3
    /// How long an answer may take while nothing is loaded.
    public static let idleProbeTimeout: TimeInterval = 15

    /// Whether mpv, its probe unanswered for `age` seconds, counts as hung and is replaced. With an
    /// episode loaded, after `probeTimeout`: playback is at stake. With nothing loaded, only after
    /// `idleProbeTimeout`: at start-up mpv's first listing of the audio outputs connects to the sound
    /// server and holds its core until the server answers, and a server still starting (a desktop
    /// session's at login, a loaded machine) takes seconds. A new mpv only starts that listing over,
    /// and the notice then said the player had stopped when nothing had played (seen with the test
    /// sound server held for 6 s at start: mpv replaced at 3 s; the outputs came once it answered
    /// either way). Loading an episode makes the shorter wait count at once.
    ///
    /// `restartsInARow`: mpv was replaced that many times for not answering, none of them answering
    /// since. Each waits twice as long as the one before (up to 16×): what holds them all is outside
    /// (a sound server that stopped answering holds every new mpv's core as it opens the output), and
    /// each replaced one stays behind, threads and memory, until its core is freed — with a 3 s wait
    /// a 20 s hold left four of them behind (24 threads, 100 MB resident).
    static func countsAsHung(unansweredFor age: TimeInterval, loaded: Bool, restartsInARow: Int = 0) -> Bool {
        let backoff = Double(1 << min(max(restartsInARow, 0), 4))
        return age > (loaded ? probeTimeout : idleProbeTimeout) * backoff
    }
    /// The most failures kept in `state.failures` (the oldest go first).
    static let failuresKept = 100

    // MARK: - Buffering

    /// A seek counts as waiting for data once it has taken this long: a local file's seek takes
    /// milliseconds and never shows (nor costs two `state` messages); a stream's does.
    static let slowSeek: Duration = .milliseconds(300)

    /// `state.buffering`: an episode is loaded and mpv waits for data — opening it (until its
    /// first `playback-restart`), its cache ran dry (`paused-for-cache`) or a seek is taking a
    /// while (`seeking` for longer than `slowSeek`). mpv's `core-idle` is not used: it is also true
    /// whenever playback is paused, so each resume would flash a spinner before mpv's echo, and
    /// the three above cover every wait for data.
    func updateBuffering() {
        let slow = Double(Self.slowSeek.components.attoseconds) / 1e18 + Double(Self.slowSeek.components.seconds)
        let seekingLong = resilience.seekingSince.map { Date().timeIntervalSince($0) >= slow - 0.01 } ?? false
        let waiting = loaded && (resilience.waitingForStart || resilience.pausedForCache || seekingLong)
        if waiting != state.buffering {
            state.buffering = waiting
            publishState()
        }
    }

    /// mpv's `seeking` changed: a seek still under way after `slowSeek` shows as buffering.
    func seekingChanged(_ seeking: Bool) {
        if seeking {
            guard resilience.seekingSince == nil else { return }
            resilience.seekingSince = Date()
            Task { [weak self] in
                try? await Task.sleep(for: Self.slowSeek)
                await self?.updateBuffering()
            }
        } else {
            resilience.seekingSince = nil
            updateBuffering()
        }
    }

    /// mpv restarted playback of the loaded file: it plays (or is ready to), so it did not fail.
    /// Returns whether that took away its failure mark (to be saved).
    @discardableResult
    func playbackStarted() -> Bool {
        resilience.waitingForStart = false
        guard loaded, let id = current?.id else { return false }
        resilience.failuresInARow = 0
        guard state.failures.removeValue(forKey: id) != nil else { return false }
        publishState()
        return true
    }

    /// Where the marks of episodes that could not play are kept between runs (a settings row), so a
    /// restart does not forget which episodes failed, and why, until they play.
    static let failuresSetting = "playback.failures"

    /// Reads the saved marks; missing or unreadable ones are none, never an error.
    func restoreFailures() async {
        guard let json = try? await store.setting(Self.failuresSetting),
              let saved = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8)) else { return }
        for (key, message) in saved.prefix(Self.failuresKept) {
            if let id = Int64(key) { state.failures[id] = message }
        }
    }

    func saveFailures() async {
        let saved = Dictionary(uniqueKeysWithValues: state.failures.map { (String($0.key), $0.value) })
        await storeSetting(Self.failuresSetting, saved, as: "which episodes could not play")
    }

    // MARK: - Episodes that cannot play

    /// The loaded episode could not be played (`state.error` says why, already published): it is
    /// marked in `state.failures` and the queue moves on to the next episode (repeat-one does
    /// not hold it: the same failure would repeat). After every queued episode has failed in a
    /// row, nothing more is tried.
    func episodeFailed(_ episode: Episode, message: String) async {
        if state.failures.count >= Self.failuresKept, let oldest = state.failures.keys.min() {
            state.failures[oldest] = nil
        }
        state.failures[episode.id] = message
        await saveFailures()
        resilience.failuresInARow += 1
        resilience.preloaded = nil
        guard resilience.failuresInARow < max(queue.count, 1), let next = queue.next() else {
            await queueChanged()
            publishState()
            return
        }
        await queueChanged()
        resilience.keepErrorOnce = true
        do { try await play(episodeID: next, fromQueue: true) } catch {
            resilience.keepErrorOnce = false
            publishState()
        }
    }

    // MARK: - mpv's health

    /// Probes mpv every second; an answer missing for `probeTimeout` means its core has stopped,
    /// and it is replaced. (mpv quitting on its own arrives as `.shutdown` instead.)
    func startWatchdog() {
        resilience.watchdog = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.probeInterval)
                await self?.checkHealth()
            }
        }
    }

    private func checkHealth() async {
        guard !resilience.shuttingDown, !resilience.restarting else { return }
        if player.hasAnswered { resilience.hungRestartsInARow = 0 }
        if Self.countsAsHung(unansweredFor: player.unansweredProbeAge, loaded: loaded,
                             restartsInARow: resilience.hungRestartsInARow) {
            resilience.hungRestartsInARow += 1
            await restartPlayer(because: "it stopped answering")
        } else {
            player.probe()
        }
    }

    /// Replaces mpv with a new instance and puts back everything the old one was told: speed,
    /// volume, mute, output, and the loaded episode at its position (paused or playing as it was).
    func restartPlayer(because reason: String) async {
        guard !resilience.shuttingDown, !resilience.restarting else { return }
        resilience.restarting = true
        defer { resilience.restarting = false }
        let position = state.position
        // The new mpv starts with what the old one was told, so none of it flickers in the state.
        var settings: [(String, String)] = [
            ("pause", state.paused ? "yes" : "no"), ("speed", String(state.rate)),
            ("volume", String(state.volume * controls.fadeLevel)), ("mute", state.muted ? "yes" : "no"),
        ]
        settings.append(("af", listening.applied.mpvValue))
        if listening.silence.isFast { silenceRestarted(at: position) }
        if resilience.activeOutput != AudioDevice.automatic { settings.append(("audio-device", resilience.activeOutput)) }
        do { try player.restart(settings: settings) } catch {
            state.error = "the player stopped (\(reason)) and could not be started again: \(error)"
            publishState()
            return
        }
        resilience.restarts += 1
        Log.warning("mpv", "\(reason); restarted it")
        resilience.preloaded = nil
        resilience.preloadRejected = nil
        resilience.mpvAdvancing = false
        resilience.pausedForCache = false
        resilience.seekingSince = nil
        if loaded, let episode = current {
            loading = .opening(pendingSeek: nil)
            resilience.waitingForStart = true
            state.buffering = true
            player.load(resolveMedia(episode.mediaURL), start: position, paused: state.paused)
        }
        state.notice = "The player stopped (\(reason)) and was restarted."
        publishState()
    }

    /// How many times mpv was replaced (for tests and diagnostics).
    public var playerRestarts: Int { resilience.restarts }
}

extension PlaybackEngine {
    /// A stream reached its "end" long before the episode's (`EarlyEnd`): the position reached is
    /// kept (resuming goes on from there), it is not marked played, and it fails like any other.
    func endedEarly(_ episode: Episode, because reason: String) async {
        await savePosition(force: true)
        loading = .idle
        state.paused = true
        state.buffering = false
        state.error = "could not play \(episode.title): \(reason)"
        publishState()
        await episodeFailed(episode, message: state.error ?? reason)
        settlePreload()
    }
}
