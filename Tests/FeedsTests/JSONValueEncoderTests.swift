import EarshotCore
import Foundation
import Testing
@testable import Feeds

/// `JSONValueEncoder` gives exactly what JSONEncoder's bytes read back as `JSONValue` give: checked on
/// the whole model of every real feed and of podcastparser's 70 cases (notes, chapters, persons, …).
@Suite struct JSONValueEncoderTests {
    static func viaBytes<Value: Encodable>(_ value: Value) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    }

    static let feeds: [URL] = Conformance.files(in: Conformance.folder("feeds"), ext: "xml")
        + Conformance.files(in: Conformance.folder("podcastparser"), ext: "rss")

    @Test("every feed's podcast and episode details, byte-free and via JSONEncoder, are the same value")
    func sameAsJSONEncoder() throws {
        #expect(Self.feeds.count > 70)
        var compared = 0
        for file in Self.feeds {
            guard let content = try? FeedParser.parse(contentsOf: file) else { continue }
            #expect(try JSONValueEncoder().encode(content.details) == Self.viaBytes(content.details), "\(file.lastPathComponent)")
            for item in content.items.prefix(200) {
                #expect(try JSONValueEncoder().encode(item.details) == Self.viaBytes(item.details),
                        "\(file.lastPathComponent): \(item.title)")
                compared += 1
            }
        }
        #expect(compared > 500)
    }

    struct Odd: Encodable {
        var date = Date(timeIntervalSince1970: 1_700_000_000)
        var url = URL(string: "https://example.com/a b")
        var data = Data([0, 1, 2, 250])
        var float: Float = 0.1
        var none: Int? = nil
        var nested: [String: [Int]] = ["a": [1, 2], "b": []]
        var integers: [Int: String] = [3: "three"]
        var big: UInt64 = 1 << 40
    }

    @Test("JSONEncoder's default strategies: dates, URLs, data, floats, nil left out, dictionaries")
    func strategies() throws {
        #expect(try JSONValueEncoder().encode(Odd()) == Self.viaBytes(Odd()))
    }

    @Test("earshot parse --json's streamed text is the whole document's, on every feed, with podcastparser's max_episodes too")
    func streamedDocument() throws {
        for file in Self.feeds {
            let data = try Data(contentsOf: file)
            for maxEpisodes in [nil, 2] as [Int?] {
                guard let whole = try? PodcastparserJSON.document(parsing: data, url: file, maxEpisodes: maxEpisodes) else { continue }
                let streamed = try PodcastparserJSON.jsonBytes(parsing: data, url: file, maxEpisodes: maxEpisodes)
                #expect(streamed == whole.jsonBytes(pretty: true, sortedKeys: true), "\(file.lastPathComponent) \(String(describing: maxEpisodes))")
            }
        }
    }

    @Test("an episode's details built directly are their Codable form, on every item of every feed")
    func directDetails() throws {
        var compared = 0
        for file in Self.feeds {
            guard let content = try? FeedParser.parse(contentsOf: file, keepingItemsWithoutEnclosure: true) else { continue }
            for item in content.items {
                #expect(PodcastparserJSON.details(item.details) == (try Self.viaBytes(item.details)), "\(file.lastPathComponent): \(item.title)")
                compared += 1
            }
        }
        #expect(compared > 1_000)
    }

    @Test("the episodes written in parallel blocks give the whole document's text, on every feed")
    func blocksInParallel() throws {
        for file in Self.feeds {
            let data = try Data(contentsOf: file)
            guard let whole = try? PodcastparserJSON.document(parsing: data, url: file) else { continue }
            for blockSize in [1, 3] {
                var text: [UInt8] = []
                #expect(try PodcastparserJSON.writeJSON(parsing: data, url: file, maxEpisodes: nil, pretty: true,
                                                        blockSize: blockSize) { text += $0; return true })
                #expect(text == whole.jsonBytes(pretty: true, sortedKeys: true), "\(file.lastPathComponent), blocks of \(blockSize)")
            }
        }
    }

    @Test("an output that refuses more stops the writing")
    func outputRefuses() throws {
        let file = try #require(Self.feeds.first { (try? FeedParser.parse(contentsOf: $0))?.items.count ?? 0 > 20 })
        var parts = 0
        #expect(try !PodcastparserJSON.writeJSON(parsing: try Data(contentsOf: file), url: file, maxEpisodes: nil, pretty: true,
                                                 blockSize: 1) { _ in parts += 1; return parts < 3 })
        #expect(parts == 3)
    }
}
