import Foundation
import Testing
@testable import Feeds

/// Every OPML file in `../shared/conformance/opml` (real app exports and other readers' fixtures): the exact
/// number of distinct feeds each yields, or the error a file that is not a subscription list must give.
@Suite struct OPMLConformanceTests {
    enum Expected: CustomStringConvertible {
        case feeds(Int, duplicates: Int = 0)
        case error(OPMLError)
        case notXML

        var description: String {
            switch self {
            case .feeds(let n, let d): return "\(n) feeds, \(d) duplicates"
            case .error(let error): return "\(error)"
            case .notXML: return "not XML"
            }
        }
    }

    /// Counts from SOURCES.md (AntennaPod's 33 outlines repeat two addresses). castero's `valid_*`/`broken_*`
    /// names follow castero's own rules, which demand a `feeds` folder outline; Earshot takes outlines at any
    /// depth, so `broken_no_container` (the same bytes as `valid_base`) imports its two feeds. A body with no
    /// outlines is a valid, empty list; a missing body is not a list at all.
    static let expected: [String: Expected] = [
        "antennapod-export.opml": .feeds(31, duplicates: 2),
        "overcast-export-2015.opml": .feeds(85),
        "overcast-export-singleline-cjk.opml": .feeds(45),
        "pocketcasts-export.opml": .feeds(33),
        "subscriptions-audio-2015.opml": .feeds(199),
        "gnome-podcasts-export_test.opml": .feeds(6),
        "newsboat/body-element-missing.opml": .error(.noBody),
        "newsboat/category.opml": .feeds(1),
        "newsboat/example.opml": .feeds(7),
        "newsboat/example2.opml": .feeds(7),
        "newsboat/opml-element-missing.opml": .error(.notOPML(rootElement: "not-opml")),
        "newsboat/test-urls+.opml": .feeds(4),
        "castero/broken_no_body.opml": .error(.noBody),
        "castero/broken_no_container.opml": .feeds(2),
        "castero/broken_no_outline.opml": .feeds(0),
        "castero/broken_parse.opml": .notXML,
        "castero/valid_base.opml": .feeds(2),
        "castero/valid_complete.opml": .feeds(2),
        "castero/valid_minimal.opml": .feeds(0),
        "castero/valid_no_head.opml": .feeds(2),
    ]

    static let folder = Conformance.folder("opml")

    static func parse(_ name: String) throws -> OPMLDocument {
        try OPMLParser.parse(Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test("the table covers every OPML file in the folder")
    func tableIsComplete() {
        let onDisk = ([""] + ["newsboat", "castero"]).flatMap { sub in
            Conformance.files(in: sub.isEmpty ? Self.folder : Self.folder.appendingPathComponent(sub), ext: "opml")
                .map { sub.isEmpty ? $0.lastPathComponent : sub + "/" + $0.lastPathComponent }
        }
        #expect(Set(onDisk) == Set(Self.expected.keys))
    }

    @Test("each file yields its exact feed count or its error", arguments: expected.keys.sorted())
    func file(_ name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        switch Self.expected[name]! {
        case .feeds(let count, let duplicates):
            let document = try OPMLParser.parse(data)
            #expect(document.feeds.count == count, "\(name)")
            #expect(document.duplicates == duplicates, "\(name)")
            #expect(document.rejected.isEmpty, "\(name): \(document.rejected)")
            #expect(Set(document.feeds.map(\.url)).count == document.feeds.count)
            for feed in document.feeds {
                #expect(feed.url.hasPrefix("http://") || feed.url.hasPrefix("https://"), "\(name): \(feed.url)")
            }
        case .error(let expected):
            #expect(throws: expected) { try OPMLParser.parse(data) }
        case .notXML:
            let error = #expect(throws: OPMLError.self) { try OPMLParser.parse(data) }
            guard case .notXML(let reason)? = error else { Issue.record("\(name): \(String(describing: error))"); return }
            #expect(reason.contains("mismatch"), "\(reason)")
        }
    }

    @Test("titles: entities and character references decoded, padding folded, title preferred over text")
    func titles() throws {
        let cjk = try Self.parse("overcast-export-singleline-cjk.opml")
        #expect(cjk.title == "Overcast Podcast Subscriptions")
        #expect(cjk.feeds.contains { $0.title == "机核网 GADIO 游戏广播" })
        #expect(cjk.feeds.first?.title == "Above & Beyond: Group Therapy")
        #expect(cjk.feeds.first?.htmlURL == "http://static.aboveandbeyond.nu/grouptherapy/podcast.xml")

        let padded = try Self.parse("subscriptions-audio-2015.opml")
        #expect(padded.title == "Podcast Subscriptions (Audio)")

        let gnome = try Self.parse("gnome-podcasts-export_test.opml")
        #expect(gnome.feeds.first?.title == "David Harvey's Anti-Capitalist Chronicles")

        let newsboat = try Self.parse("newsboat/example2.opml")
        #expect(newsboat.feeds.first { $0.url == "https://example.com/five.atom" }?.title == "another title")
        let category = try Self.parse("newsboat/category.opml")
        #expect(category.feeds.first?.title == nil, "title=\"\" is no title")
        #expect(category.feeds.first?.htmlURL == nil, "htmlUrl=\"\" is no page")
    }

    @Test("Pocket Casts' upper-case scheme and host are normalized; nested folders are walked")
    func pocketCasts() throws {
        let document = try Self.parse("pocketcasts-export.opml")
        #expect(document.feeds.contains { $0.url == "http://feeds.gimletmedia.com/mysteryshow" })
        #expect(!document.feeds.contains { $0.url.hasPrefix("HTTP") })
        #expect(document.feeds.contains { $0.title == "一天世界" })
        let nested = try Self.parse("newsboat/example.opml")
        #expect(nested.feeds.map(\.url).contains("https://blogs.example.com/~mike/.rss"))
        #expect(!nested.feeds.contains { $0.title == "should be ignored" || $0.title == "friends" })
    }
}
