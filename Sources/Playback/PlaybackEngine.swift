import EarshotCore
import Foundation
import Library

/// The single source of truth for what is playing. It turns client commands into mpv calls,
/// folds mpv's events into `PlaybackState`, saves positions to the library and tells
/// subscribers (the web server) about every change.
public actor PlaybackEngine {
    /// Where a message for every client goes (the server's broadcast).
    public typealias Listener = @Sendable (ServerMessage) -> Void

    nonisolated let player: MPVPlayer
    let store: LibraryStore
    /// Turns a stored media URL into what mpv should open (e.g. a bundled file's path).
    let resolveMedia: @Sendable (String) -> String
    /// A downloaded episode's measured loudness by its media URL (leveling then plays it at a
    /// fixed gain); nil when it has none.
    let measuredLoudness: @Sendable (String) -> Loudness?

    public internal(set) var state = PlaybackState()
    private(set) var seq: UInt64 = 0
    var listeners = Listeners<ServerMessage>()
    /// Where mpv stands with the file of `state.episode` (`LoadPhase`: idle, opening, open).
    var loading = LoadPhase.idle
    /// Whether mpv holds the file of `state.episode` (false after it ended or failed).
    var loaded: Bool { loading.isLoaded }
    /// Up Next: a pure value; the engine carries out what it decides.
    var queue = PlayQueue()
    /// The episode's stored data, for saving and end-of-file bookkeeping.
    var current: Episode?
    var lastSaved = Date.distantPast
    /// The loaded episode's chapters from each source; `state.chapters` is their merge.
    public internal(set) var chapterSources = ChapterMerge()
    /// Reads the loaded episode's Podcasting 2.0 chapters from the cache or the web.
    var chapterTask: Task<Void, Never>?
    /// The position last stored for the loaded episode (nil: none yet since it was loaded).
    var savedPosition: Double?
    /// Where `previous` goes back to within the loaded episode (its resume point, a double press).
    var restartPoint = RestartPoint()
    /// The episode the library says is playing (`PlaybackEngine+Session`), as last written.
    var sessionMarker: Int64?
    /// Speed, volume fade and sleep timer bookkeeping (PlaybackEngine+Speed, +Sleep).
    var controls = PlaybackControls()
    /// Outputs, buffering, failures, mpv's health and preloading (PlaybackEngine+Recovery).
    var resilience = PlaybackResilience()
    /// Snapcast's rooms as an output (PlaybackEngine+Rooms).
    var roomsLink = RoomsLink()
    /// A podcast's skips as they act on the loaded episode (PlaybackEngine+Skips).
    var skipping = SkipSession()
    /// Skip silence and leveling as they act on the loaded episode (PlaybackEngine+Listening).
    var listening = ListeningSession()
    /// The listening log's span under way and its writer (PlaybackEngine+Stats).
    var log = ListeningLog()
    /// The alarm (PlaybackEngine+Alarm).
    var alarming = AlarmSession()
    /// The wall clock the alarm goes by (tests and `EARSHOT_TEST_CLOCK` give another).
    nonisolated let clock: @Sendable () -> Date
    private var eventTask: Task<Void, Never>?
    private var tickTask: Task<Void, Never>?

    /// The most a crash (`kill -9`, power) may lose: the position is written at least this often
    /// while playing, in wall time and in seconds of media alike (at 2× media runs twice as fast).
    public static let saveInterval: TimeInterval = 5
    /// How often a `time` message goes out while playing.
    public static let tickInterval: Duration = .milliseconds(500)

    public init(player: MPVPlayer, store: LibraryStore, resolveMedia: @escaping @Sendable (String) -> String = { $0 },
                measuredLoudness: @escaping @Sendable (String) -> Loudness? = { _ in nil },
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.player = player
        self.store = store
        self.resolveMedia = resolveMedia
        self.measuredLoudness = measuredLoudness
        self.clock = clock
    }

    /// Starts consuming mpv's events and the 0.5 s ticker. Call once.
    public func start() async {
        guard eventTask == nil else { return }
        await restoreQueue()
        await restoreFailures()
        await restoreSettings()
        await restoreOutput()
        await resumeSession()
        startListeningLog()
        await restoreAlarm()
        let events = player.events
        eventTask = Task { [weak self] in
            for await event in events { await self?.apply(event) }
        }
        tickTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.tickInterval)
                await self?.tick()
            }
        }
        startWatchdog()
    }

    /// Saves the position and releases mpv. The engine does nothing afterwards.
    public func shutdown() async {
        resilience.shuttingDown = true
        resilience.watchdog?.cancel()
        await savePosition(force: true)
        await flushListening()
        log.writes?.finish() // the writer ends once it stored everything
        tickTask?.cancel()
        controls.sleepTask?.cancel()
        player.shutdown()
        await eventTask?.value
        eventTask = nil
    }

    // MARK: - Listeners

    /// Registers a listener; it is told nothing until the next change (ask `snapshot()` first).
    @discardableResult
    public func addListener(_ listener: @escaping Listener) -> UUID { listeners.add(listener) }

    public func removeListener(_ id: UUID) { listeners.remove(id) }

    /// Hands the current `state` message to `send` on the engine's own turn: whatever it queues the
    /// message on, every message published after it is queued after it. (A snapshot taken with
    /// `snapshot()` and queued after the hop back from the engine could follow a newer state that was
    /// published meanwhile — a client connecting as mpv listed the outputs kept the state without them.)
    public func sendSnapshot(_ send: @Sendable (ServerMessage) -> Void) {
        send(snapshot())
    }

    /// The current `state` message (the API's `/api/state`; a new client gets it by `sendSnapshot`).
    public func snapshot() -> ServerMessage {
        refreshSleepStatus() // its countdown as of now, not as of the last change
        return .state(seq: seq, state)
    }

    func publishState() {
        // Derived here so that every state sent agrees with its own position (seeks, loads, new lists).
        state.chapter = PlaybackState.chapterIndex(at: state.position, in: state.chapters)
        refreshSleepStatus()
        lookAtListening()
        seq += 1
        let message = ServerMessage.state(seq: seq, state)
        listeners.send(message)
    }

    func publishTime() {
        seq += 1
        let message = ServerMessage.time(seq: seq, position: state.position, duration: state.duration,
                                         rate: state.rate, paused: state.paused)
        listeners.send(message)
    }

    private func tick() async {
        lookAtListening()
        guard state.isPlaying, loaded else {
            await markSession() // an end with nothing after it clears the marker too
            return
        }
        // A stuck mpv costs one read's wait; later reads give up at once until it answers (MPVPlayer+Reads).
        if loading.positionsAreCurrent, let exact = player.timePosition() { state.position = steadyPosition(heardPosition(exact)) }
        publishTime()
        if saveIsDue() { await savePosition(force: true) }
    }

    /// Whether waiting for the next tick could let the unsaved stretch pass `saveInterval`: saves
    /// land a little early (every ~4.5 s at 1×), never late. A tick may come late under load,
    /// hence half a tick of slack.
    private func saveIsDue() -> Bool {
        let tick = Self.tickInterval.components
        let horizon = (Double(tick.seconds) + Double(tick.attoseconds) / 1e18) * 1.5
        let wall = Date().timeIntervalSince(lastSaved) + horizon
        let media = savedPosition.map { abs(state.position - $0) + horizon * max(state.rate, 1) } ?? .infinity
        return wall >= Self.saveInterval || media >= Self.saveInterval
    }

    /// Writes the current position of the loaded episode, unless it is already stored.
    /// `markingSession: false` while switching episodes: the marker then goes from the old episode
    /// straight to the new one (`play` marks it after loading), never through "nothing plays" — a
    /// kill in between would otherwise leave nothing to play on.
    func savePosition(force: Bool = false, markingSession: Bool = true) async {
        if markingSession { await markSession() } // whether anything plays, for a restart after a crash
        guard let episode = current, loaded || force else { return }
        let position = state.position
        guard position.isFinite, position != savedPosition || !force else { return }
        let stored = await persist("the position in \(episode.title)") {
            try await store.savePosition(episodeID: episode.id, position: position)
        }
        // A failed save is tried again at the next tick (the notice says so meanwhile).
        if stored { savedPosition = position }
        lastSaved = Date()
    }
}
