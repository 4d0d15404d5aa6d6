import FoundationEssentials

/// Seconds a listener did not have to spend, by what saved them (issue 18): each the time the
/// same stretch of the file would have taken at 1× minus the time it took.
public struct SavedSeconds: Codable, Sendable, Equatable {
    /// Played faster (or slower: negative) than 1×.
    public var speed: Double = 0
    /// Pauses played through fast (skip silence).
    public var silence: Double = 0
    public var intro: Double = 0
    public var outro: Double = 0
    public var chapters: Double = 0

    public init(speed: Double = 0, silence: Double = 0, intro: Double = 0, outro: Double = 0, chapters: Double = 0) {
        self.speed = speed; self.silence = silence; self.intro = intro; self.outro = outro; self.chapters = chapters
    }

    public var total: Double { speed + silence + intro + outro + chapters }

    /// `seconds` more saved by a podcast's skip of `kind`.
    public mutating func add(_ kind: SkipNotice.Kind, _ seconds: Double) {
        switch kind {
        case .intro: intro += seconds
        case .outro: outro += seconds
        case .chapter: chapters += seconds
        }
    }

    public static func + (a: SavedSeconds, b: SavedSeconds) -> SavedSeconds {
        SavedSeconds(speed: a.speed + b.speed, silence: a.silence + b.silence, intro: a.intro + b.intro,
                     outro: a.outro + b.outro, chapters: a.chapters + b.chapters)
    }
}

/// One played span of an episode, as the listening log keeps it: from a start (play, resume, a
/// seek's landing) to a stop (pause, seek, another episode, the end), with the wall time it took
/// and what was saved in it.
public struct ListeningSpan: Codable, Sendable, Equatable {
    /// The library row (nil until stored).
    public var id: Int64?
    public var episode: Int64
    public var podcast: Int64
    /// The podcast's title when it was heard (the statistics keep it after an unsubscribe).
    public var podcastTitle: String
    public var startedAt: Date
    /// Wall seconds of sound.
    public var listened: Double = 0
    /// Where in the file it began and where it got to.
    public var from: Double
    public var to: Double
    public var saved = SavedSeconds()
    /// The episode ended in this span (played to its end, or into its outro).
    public var finished = false

    public init(id: Int64? = nil, episode: Int64, podcast: Int64, podcastTitle: String, startedAt: Date,
                listened: Double = 0, from: Double, to: Double? = nil, saved: SavedSeconds = SavedSeconds(), finished: Bool = false) {
        self.id = id; self.episode = episode; self.podcast = podcast; self.podcastTitle = podcastTitle
        self.startedAt = startedAt; self.listened = listened; self.from = from; self.to = to ?? from
        self.saved = saved; self.finished = finished
    }

    /// Nothing heard and nothing saved: not worth a row.
    public var isEmpty: Bool { listened < 0.05 && abs(saved.total) < 0.05 && !finished }
}

/// The span under way, fed by the engine: each stretch of playing (`played`), each pause played
/// through fast (`silenceSkipped`), each skip (`skipped`). Pure.
public struct ListeningTally: Sendable, Equatable {
    public private(set) var span: ListeningSpan
    /// Wall seconds since the pause now playing fast sped up (its time is the silence's, not the
    /// speed's).
    private var fastWall: Double = 0

    public init(span: ListeningSpan) { self.span = span }

    /// `wall` seconds played at the listener's `rate` up to `position`; `fast`: inside a pause
    /// played through fast.
    public mutating func played(wall: Double, rate: Double, fast: Bool, position: Double) {
        guard wall > 0, wall.isFinite else { return }
        span.listened += wall
        if fast {
            fastWall += wall
        } else {
            span.saved.speed += wall * (rate - 1)
        }
        span.to = max(span.to, position)
    }

    /// A pause played through fast ended: the file from `from` to `to` went by in the wall time
    /// played fast since it began (at 1× it would have taken `to − from`).
    public mutating func silenceSkipped(from: Double, to: Double) {
        span.saved.silence += max(0, to - from) - fastWall
        fastWall = 0
        span.to = max(span.to, to)
    }

    /// A skip of `kind` went over `seconds` of the file (negative: undone).
    public mutating func skipped(_ kind: SkipNotice.Kind, _ seconds: Double) {
        span.saved.add(kind, seconds)
    }

    public mutating func finish() { span.finished = true }

    /// Marks the span stored as row `id`.
    public mutating func stored(as id: Int64) { span.id = id }
}
