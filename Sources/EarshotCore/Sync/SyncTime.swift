import FoundationEssentials

/// Timestamps as sync clients write them. gpodder.net's API and AntennaPod send episode actions'
/// times as `2026-12-02T21:05:00` (UTC, no zone); others add `Z`, an offset or fractions of a
/// second, and some send Unix seconds. `since` and the answers' `timestamp` are Unix seconds.
public enum SyncTime {
    /// Unix seconds from an ISO 8601 date-time: `YYYY-MM-DDTHH:MM:SS` (a space for the `T` too),
    /// optional fraction, optional `Z` or `±HH:MM`/`±HHMM` (none means UTC, as gpodder.net says).
    /// Nil for anything else, and for fields out of range.
    public static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count >= 19 else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == 0x2D, let month = digits(5, 2), b[7] == 0x2D, let day = digits(8, 2),
              b[10] == 0x54 || b[10] == 0x20 || b[10] == 0x74,
              let hour = digits(11, 2), b[13] == 0x3A, let minute = digits(14, 2), b[16] == 0x3A, let second = digits(17, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        var fraction = 0.0
        if index < b.count, b[index] == 0x2E || b[index] == 0x2C {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, b[index] >= 0x30, b[index] <= 0x39 {
                fraction += Double(b[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if index < b.count {
            switch b[index] {
            case 0x5A, 0x7A: // Z
                index += 1
            case 0x2B, 0x2D: // + or -
                let sign = b[index] == 0x2B ? 1 : -1
                guard let hours = digits(index + 1, 2), hours < 24 else { return nil }
                index += 3
                if index < b.count, b[index] == 0x3A { index += 1 }
                let minutes = digits(index, 2) ?? 0
                if digits(index, 2) != nil { index += 2 }
                guard minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
        }
        guard index == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset) + fraction
    }

    /// `YYYY-MM-DDTHH:MM:SS` in UTC, as gpodder.net and AntennaPod write it (whole seconds).
    public static func format(_ seconds: Double) -> String {
        let whole = Int((seconds.isFinite ? seconds : 0).rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let rest = whole - days * 86_400
        let (year, month, day) = civilFromDays(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))"
    }

    /// A `since` argument: whole Unix seconds (a fraction is cut, a negative or absent one is 0).
    /// Nil when it is not a number at all (the request is then refused, not read as "everything").
    public static func since(_ text: String?) -> Double? {
        guard let text, !text.isEmpty else { return 0 }
        guard let value = Double(text), value.isFinite else { return nil }
        return max(0, value.rounded(.down))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
