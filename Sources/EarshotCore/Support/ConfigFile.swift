import FoundationEssentials

/// `earshot.conf`: the service's settings, one `key = value` per line, with the keys of
/// `earshot serve`'s long flags (`port = 8080`, `lan = yes`, `allow-host = box.local`).
/// `#` starts a comment line; a key may repeat where its flag may. Pure: turns the text into the
/// flags it stands for, which the command line then reads as if typed before its own.
public enum ConfigFile {
    /// Flags that take no value: `yes`/`true`/`on`/`1` gives the flag, `no`/`false`/`off`/`0` leaves it out.
    public static let switches: Set<String> = ["lan", "no-demo", "no-mpris", "no-snapcast"]
    /// Flags that take one value.
    public static let valued: Set<String> = [
        "port", "data", "audio-output", "refresh-interval", "played-margin", "web-root", "allow-host",
        "itunes-url", "podcastindex-url", "ca-file", "snapcast", "snapcast-stream", "snapcast-port",
    ]

    /// A line that is not a setting, with its number (from 1) and why.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
        public init(line: Int, reason: String) { self.line = line; self.reason = reason }
    }

    /// The flags `text` stands for, in its order.
    public static func flags(_ text: String) throws(Failure) -> [String] {
        var result: [String] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw).trimmed
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw Failure(line: index + 1, reason: "expected key = value, not \"\(line)\"")
            }
            let key = String(line[..<equals]).trimmed.lowercased()
            var value = String(line[line.index(after: equals)...]).trimmed
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            if switches.contains(key) {
                switch value.lowercased() {
                case "yes", "true", "on", "1": result.append("--\(key)")
                case "no", "false", "off", "0": break
                default: throw Failure(line: index + 1, reason: "\(key) is yes or no, not \"\(value)\"")
                }
            } else if valued.contains(key) {
                guard !value.isEmpty else { throw Failure(line: index + 1, reason: "\(key) needs a value") }
                result += ["--\(key)", value]
            } else {
                let known = (switches.union(valued)).sorted().joined(separator: ", ")
                throw Failure(line: index + 1, reason: "unknown key \"\(key)\" (the keys are \(known))")
            }
        }
        return result
    }
}
