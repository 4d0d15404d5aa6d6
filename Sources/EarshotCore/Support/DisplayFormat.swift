import FoundationEssentials

/// How durations and dates read in lists; the web client's `format.js` mirrors these.
public enum DisplayFormat {
    /// "1h 2m", "54m", "<1m" for a few seconds, "" when unknown.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "" }
        let minutes = Int((seconds / 60).rounded())
        if minutes < 1 { return "<1m" }
        if minutes < 60 { return "\(minutes)m" }
        let h = minutes / 60, m = minutes % 60
        return m == 0 ? "\(h)h" : "\(h)h \(m)m"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "12 Mar 2026" in UTC, "" for no date.
    public static func date(_ date: Date?) -> String {
        guard let date else { return "" }
        let c = Calendar.utc.dateComponents([.year, .month, .day], from: date)
        return "\(c.day!) \(months[c.month! - 1]) \(c.year!)"
    }

    /// "2026-03-12" in UTC, "" for no date.
    public static func isoDay(_ date: Date?) -> String {
        guard let date else { return "" }
        let c = Calendar.utc.dateComponents([.year, .month, .day], from: date)
        return "\(padded(c.year!, 4))-\(padded(c.month!, 2))-\(padded(c.day!, 2))"
    }

    /// `value` with leading zeros up to `digits` (as `%0Nd`).
    static func padded(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

extension Calendar {
    static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()
}
