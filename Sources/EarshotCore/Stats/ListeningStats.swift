import FoundationEssentials

/// Which stretch of time the statistics cover (`GET /api/stats?period=`).
public enum StatsPeriod: String, Sendable, CaseIterable {
    /// The last 7 days, today included.
    case week
    /// The last 30 days, today included.
    case month
    case all

    /// How many days back from today (nil: all of them).
    public var days: Int? {
        switch self {
        case .week: return 7
        case .month: return 30
        case .all: return nil
        }
    }

    /// The first moment counted, for `now` in `calendar`'s time zone (nil: from the beginning).
    public func start(now: Date, calendar: Calendar) -> Date? {
        guard let days else { return nil }
        let today = calendar.startOfDay(for: now)
        return calendar.date(byAdding: .day, value: -(days - 1), to: today)
    }
}

/// What the statistics page shows, from the listening log's spans (`GET /api/stats`): listening
/// time in all, per podcast and per day (and month), episodes finished, and time saved by each
/// cause. Pure: the spans in, the answer out.
public struct ListeningStats: Codable, Sendable, Equatable {
    public struct PodcastTime: Codable, Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var listenedSeconds: Double
    }

    public struct DayTime: Codable, Sendable, Equatable {
        /// "2026-12-03", in the host's time zone.
        public var date: String
        public var listenedSeconds: Double
    }

    public struct MonthTime: Codable, Sendable, Equatable {
        /// "2026-12".
        public var month: String
        public var listenedSeconds: Double
    }

    public var period: String
    public var listenedSeconds: Double
    /// Episodes that played to their end in the period (each once).
    public var finished: Int
    public var savedSeconds: SavedSeconds
    /// Most listened first.
    public var podcasts: [PodcastTime]
    /// Every day of the period (week, month: zeros included; all: the days with listening).
    public var days: [DayTime]
    public var months: [MonthTime]

    /// The statistics of `spans` (those before the period's start are left out) as of `now`.
    public init(spans: [ListeningSpan], period: StatsPeriod, now: Date, calendar: Calendar) {
        let start = period.start(now: now, calendar: calendar)
        let counted = spans.filter { span in start.map { span.startedAt >= $0 } ?? true }
        self.period = period.rawValue
        listenedSeconds = Self.rounded(counted.reduce(0) { $0 + $1.listened })
        finished = Set(counted.filter(\.finished).map(\.episode)).count
        let saved = counted.reduce(SavedSeconds()) { $0 + $1.saved }
        savedSeconds = SavedSeconds(speed: Self.rounded(saved.speed), silence: Self.rounded(saved.silence),
                                    intro: Self.rounded(saved.intro), outro: Self.rounded(saved.outro),
                                    chapters: Self.rounded(saved.chapters))

        var byPodcast: [Int64: (title: String, seconds: Double, latest: Date)] = [:]
        for span in counted {
            var entry = byPodcast[span.podcast] ?? (span.podcastTitle, 0, span.startedAt)
            entry.seconds += span.listened
            if span.startedAt >= entry.latest { entry.title = span.podcastTitle; entry.latest = span.startedAt }
            byPodcast[span.podcast] = entry
        }
        podcasts = byPodcast.map { PodcastTime(id: $0.key, title: $0.value.title, listenedSeconds: Self.rounded($0.value.seconds)) }
            .sorted { ($0.listenedSeconds, $1.title, $1.id) > ($1.listenedSeconds, $0.title, $0.id) }

        var byDay: [String: Double] = [:]
        var byMonth: [String: Double] = [:]
        for span in counted {
            let parts = calendar.dateComponents([.year, .month, .day], from: span.startedAt)
            byDay[Self.day(parts), default: 0] += span.listened
            byMonth[Self.month(parts), default: 0] += span.listened
        }
        if let start, let count = period.days {
            days = (0..<count).compactMap { offset in
                guard let date = calendar.date(byAdding: .day, value: offset, to: start) else { return nil }
                let key = Self.day(calendar.dateComponents([.year, .month, .day], from: date))
                return DayTime(date: key, listenedSeconds: Self.rounded(byDay[key] ?? 0))
            }
        } else {
            days = byDay.keys.sorted().map { DayTime(date: $0, listenedSeconds: Self.rounded(byDay[$0]!)) }
        }
        months = byMonth.keys.sorted().map { MonthTime(month: $0, listenedSeconds: Self.rounded(byMonth[$0]!)) }
    }

    static func rounded(_ seconds: Double) -> Double { (seconds * 10).rounded() / 10 }

    static func day(_ parts: DateComponents) -> String {
        "\(parts.year ?? 0)-\(pad(parts.month ?? 0))-\(pad(parts.day ?? 0))"
    }

    static func month(_ parts: DateComponents) -> String { "\(parts.year ?? 0)-\(pad(parts.month ?? 0))" }

    static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
