import EarshotCore
import Foundation
import Testing
@testable import Feeds

/// gPodder podcastparser's 70 golden files (`../shared/conformance/podcastparser`, see its README):
/// for each case, the podcast title and, per episode, title, first enclosure URL, duration and
/// publication time must equal the expected JSON.
///
/// Model differences applied to both sides, on purpose:
/// - episodes are compared as a set (sorted by time, title, URL): ordering is the library's job, and
///   podcastparser's depends on `itunes:type`;
/// - items without an enclosure are kept (`keepingItemsWithoutEnclosure`), so cases testing other fields
///   on enclosure-less items still compare; the enclosure URL compared is then "";
/// - a feed without a title gets podcastparser's fallback, the file's base name, which the parser leaves
///   to its caller.
@Suite struct PodcastparserConformanceTests {
    /// Cases that do not match yet, with why. The test fails if one of these starts matching (remove it
    /// from here then) or if a case not listed here fails.
    static let knownDifferences: [String: String] = [
        "max_episodes": "no max_episodes option: the parser returns every item; limiting is the library's call",
        "no_title_multi_enclosure": """
            podcastparser drops an untitled item with two enclosures; Earshot keeps it (it has a guid and \
            something to play) and titles it after its first enclosure's file name
            """,
    ]

    struct Episode: Comparable, CustomStringConvertible {
        var title: String
        var url: String
        var duration: Int
        var published: Int

        static func < (a: Episode, b: Episode) -> Bool {
            (a.published, a.title, a.url, a.duration) < (b.published, b.title, b.url, b.duration)
        }

        var description: String { "(\(title.debugDescription), \(url), \(duration) s, @\(published))" }
    }

    /// Nil when the case matches, else what differs.
    static func mismatch(case name: String) throws -> String? {
        let folder = Conformance.folder("podcastparser")
        let input = try Data(contentsOf: folder.appendingPathComponent(name + ".rss"))
        let json = try Data(contentsOf: folder.appendingPathComponent(name + ".json"))
        guard let expected = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            return "unreadable expected JSON"
        }
        let content: FeedContent
        do {
            content = try FeedParser.parse(input, baseURL: URL(string: "file://tests/data/\(name).rss")!,
                                           keepingItemsWithoutEnclosure: true)
        } catch {
            return "threw \(error)"
        }
        var problems: [String] = []
        let title = content.title.isEmpty ? name : content.title
        if title != expected["title"] as? String {
            problems.append("title \(title.debugDescription) ≠ \(String(describing: expected["title"]))")
        }
        let expectedEpisodes = ((expected["episodes"] as? [[String: Any]]) ?? []).map { episode in
            let enclosures = episode["enclosures"] as? [[String: Any]] ?? []
            return Episode(title: episode["title"] as? String ?? "",
                           url: enclosures.first?["url"] as? String ?? "",
                           duration: episode["total_time"] as? Int ?? 0,
                           published: episode["published"] as? Int ?? 0)
        }.sorted()
        let parsedEpisodes = content.items.map { item in
            Episode(title: item.title, url: item.enclosureURL, duration: Int(item.duration),
                    published: item.published.map { Int($0.timeIntervalSince1970) } ?? 0)
        }.sorted()
        if parsedEpisodes != expectedEpisodes {
            problems.append("episodes \(parsedEpisodes) ≠ expected \(expectedEpisodes)")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    static let cases: [String] = Conformance.files(in: Conformance.folder("podcastparser"), ext: "rss")
        .map { $0.deletingPathExtension().lastPathComponent }

    @Test func allSeventyCasesAreFound() {
        #expect(Self.cases.count == 70)
    }

    @Test(arguments: cases)
    func conformance(_ name: String) throws {
        let problem = try Self.mismatch(case: name)
        if let reason = Self.knownDifferences[name] {
            #expect(problem != nil, "\(name) now matches: remove it from knownDifferences (was: \(reason))")
        } else {
            #expect(problem == nil, "\(name): \(problem ?? "")")
        }
    }

    /// The score the report quotes: how many of the cases match on every compared field.
    @Test func matchingCount() throws {
        let matching = try Self.cases.filter { try Self.mismatch(case: $0) == nil }
        #expect(matching.count == Self.cases.count - Self.knownDifferences.count)
    }
}
