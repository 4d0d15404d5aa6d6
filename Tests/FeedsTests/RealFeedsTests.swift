import EarshotCore
import Foundation
import Testing
@testable import Feeds

/// Real-world feeds from `../shared/conformance/feeds`: each parses with the item count its SOURCES.md
/// gives (the broken ones through recovery, with a warning), and what they say reaches the model.
@Suite struct RealFeedsTests {
    static let folder = Conformance.folder("feeds")

    /// One row of SOURCES.md's table: the file, its `<item>` count and what `xmllint` made of it.
    struct Source: CustomTestStringConvertible, Sendable {
        var file: String
        var items: Int
        var libxml2: String
        var testDescription: String { file }
    }

    /// The table, read from SOURCES.md itself so the counts asserted are the ones it documents.
    static let sources: [Source] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("SOURCES.md"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 5, cells[1].hasSuffix(".xml") || cells[1].hasSuffix(".rss"),
                  let count = Int(cells[3].prefix { $0.isNumber }) else { return nil }
            return Source(file: cells[1], items: count, libxml2: cells[4])
        }
    }()

    /// Files that are no podcast (nothing an audio player plays), and why.
    static let notPodcasts: [String: String] = [
        "atom_mediarss_youtube_1.xml": "a YouTube channel: its only media:content is a Flash player",
        "uolNoticias.rss": "a news feed: no item has an enclosure",
        "iconv.xml": "a news feed: its enclosures are JPEG pictures",
    ]

    /// Parses as `HeavyWork` (off the cooperative pool, one at a time): these are megabytes.
    static func parse(_ name: String, keepAll: Bool = false) async throws -> FeedContent {
        let url = folder.appendingPathComponent(name)
        return try await HeavyWork.run {
            try FeedParser.parse(Data(contentsOf: url), baseURL: url, keepingItemsWithoutEnclosure: keepAll)
        }
    }

    @Test func sourcesListsEveryFeed() {
        let files = (Conformance.files(in: Self.folder, ext: "xml") + Conformance.files(in: Self.folder, ext: "rss"))
            .map(\.lastPathComponent)
        #expect(Set(Self.sources.map(\.file)) == Set(files))
        #expect(Self.sources.count == 14)
    }

    @Test(arguments: sources)
    func parsesEveryItem(_ source: Source) async throws {
        let content = try await Self.parse(source.file, keepAll: true)
        #expect(content.items.count == source.items)
        #expect(!content.title.isEmpty)
        // What libxml2 refuses outright is recovered, and the podcast says so; the rest reads cleanly.
        if source.libxml2.contains("FATAL") {
            #expect(!content.warnings.isEmpty)
        } else {
            #expect(content.warnings.isEmpty, "\(content.warnings)")
        }
        let playable = content.items.filter { !$0.enclosureURL.isEmpty }
        if let reason = Self.notPodcasts[source.file] {
            #expect(playable.isEmpty, "\(source.file) now has something to play (was: \(reason))")
        } else {
            #expect(playable.count == source.items)
            #expect(content.items.allSatisfy { !$0.details.notes.isEmpty })
        }
    }

    @Test func recoversPastAnUndefinedEntityAndSaysWhere() async throws {
        // no-agenda.xml has `&gtgt;` at line 2761: streaming stops there, recovery still gives all 29.
        let content = try await Self.parse("no-agenda.xml")
        #expect(content.title == "No Agenda")
        #expect(content.items.count == 29)
        #expect(content.warnings == ["line 2761: undefined entity &gtgt; — the rest was recovered"])
        #expect(content.items.allSatisfy { $0.published != nil && $0.enclosureURL.hasPrefix("https://") })
        #expect(content.items.allSatisfy { $0.details.chaptersURL != nil && $0.details.transcripts.count == 1 })
    }

    @Test func readsLatin1ServedAsUTF8WithAWarning() async throws {
        let news = try await Self.parse("uolNoticias.rss", keepAll: true)
        #expect(news.items.count == 15)
        let text = news.items.map { $0.title + $0.summary }.joined()
        #expect(text.contains("ç") || text.contains("ã"))
        #expect(!text.contains("\u{FFFD}"))
        #expect(news.warnings.count == 1)
        #expect(news.warnings.first?.hasPrefix("The feed is not valid UTF-8") == true)
    }

    @Test func readsUndeclaredITunesPrefixes() async throws {
        // de-grote-no-guid.xml uses itunes: without declaring it, and has no guids.
        let content = try await Self.parse("de-grote-no-guid.xml")
        #expect(content.items.count == 12)
        #expect(content.items.allSatisfy { $0.duration > 0 && $0.guid == $0.enclosureURL })
        #expect(content.author == "MNM")
        #expect(content.artworkURL?.hasPrefix("https://images.vrt.be/") == true)
    }

    @Test func decodesDeclaredEncodings() async throws {
        let catalan = try await Self.parse("2022-series-i-cinema.xml")
        let russian = try await Self.parse("iconv.xml")
        #expect(catalan.title == "Sèries i Cinema")
        #expect(russian.title == "Новости Оренбурга и области / Раздел Новости")
    }

    // MARK: What real feeds say, end to end (expected numbers counted in the files with grep)

    @Test func readsFiresidesPodcastingTwoTags() async throws {
        let content = try await Self.parse("2020-12-19-LinuxUnplugged.xml")
        let details = content.items.map(\.details)
        #expect(details.filter { $0.chaptersURL != nil }.count == 112)
        #expect(Set(details.compactMap(\.chaptersType)) == ["application/json"])
        #expect(details.map(\.persons.count).reduce(0, +) == 1204)
        #expect(content.details.locked == true)
        #expect(content.details.funding.count == 1)
        #expect(content.details.ownerEmail == "chris@jupiterbroadcasting.com")
        #expect(content.details.categories == [["Technology"], ["News", "Tech News"]])
    }

    @Test func readsPodloveSimpleChaptersAndPaging() async throws {
        let freakShow = try await Self.parse("freakshow_feed.mp3.xml")
        #expect(freakShow.items.map(\.details.chapters.count).reduce(0, +) == 629)
        #expect(freakShow.details.pageFirstURL == "http://freakshow.fm/feed/mp3")
        #expect(freakShow.details.pageNextURL == "http://freakshow.fm/feed/mp3?paged=2")
        let first = try #require(freakShow.items.first?.details.chapters.first)
        #expect(first.start == 0 && !first.title.isEmpty)

        let podlovers = try await Self.parse("podlovers.xml")
        #expect(podlovers.items.map(\.details.chapters.count).reduce(0, +) == 18)
        #expect(podlovers.items.map(\.details.transcripts.count).reduce(0, +) == 1)
        #expect(podlovers.details.persons.count + podlovers.items.map(\.details.persons.count).reduce(0, +) == 10)
    }

    @Test func readsTheNamespacesExampleFeed() async throws {
        let content = try await Self.parse("podcastindex-namespace-example.xml")
        let details = content.items.map(\.details)
        #expect(content.details.podcastGUID == "y0ur-gu1d-g035-h3r3")
        #expect(content.details.locked == true)
        #expect(details.map(\.transcripts.count).reduce(0, +) == 4)
        #expect(details.map(\.soundbites.count).reduce(0, +) == 3)
        // 14 in the file, one of them in a podcast:liveItem (not an episode).
        #expect(details.map(\.alternateEnclosures.count).reduce(0, +) == 13)
        let video = try #require(details.flatMap(\.alternateEnclosures).first { $0.type == "video/mp4" })
        #expect(video.sources == ["https://example.com/file-720.mp4", "ipfs://QmX33FYehk6ckGQ6g1D9D3FqZPix5JpKstKQKbaS8quUFb"])
        #expect(video.bitrate == 511276.52 && video.title == "Video version" && video.length == 7924786)
        #expect(details.allSatisfy { $0.season != nil && $0.number != nil })
    }

    @Test func readsTheMikeNeumannShow() async throws {
        let content = try await Self.parse("themnshow.xml")
        let details = content.items.map(\.details)
        #expect(details.map(\.transcripts.count).reduce(0, +) == 56)
        #expect(details.map(\.alternateEnclosures.count).reduce(0, +) == 126)
        #expect(details.map(\.soundbites.count).reduce(0, +) == 5)
        #expect(details.filter { $0.season != nil }.count == 54)
        #expect(content.details.locked == false)
        #expect(content.details.podcastGUID == "7a2d292c-8656-5fcf-88d2-31b10e54d7c7")
    }

    @Test func readsLargeFeedsWhole() async throws {
        var counts: [Int] = []
        for name in ["2020-12-19-LinuxUnplugged.xml", "2026-02-13-deprogram.xml", "giantbomb-podcast.rss",
                     "freakshow_feed.mp3.xml"] {
            counts.append(try await Self.parse(name).items.count)
        }
        #expect(counts == [384, 385, 730, 30])
    }

    /// The tiny encoding cases (feedparser's): what libxml2 can decode must come through intact.
    @Test func readsTheEncodingCases() async throws {
        let encoding = Self.folder.appendingPathComponent("encoding")
        func parse(_ name: String) throws -> FeedContent {
            let url = encoding.appendingPathComponent(name)
            return try FeedParser.parse(Data(contentsOf: url), baseURL: url)
        }
        #expect(try parse("euc-kr.xml").title == "\u{B144}")
        // A BOM, then UTF-8 with one Latin-1 byte: the byte is read as Windows-1252, the rest kept.
        let mixed = try parse("bozo_invalid-bytes-with-bom.xml")
        #expect(mixed.title == "Valid UTF8: \u{468}Invalid UTF8: España")
        #expect(mixed.warnings.first == "The feed is not valid UTF-8: 1 byte was read as Windows-1252.")
        for name in ["big5.xml", "utf-16be.xml", "utf-16le-bom.xml", "undeclared_namespace.xml",
                     "chardet-windows1255-no-decl.xml"] {
            #expect(throws: Never.self, "\(name)") { _ = try parse(name) }
        }
        // libxml2 2.9.14 knows neither UTF-32 nor "bogus": a clear error, not a crash or an empty podcast.
        for name in ["utf-32le-bom.xml", "bozo_bogus_encoding.xml"] {
            #expect(throws: FeedError.self, "\(name)") { _ = try parse(name) }
        }
    }
}
