import EarshotCore
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
        let data: Data
        let base: URL
        do {
            (data, base) = try await load(settings.target)
        } catch {
            printError("cannot read \(settings.target): \(error)")
            return 1
        }
        if settings.timing { return timing(data, base: base, repeats: settings.repeats) }
        if settings.json {
            // podcastparser's view needs what the model normally drops (items without media, the
            // values as written), so the mapping parses with those kept.
            do {
                let document = try PodcastparserJSON.document(parsing: data, url: base)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(document), as: UTF8.self))
                return 0
            } catch {
                printError("\(settings.target) is not a feed Earshot can read: \(error)")
                return 1
            }
        }
        let content: FeedContent
        do { content = try FeedParser.parse(data, baseURL: base) } catch {
            printError("\(settings.target) is not a feed Earshot can read: \(error)")
            return 1
        }
        print(summary(content))
        return 0
    }

    /// A file path or an http(s) URL.
    static func load(_ target: String) async throws -> (Data, URL) {
        if let url = URL(string: target), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let response = try await FeedFetcher().fetch(url)
            return (response.data, response.finalURL)
        }
        let file = URL(fileURLWithPath: target)
        return (try Data(contentsOf: file), file)
    }

    /// Parse time alone (the file is already in memory), best of `repeats`: what `make bench` reads.
    static func timing(_ data: Data, base: URL, repeats: Int) -> Int32 {
        var best = Double.infinity
        var items = 0
        for _ in 0..<max(1, repeats) {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let content = try? FeedParser.parse(data, baseURL: base) else {
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

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("earshot: \(message)\n".utf8))
    }
}
