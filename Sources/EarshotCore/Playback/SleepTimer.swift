import FoundationEssentials

/// The sleep timer as a value: what it waits for (a number of minutes, the end of the episode, the
/// end of the chapter playing), how much is left, and what to do at a given moment — nothing yet,
/// turn the volume down (the last `fade` seconds), or pause. It counts playing time only: a pause
/// stops its clock as it stops the episode. The engine reads a `Moment`, asks `decide`, carries
/// the answer out (PlaybackEngine+Sleep) and sends `status` to clients as `state.sleep`.
public struct SleepTimer: Sendable, Equatable {
    /// What the timer waits for; the wire's `sleep.mode`.
    public enum Mode: String, Sendable, Codable {
        case minutes, episode, chapter
    }

    /// What a listener asks for (`sleep {minutes}` / `sleep {until}`).
    public enum Request: Sendable, Equatable {
        case after(seconds: Double)
        case endOfEpisode
        case endOfChapter
    }

    /// The player at one instant, as the engine sees it.
    public struct Moment: Sendable, Equatable {
        /// Seconds on a monotonic clock.
        public var now: Double
        public var playing: Bool
        public var position: Double
        /// 0 when unknown.
        public var duration: Double
        public var rate: Double
        public var chapters: [Chapter]

        public init(now: Double, playing: Bool, position: Double, duration: Double, rate: Double, chapters: [Chapter] = []) {
            self.now = now; self.playing = playing; self.position = position
            self.duration = duration; self.rate = rate; self.chapters = chapters
        }
    }

    /// What the engine should do now.
    public enum Decision: Sendable, Equatable {
        /// Full volume; nothing happens for at least `seconds` of playing.
        case wait(seconds: Double)
        /// The volume at this fraction (0…1) of the listener's.
        case fade(level: Double)
        /// Time is up: pause, restore the volume, forget the timer.
        case fire
    }

    /// The fade before the timer fires, in seconds.
    public static let defaultFade: Double = 10
    /// The longest timer: 12 hours.
    public static let maxSeconds: Double = 12 * 3600

    public private(set) var mode: Mode
    /// Chapter mode: the media position the chapter playing ends at; nil when it is the last (the
    /// episode's end). Unused in the other modes.
    public private(set) var end: Double?
    /// How long the fade lasts: `defaultFade`, or the whole timer when it is shorter.
    public private(set) var fade: Double
    /// Minutes mode: seconds of playing left as of `since`.
    private var left: Double = 0
    private var since: Double
    /// Whether the clock ran from `since` on (playing).
    private var running: Bool
    /// Chapter mode: the chapter starts `end` was worked out from (a new list retargets).
    private var basis: [Double] = []
    /// Chapter mode: where the chapter playing starts (a seek before it retargets).
    private var chapterStart: Double = 0

    /// A timer for `request` starting at `moment`; nil for `endOfChapter` when there are no chapters.
    public init?(_ request: Request, at moment: Moment, fade: Double = defaultFade) {
        since = moment.now
        running = moment.playing
        switch request {
        case .after(let seconds):
            mode = .minutes
            left = max(0, seconds)
            self.fade = min(fade, left)
        case .endOfEpisode:
            mode = .episode
            self.fade = fade
        case .endOfChapter:
            guard !moment.chapters.isEmpty else { return nil }
            mode = .chapter
            self.fade = fade
            target(moment)
        }
        if mode != .minutes, let remaining = remaining(at: moment) { self.fade = min(fade, remaining) }
    }

    /// Whether the episode's own end is what the timer waits for: the engine stops there instead
    /// of playing what comes next.
    public var endsWithEpisode: Bool { mode == .episode || (mode == .chapter && end == nil) }

    /// Seconds of playing left (at the current speed); nil when the episode's length is unknown.
    public func remaining(at moment: Moment) -> Double? {
        let rate = moment.rate > 0 ? moment.rate : 1
        switch mode {
        case .minutes:
            return max(0, left - (running ? max(0, moment.now - since) : 0))
        case .episode, .chapter:
            guard let stop = mode == .chapter && end != nil ? end : (moment.duration > 0 ? moment.duration : nil) else { return nil }
            return max(0, stop - moment.position) / rate
        }
    }

    /// Brings the clock up to `moment`: the time since the last call counts if it was playing.
    /// The engine calls it whenever it looks, so a pause stops the count where it happened.
    /// In chapter mode it also follows the listener: a seek out of the chapter, or a new list of
    /// chapters, makes the timer wait for the end of the chapter playing now.
    public mutating func account(_ moment: Moment) {
        if mode == .minutes {
            if running { left = max(0, left - max(0, moment.now - since)) }
        } else if mode == .chapter {
            let starts = moment.chapters.map(\.start)
            // Past the end by more than a look's worth of playing (≤ 0.1 s × 3): a seek, not
            // playback running into the next chapter (which fires instead).
            let outside = moment.position < chapterStart - 0.5 || (end.map { moment.position > $0 + 1 } ?? false)
            if starts != basis || outside { target(moment) }
        }
        since = moment.now
        running = moment.playing
    }

    /// What to do at `moment` (call `account` first). An end of episode never fires here: the
    /// engine fires when mpv reports the end of the file.
    public func decide(_ moment: Moment) -> Decision {
        guard let remaining = remaining(at: moment) else { return .wait(seconds: 1) }
        if remaining <= 0, !endsWithEpisode { return .fire }
        if remaining < fade, fade > 0 { return .fade(level: min(1, max(0, remaining / fade))) }
        return .wait(seconds: remaining - fade)
    }

    /// Adds `seconds` to what is left (call `account` first). Any mode becomes a timer of
    /// minutes: "the end of the episode plus 10 minutes". Nil when what is left is unknown.
    public func extended(by seconds: Double, at moment: Moment) -> SleepTimer? {
        guard let remaining = remaining(at: moment) else { return nil }
        var next = self
        next.mode = .minutes
        next.left = min(Self.maxSeconds, remaining + max(0, seconds))
        next.end = nil
        next.fade = min(Self.defaultFade, next.left)
        next.since = moment.now
        next.running = moment.playing
        return next
    }

    /// What clients are told (`state.sleep`).
    public func status(at moment: Moment) -> SleepStatus {
        SleepStatus(mode: mode, remaining: remaining(at: moment), end: mode == .chapter ? end : nil, fade: fade)
    }

    /// Chapter mode: wait for the end of the chapter at the moment's position.
    private mutating func target(_ moment: Moment) {
        let chapters = moment.chapters
        basis = chapters.map(\.start)
        let index = PlaybackState.chapterIndex(at: moment.position, in: chapters)
        chapterStart = index >= 0 ? chapters[index].start : 0
        // Before the first chapter: the stretch up to it counts as a chapter of its own.
        end = index + 1 < chapters.count ? chapters[index + 1].start : nil
    }
}
