import FoundationEssentials

/// The alarm (issue 18): wake at `hour:minute` on the chosen days with the newest unplayed
/// episode of the chosen podcasts (or Up Next when none are chosen), the volume rising from
/// silence over `rampSeconds`. It repeats on its days until cancelled; kept in the library, so it
/// survives a restart. Pure: when it rings next, and how loud a ringing alarm is.
public struct Alarm: Codable, Sendable, Equatable {
    public var hour: Int
    public var minute: Int
    /// ISO weekdays: 1 Monday … 7 Sunday.
    public var days: [Int]
    /// Podcasts whose newest unplayed episode wakes the listener; nil: Up Next.
    public var podcasts: [Int64]?

    /// How long the volume takes to rise to the listener's.
    public static let rampSeconds: Double = 60
    public static let maximumPodcasts = 50

    /// An alarm from the wire's `time` ("07:30"), `days` and `podcasts`; an error naming the value
    /// out of range.
    public init(time: String, days: [Int], podcasts: [Int64]?) throws(CommandError) {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else {
            throw CommandError("\"time\" must be \"HH:MM\", 00:00 to 23:59")
        }
        guard !days.isEmpty, days.allSatisfy({ (1...7).contains($0) }) else {
            throw CommandError("\"days\" must list weekdays 1 (Monday) to 7 (Sunday)")
        }
        if let podcasts {
            guard !podcasts.isEmpty else { throw CommandError("\"podcasts\" must list podcast ids, or be null for Up Next") }
            guard podcasts.count <= Self.maximumPodcasts else { throw CommandError("at most \(Self.maximumPodcasts) podcasts") }
        }
        self.hour = hour; self.minute = minute
        self.days = Array(Set(days)).sorted()
        self.podcasts = podcasts.map { Self.unique($0) }
    }

    /// "07:30".
    public var time: String { "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)" }

    /// The first moment after `date` (strictly) it rings, in `calendar`'s time zone: the next of
    /// its days at its time. A day whose time does not exist (a clock change) is passed over.
    public func next(after date: Date, calendar: Calendar) -> Date? {
        let today = calendar.startOfDay(for: date)
        // Two weeks: a weekly alarm whose day's time does not exist (a clock change) rings the week after.
        for offset in 0...14 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { continue }
            let weekday = Self.isoWeekday(calendar.component(.weekday, from: day))
            guard days.contains(weekday),
                  let ring = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day),
                  calendar.component(.hour, from: ring) == hour, ring > date else { continue }
            return ring
        }
        return nil
    }

    /// Foundation's weekday (1 Sunday … 7 Saturday) as ISO's (1 Monday … 7 Sunday).
    public static func isoWeekday(_ weekday: Int) -> Int { weekday == 1 ? 7 : weekday - 1 }

    /// The fraction of the listener's volume `elapsed` seconds after it rang: rising evenly from
    /// 0 to 1 over the ramp. Even in mpv's volume is already a gentle rise in loudness: mpv turns
    /// its volume into gain on a cubic curve (50 % is −18 dB).
    public static func rampLevel(elapsed: Double) -> Double {
        guard elapsed > 0 else { return 0 }
        return min(1, elapsed / rampSeconds)
    }

    /// Ids in their first order, each once.
    static func unique(_ ids: [Int64]) -> [Int64] {
        var seen = Set<Int64>()
        return ids.filter { seen.insert($0).inserted }
    }

    enum CodingKeys: String, CodingKey { case hour, minute, days, podcasts }
}

/// `state.alarm`: the alarm set, when it rings next, and whether it is ringing (the volume rising).
public struct AlarmStatus: Codable, Sendable, Equatable {
    public var time: String
    public var days: [Int]
    public var podcasts: [Int64]?
    /// Unix seconds.
    public var next: Double?
    public var ringing: Bool

    public init(alarm: Alarm, next: Date?, ringing: Bool) {
        time = alarm.time; days = alarm.days; podcasts = alarm.podcasts
        self.next = next.map { ($0.timeIntervalSince1970 * 1000).rounded() / 1000 }
        self.ringing = ringing
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(days, forKey: .days)
        try c.encode(podcasts, forKey: .podcasts) // null: Up Next
        try c.encode(next, forKey: .next)
        try c.encode(ringing, forKey: .ringing)
    }
}
