import FoundationEssentials

/// Everything a client needs to draw the player. The engine owns the one true copy.
public struct PlaybackState: Sendable, Equatable {
    public var episode: NowPlaying?
    public var paused: Bool = true
    public var position: Double = 0
    public var duration: Double = 0
    public var rate: Double = 1
    public var volume: Double = 100
    public var muted: Bool = false
    public var buffering: Bool = false
    public var chapters: [Chapter] = []
    /// Index into `chapters`, -1 when none applies.
    public var chapter: Int = -1
    /// The last playback failure, cleared by the next successful load.
    public var error: String?
    /// Up Next as the listener sees it (shuffled when shuffle is on), episode ids.
    public var queue: [Int64] = []
    public var shuffle: Bool = false
    public var repeatMode: RepeatMode = .off
    /// The listener's preferences (the played margin), so every client shows the same.
    public var settings = PlaybackSettings()
    /// The sleep timer, nil when none is set (`SleepTimer.status`).
    public var sleep: SleepStatus?
    /// The host's audio outputs as mpv lists them (`audio-device-list`).
    public var outputs: [AudioDevice] = []
    /// The output the listener chose (`AudioDevice.automatic`: the system's); kept in the library.
    public var output: String = AudioDevice.automatic
    /// Why playback paused or changed without the listener asking (an output unplugged, mpv
    /// restarted); cleared when the listener plays or resumes.
    public var notice: String?
    /// The output that playback paused for when it was unplugged, now plugged in again: clients
    /// offer to resume (its description). Cleared when playback resumes or another episode loads.
    public var resumeOffer: String?
    /// Episodes that could not be played since the server started, by id: what went wrong.
    public var failures: [Int64: String] = [:]
    /// Snapcast's clients (issue 17), empty when no snapserver is linked; `roomsNotice` says why
    /// the rooms are not available (a snapserver gone, a stream missing), nil when they are or
    /// when there is no Snapcast at all.
    public var rooms: [Room] = []
    public var roomsNotice: String?
    /// The skip just made (an intro, an outro, a chapter), shown with an undo for a few seconds.
    public var skipped: SkipNotice?
    /// The fixed gain (dB) leveling plays the loaded episode at, from its measured loudness (nil:
    /// leveling is off, or it was not measured and plays through the live filter).
    public var levelGain: Double?
    /// The alarm set, if any (`alarm.set`).
    public var alarm: AlarmStatus?

    public init() {}

    /// Playing means an episode is loaded and not paused.
    public var isPlaying: Bool { episode != nil && !paused }

    /// The chapter a position falls in, -1 before the first or when there are none.
    public static func chapterIndex(at position: Double, in chapters: [Chapter]) -> Int {
        chapters.lastIndex { $0.start <= position + 0.001 } ?? -1
    }
}
