import EarshotCore
import Foundation
import Testing
@testable import Feeds

/// gPodder podcastparser's 70 golden files (`../shared/conformance/podcastparser`, see its README): each
/// feed is parsed into Earshot's full model, mapped to podcastparser's JSON by `PodcastparserJSON` (with
/// the case's `.param.json`, as upstream runs them) and compared with the expected document as a whole:
/// every key, every value, episode order included. Earshot's own fields (`"earshot"`) are set aside.
@Suite struct PodcastparserConformanceTests {
    /// Cases that differ on purpose, with why. The test fails if one of these starts matching (remove it
    /// from here then) or if a case not listed here fails.
    static let deliberateDifferences: [String: String] = [:]

    static let folder = Conformance.folder("podcastparser")

    static let cases: [String] = Conformance.files(in: folder, ext: "rss")
        .map { $0.deletingPathExtension().lastPathComponent }

    /// Earshot's document for a case, as `earshot parse --json` gives it, without the `"earshot"` extras.
    static func document(case name: String) throws -> JSONValue {
        let input = try Data(contentsOf: folder.appendingPathComponent(name + ".rss"))
        let parameters = folder.appendingPathComponent(name + ".param.json")
        var maxEpisodes: Int?
        if let data = try? Data(contentsOf: parameters),
           case .object(let values)? = try? JSONDecoder().decode(JSONValue.self, from: data) {
            maxEpisodes = values["max_episodes"]?.number.map { Int($0) }
        }
        // podcastparser's base URL for these files, "host" and all (see the README).
        let url = URL(string: "file://tests/data/\(name).rss")!
        return withoutExtras(try PodcastparserJSON.document(parsing: input, url: url, maxEpisodes: maxEpisodes))
    }

    /// The expected document. Read with `JSONSerialization`, whose duplicate keys keep the last value as
    /// Python's `json` does: `payment.json` has `payment_url` twice, null then a string.
    static func expected(case name: String) throws -> JSONValue {
        let data = try Data(contentsOf: folder.appendingPathComponent(name + ".json"))
        return jsonValue(try JSONSerialization.jsonObject(with: data))
    }

    static func jsonValue(_ object: Any) -> JSONValue {
        switch object {
        case let string as String: return .string(string)
        case let array as [Any]: return .array(array.map(jsonValue))
        case let dictionary as [String: Any]: return .object(dictionary.mapValues(jsonValue))
        case let number as NSNumber:
            // Booleans come back as NSNumbers too; only their class tells them apart.
            return String(describing: type(of: number)).contains("Boolean") ? .bool(number.boolValue)
                : .number(number.doubleValue)
        default: return .null
        }
    }

    static func withoutExtras(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(object.filter { $0.key != "earshot" }.mapValues(withoutExtras))
        case .array(let array):
            return .array(array.map(withoutExtras))
        default:
            return value
        }
    }

    /// Where two documents differ ("episodes[0].guid: "a" ≠ "file://tests/data/a""), empty when equal.
    static func differences(_ actual: JSONValue, _ expected: JSONValue, at path: String = "") -> [String] {
        switch (actual, expected) {
        case (.object(let a), .object(let b)):
            return Set(a.keys).union(b.keys).sorted().flatMap { key -> [String] in
                let here = path.isEmpty ? key : path + "." + key
                guard let left = a[key] else { return ["\(here): missing (expected \(describe(b[key]!)))"] }
                guard let right = b[key] else { return ["\(here): \(describe(left)) not expected"] }
                return differences(left, right, at: here)
            }
        case (.array(let a), .array(let b)) where a.count == b.count:
            return zip(a, b).enumerated().flatMap { differences($1.0, $1.1, at: "\(path)[\($0)]") }
        default:
            return actual == expected ? [] : ["\(path): \(describe(actual)) ≠ expected \(describe(expected))"]
        }
    }

    static func describe(_ value: JSONValue) -> String {
        guard let data = try? JSONEncoder().encode(value) else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }

    /// What differs for a case, or why it could not be compared; empty when it conforms.
    static func problems(case name: String) -> [String] {
        do {
            return differences(try document(case: name), try expected(case: name))
        } catch {
            return ["\(error)"]
        }
    }

    @Test func allSeventyCasesAreFound() {
        #expect(Self.cases.count == 70)
    }

    @Test(arguments: cases)
    func conformance(_ name: String) {
        let problems = Self.problems(case: name)
        if let reason = Self.deliberateDifferences[name] {
            #expect(!problems.isEmpty, "\(name) now conforms: remove it from deliberateDifferences (was: \(reason))")
        } else {
            #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "; "))")
        }
    }

    /// The score the report quotes, printed as one line.
    @Test func score() {
        let failed = Self.cases.filter { !Self.problems(case: $0).isEmpty }
        print("podcastparser conformance: \(Self.cases.count - failed.count) passed, \(failed.count) failed")
        #expect(Set(failed) == Set(Self.deliberateDifferences.keys))
    }

    /// Earshot's own reading rides along under "earshot", on the podcast and on each episode.
    @Test func carriesEarshotsOwnModelAlong() throws {
        let input = try Data(contentsOf: Self.folder.appendingPathComponent("chapters.rss"))
        let document = try PodcastparserJSON.document(parsing: input, url: URL(string: "file://tests/data/chapters.rss")!)
        guard case .object(let podcast) = document, case .object(let extras)? = podcast["earshot"],
              case .array(let episodes)? = podcast["episodes"], case .object(let episode)? = episodes.first,
              case .object(let episodeExtras)? = episode["earshot"], case .object(let details)? = episodeExtras["details"],
              case .array(let chapters)? = details["chapters"] else {
            Issue.record("no extras in \(Self.describe(document))")
            return
        }
        #expect(extras["warnings"] == .array([]))
        #expect(episodeExtras["guid"] == .string("episode"))  // Earshot's identity: the guid as written
        #expect(episodeExtras["duration"] == .number(3600))
        #expect(chapters.count == 5)
    }

    /// podcastparser's tests of invalid roots (in its code, not its data): each must be refused.
    @Test(arguments: [
        "<html><body/></html>",
        #"<foo xmlns="http://example.com/foo.xml"><bar/></foo>"#,
        #"<baz:foo xmlns:baz="http://example.com/baz.xml"><baz:bar/></baz:foo>"#,
    ])
    func refusesWhatIsNoFeed(_ document: String) {
        #expect(throws: FeedError.self) {
            try FeedParser.parse(Data(document.utf8), baseURL: URL(string: "file://tests/data/x.rss")!)
        }
    }

    /// The mapping's text functions behave as podcastparser's Python does on its own doctests.
    @Test func reproducesPodcastparsersTextFunctions() {
        #expect(Python.squash(" some\t   text  with a    lot of   spaces ") == "some text with a lot of spaces")
        #expect(Python.squashKeepingLines(" linefeeds\ncarriage\r  returns") == "linefeeds\ncarriage\r returns")
        #expect(Python.squash("\u{A0}non-breaking\u{2003}em ") == "non-breaking em")
        #expect(Python.fileNameWithoutExtension("http://example.com/a/test.ogg") == "test")
        #expect(Python.fileNameWithoutExtension("http://example.com/a.b.mp3?x=1") == "a.b")
        #expect(Python.fileNameWithoutExtension("http://example.com/.hidden") == ".hidden")
        #expect(Python.removeHTMLTags("<h1>This is a <em>test</em></h1>") == "This is a test")
        #expect(Python.removeHTMLTags("<p>One</p><p>Two &amp; three&#39;s</p>") == "One\n\nTwo & three's")
        #expect(Python.removeHTMLTags("<ul><li>a</li><li>b</li></ul>") == "* a\n\n * b")
        // Hex references and unknown names vanish; "&amp;lt;" is read as the name "amp;lt" (the regex is greedy).
        #expect(Python.removeHTMLTags("x &bogus; &#x27; y<br/>\n\n\nz") == "x   y\n\nz")
        #expect(Python.removeHTMLTags("&amp;lt; a&b; c &nbsp;d") == "a&b; c \u{A0}d")
    }
}
