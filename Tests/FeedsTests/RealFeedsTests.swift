import EarshotCore
import Foundation
import Testing
@testable import Feeds

/// Real-world feeds from `../shared/conformance/feeds` (see its SOURCES.md): each must give a title and
/// at least one playable item, except the listed ones.
@Suite struct RealFeedsTests {
    static let folder = Conformance.folder("feeds")

    /// Files that do not give a podcast, and why. The test fails if one of them starts to.
    static let knownExceptions: [String: String] = [
        "atom_mediarss_youtube_1.xml": """
            a YouTube channel feed: its only media:content is a Flash player (application/x-shockwave-flash), \
            nothing an audio player can play
            """,
        "uolNoticias.rss": "a news feed, not a podcast: no item has an enclosure",
    ]

    static let files: [String] = (Conformance.files(in: folder, ext: "xml") + Conformance.files(in: folder, ext: "rss"))
        .map(\.lastPathComponent).sorted()

    static func parse(_ name: String) throws -> FeedContent {
        let url = folder.appendingPathComponent(name)
        return try FeedParser.parse(Data(contentsOf: url), baseURL: url)
    }

    @Test func allFourteenFeedsAreFound() {
        #expect(Self.files.count == 14)
    }

    @Test(arguments: files)
    func yieldsAPodcast(_ name: String) throws {
        let content = try? Self.parse(name)
        let isPodcast = content.map { !$0.title.isEmpty && $0.items.contains { !$0.enclosureURL.isEmpty } } ?? false
        if let reason = Self.knownExceptions[name] {
            #expect(!isPodcast, "\(name) now parses as a podcast: remove it from knownExceptions (was: \(reason))")
        } else {
            #expect(isPodcast, "\(name) gave \(String(describing: content?.title)) with \(content?.items.count ?? 0) items")
        }
    }

    @Test func recoversAllItemsPastAnUndefinedEntity() throws {
        // no-agenda.xml has `&gtgt;` at line 2761: streaming stops there, recovery must still give all 29.
        let content = try Self.parse("no-agenda.xml")
        #expect(content.title == "No Agenda")
        #expect(content.items.count == 29)
        #expect(content.items.allSatisfy { $0.published != nil && $0.enclosureURL.hasPrefix("https://") })
    }

    @Test func readsUndeclaredITunesPrefixes() throws {
        // de-grote-no-guid.xml uses itunes: without declaring it, and has no guids.
        let content = try Self.parse("de-grote-no-guid.xml")
        #expect(content.items.count == 12)
        #expect(content.items.allSatisfy { $0.duration > 0 && $0.guid == $0.enclosureURL })
        #expect(content.author == "MNM")
        #expect(content.artworkURL?.hasPrefix("https://images.vrt.be/") == true)
    }

    @Test func decodesDeclaredAndUndeclaredEncodings() throws {
        #expect(try Self.parse("2022-series-i-cinema.xml").title == "Sèries i Cinema")
        #expect(try Self.parse("iconv.xml").title == "Новости Оренбурга и области / Раздел Новости")
        // Latin-1 bytes with no declaration: re-read as Windows-1252 rather than cut off at the first "ç".
        let url = Self.folder.appendingPathComponent("uolNoticias.rss")
        let news = try FeedParser.parse(Data(contentsOf: url), baseURL: url, keepingItemsWithoutEnclosure: true)
        #expect(news.items.count == 15)
        let text = news.items.map { $0.title + $0.summary }.joined()
        #expect(text.contains("ç") || text.contains("ã"))
        #expect(!text.contains("\u{FFFD}"))
    }

    @Test func readsLargeFeedsWhole() throws {
        let counts = try ["2020-12-19-LinuxUnplugged.xml", "2026-02-13-deprogram.xml", "giantbomb-podcast.rss",
                          "freakshow_feed.mp3.xml"].map { try Self.parse($0).items.count }
        #expect(counts == [384, 385, 730, 30])
    }

    /// The tiny encoding cases (feedparser's): what libxml2 can decode must come through intact.
    @Test func readsTheEncodingCases() throws {
        let encoding = Self.folder.appendingPathComponent("encoding")
        func title(_ name: String) throws -> String {
            let url = encoding.appendingPathComponent(name)
            return try FeedParser.parse(Data(contentsOf: url), baseURL: url).title
        }
        #expect(try title("euc-kr.xml") == "\u{B144}")
        #expect(try title("bozo_invalid-bytes-with-bom.xml").hasPrefix("Valid UTF8: \u{468}Invalid UTF8: Espa"))
        for name in ["big5.xml", "utf-16be.xml", "utf-16le-bom.xml", "undeclared_namespace.xml",
                     "chardet-windows1255-no-decl.xml"] {
            #expect(throws: Never.self, "\(name)") { _ = try title(name) }
        }
        // libxml2 2.9.14 knows neither UTF-32 nor "bogus": a clear error, not a crash or an empty podcast.
        for name in ["utf-32le-bom.xml", "bozo_bogus_encoding.xml"] {
            #expect(throws: FeedError.self, "\(name)") { _ = try title(name) }
        }
    }
}
