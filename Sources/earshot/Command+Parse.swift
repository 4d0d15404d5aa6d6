import EarshotCore
import FeedFetching
import Feeds
import Foundation

/// `earshot parse FILE|URL [--json] [--timing [--repeat N]]`: what Earshot reads in a feed.
enum ParseCommand {
    struct Settings {
        var target: String
        var json = false
        var timing = false
        var repeats = 1
    }

    /// Runs it; returns the exit status.
    static func run(_ settings: Settings) async -> Int32 {
        // A file is read a chunk at a time (a 30 MB feed is never held whole); a URL is fetched into memory.
        let source: Source
        do {
            source = try await load(settings.target)
        } catch {
            printError("cannot read \(settings.target): \(error)")
            return 1
        }
        if settings.timing { return timing(source, repeats: settings.repeats) }
        if settings.json {
            // podcastparser's view needs what the model normally drops (items without media, the
            // values as written), so the mapping parses with those kept.
            do {
                // Written to standard output as it is made: a 60,000-episode document is 130 MB.
                let written = try PodcastparserJSON.writeJSON(parsing: try source.data(), url: source.url, to: writeAll)
                guard written, writeAll([UInt8(ascii: "\n")]) else {
                    printError("cannot write the JSON: \(String(cString: strerror(errno)))")
                    return 1
                }
                // Done: the process ends here rather than taking apart a document of a million values
                // (a quarter of a second for a 60,000-episode feed) only to exit.
                exit(0)
            } catch {
                printError("\(settings.target) is not a feed Earshot can read: \(error)")
                return 1
            }
        }
        let content: FeedContent
        do { content = try source.parse() } catch {
            printError("\(settings.target) is not a feed Earshot can read: \(error)")
            return 1
        }
        print(summary(content))
        return 0
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "no such file, or it cannot be read" }
    }

    /// A feed file, or a fetched feed's bytes.
    enum Source {
        case file(URL)
        case fetched(Data, URL)

        var url: URL {
            switch self {
            case .file(let url), .fetched(_, let url): return url
            }
        }

        func data() throws -> Data {
            switch self {
            case .file(let url): return try Data(contentsOf: url)
            case .fetched(let data, _): return data
            }
        }

        func parse() throws -> FeedContent {
            switch self {
            case .file(let url): return try FeedParser.parse(contentsOf: url)
            case .fetched(let data, let url): return try FeedParser.parse(data, baseURL: url)
            }
        }
    }

    /// A file path or an http(s) URL.
    static func load(_ target: String) async throws -> Source {
        if let url = URL(string: target), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let response = try await FeedFetcher().fetch(url)
            return .fetched(response.data, response.finalURL)
        }
        let file = URL(fileURLWithPath: target)
        guard FileManager.default.isReadableFile(atPath: file.path) else { throw Unreadable() }
        return .file(file)
    }

    /// Parse time, best of `repeats` (a file's reading included, as in `earshot-parse`).
    static func timing(_ source: Source, repeats: Int) -> Int32 {
        var best = Double.infinity
        var items = 0
        for _ in 0..<max(1, repeats) {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let content = try? source.parse() else {
                printError("not a feed")
                return 1
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            items = content.items.count
        }
        print(String(format: "parse_ms=%.3f items=%d", best, items))
        return 0
    }

    static func summary(_ content: FeedContent) -> String {
        var lines = ["\(content.title)" + (content.author.isEmpty ? "" : " — \(content.author)"),
                     "\(content.items.count) episodes" + (content.newFeedURL.map { "; moved to \($0)" } ?? "")]
        for warning in content.warnings { lines.append("warning: \(warning)") }
        for item in content.items {
            let date = DisplayFormat.isoDay(item.published)
            let duration = DisplayFormat.duration(item.duration)
            lines.append("\(date.isEmpty ? "          " : date)  \(duration.padding(toLength: 7, withPad: " ", startingAt: 0)) \(item.title)")
            lines.append("            \(item.enclosureURL)")
        }
        return lines.joined(separator: "\n")
    }

    /// Writes `bytes` to standard output, as many calls as it takes; false on an error.
    static func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("earshot: \(message)\n".utf8))
    }
}
