import FoundationEssentials

/// The `download` / `download.*` commands (docs/protocol.md), decoded.
public enum DownloadCommand: Sendable, Equatable {
    /// Queue the episode's download (resumes a paused one, retries a failed one).
    case download(episode: Int64)
    /// Stop it and keep the partial file (state `paused`); `download` continues from there.
    case cancel(episode: Int64)
    /// Try a failed (or paused) download again now.
    case retry(episode: Int64)
    /// Stop it if running and delete its file or partial file.
    case delete(episode: Int64)
    case settings(DownloadSettings.Change)
    /// Auto-download a podcast's newest `newest` episodes (nil: off).
    case auto(podcast: Int64, newest: Int?)

    /// Decodes the command `name` ("download", "download.cancel", …) from a frame's fields; nil
    /// when the name is not a download command.
    static func parse(name: String, fields: [String: JSONValue]) throws(CommandError) -> DownloadCommand? {
        func id(_ key: String) throws(CommandError) -> Int64 {
            guard let value = fields[key]?.number, value.isFinite, value == value.rounded(), value > 0, value < 9e15
            else { throw CommandError("\"\(name)\" needs an id \"\(key)\"") }
            return Int64(value)
        }
        /// A whole number when the key is there and not null; `.some(nil)` for null; nil when absent.
        func optionalCount(_ key: String) throws(CommandError) -> Int?? {
            switch fields[key] {
            case nil: return nil
            case .null?: return .some(nil)
            case let value?:
                guard let number = value.number, number.isFinite, number == number.rounded(), abs(number) < 1e9
                else { throw CommandError("\"\(key)\" must be a whole number or null") }
                return .some(Int(number))
            }
        }
        switch name {
        case "download": return .download(episode: try id("episode"))
        case "download.cancel": return .cancel(episode: try id("episode"))
        case "download.retry": return .retry(episode: try id("episode"))
        case "download.delete": return .delete(episode: try id("episode"))
        case "download.settings":
            let concurrency = try optionalCount("concurrency")
            if case .some(nil) = concurrency { throw CommandError("\"concurrency\" must be a whole number") }
            let change = DownloadSettings.Change(concurrency: concurrency ?? nil,
                                                 deletePlayedAfterDays: try optionalCount("deletePlayedAfterDays"))
            guard change != DownloadSettings.Change() else {
                throw CommandError("\"download.settings\" needs \"concurrency\" or \"deletePlayedAfterDays\"")
            }
            _ = try DownloadSettings().applying(change) // range errors here, before the manager sees it
            return .settings(change)
        case "download.auto":
            let podcast = try id("podcast")
            guard let newest = try optionalCount("newest") else {
                throw CommandError("\"download.auto\" needs \"newest\": a number of episodes, or null (off)")
            }
            _ = try DownloadSettings().settingAutoDownload(podcast: podcast, count: newest)
            return .auto(podcast: podcast, newest: newest)
        default:
            return nil
        }
    }
}
