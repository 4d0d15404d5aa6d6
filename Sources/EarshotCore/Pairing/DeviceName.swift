/// A paired device's name: what the person typed, else a guess from the browser's User-Agent
/// ("Chrome on Android"), cleaned to one short line.
public enum DeviceName {
    public static let maxLength = 60

    /// `typed` when it has something after cleaning, else a guess from `userAgent`.
    public static func choose(typed: String?, userAgent: String?) -> String {
        if let typed, let name = clean(typed) { return name }
        return guess(userAgent: userAgent)
    }

    /// One line: control characters dropped, white-space runs made one space, at most
    /// `maxLength` characters; nil when nothing is left.
    public static func clean(_ text: String) -> String? {
        var out = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace { pendingSpace = !out.isEmpty; continue }
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format { continue }
            if pendingSpace { out.unicodeScalars.append(" "); pendingSpace = false }
            out.unicodeScalars.append(scalar)
        }
        guard !out.isEmpty else { return nil }
        return out.count > maxLength ? String(out.prefix(maxLength)) : out
    }

    /// "Browser on System" from a User-Agent; "Unnamed device" when there is none.
    public static func guess(userAgent: String?) -> String {
        guard let ua = userAgent, !ua.isEmpty else { return "Unnamed device" }
        // Order matters: every Chromium says "Safari", Edge and Samsung say "Chrome", iOS browsers say "Safari".
        let browsers: [(String, String)] = [
            ("EdgA/", "Edge"), ("Edg/", "Edge"), ("SamsungBrowser/", "Samsung Internet"), ("OPR/", "Opera"),
            ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"), ("CriOS/", "Chrome"), ("Chrome/", "Chrome"),
            ("Safari/", "Safari"),
        ]
        let systems: [(String, String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"),
            ("Windows", "Windows"), ("Macintosh", "Mac"), ("Linux", "Linux"),
        ]
        let browser = browsers.first { ua.contains($0.0) }?.1
        let system = systems.first { ua.contains($0.0) }?.1
        switch (browser, system) {
        case let (b?, s?): return "\(b) on \(s)"
        case let (b?, nil): return b
        case let (nil, s?): return s
        default: return clean(String(ua.prefix(maxLength))) ?? "Unnamed device"
        }
    }
}
