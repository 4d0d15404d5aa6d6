#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// The one logger: a line per event on standard error (which the journal keeps under systemd),
/// `earshot: <level>: <area>: <message>`. Where a user loses something, the caller also tells
/// every client (a notice); this is for whoever reads the log.
public enum Log {
    public enum Level: String, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        public static func < (a: Level, b: Level) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// Lines below this level are dropped; `EARSHOT_LOG=debug|info|warning|error` sets it at start.
    public static let threshold: Level = {
        guard let raw = getenv("EARSHOT_LOG") else { return .info }
        return Level(rawValue: String(cString: raw).lowercased()) ?? .info
    }()

    public static func debug(_ area: String, _ message: @autoclosure () -> String) { write(.debug, area, message()) }
    public static func info(_ area: String, _ message: @autoclosure () -> String) { write(.info, area, message()) }
    public static func warning(_ area: String, _ message: @autoclosure () -> String) { write(.warning, area, message()) }
    public static func error(_ area: String, _ message: @autoclosure () -> String) { write(.error, area, message()) }

    /// One line: newlines inside the message become spaces so a line is always one event.
    public static func write(_ level: Level, _ area: String, _ message: String) {
        guard level >= threshold else { return }
        let flat = message.contains("\n") ? message.split(whereSeparator: \.isNewline).joined(separator: " ") : message
        let line = "earshot: \(level.rawValue): \(area): \(flat)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { buffer in
            // One write(2) per line: lines of threads that log at once never interleave.
            Glibc.write(2, buffer.baseAddress, buffer.count - 1)
        }
    }
}
