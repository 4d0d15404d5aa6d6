import FoundationEssentials

/// Reads a directory's JSON answer into results. Only what a listener can subscribe to is kept:
/// a result without an http(s) feed address is dropped; artwork that is not http(s) is dropped.
public enum DirectoryAnswer {
    /// The answer was not the JSON the provider documents.
    public struct Unreadable: Error, Sendable, Equatable {
        public var provider: DirectoryProvider
        public init(provider: DirectoryProvider) { self.provider = provider }
    }

    public static func results(_ provider: DirectoryProvider, _ data: Data) throws(Unreadable) -> [DirectoryResult] {
        do {
            switch provider {
            case .itunes:
                return try JSONDecoder().decode(ITunes.self, from: data).results.compactMap(iTunesResult)
            case .podcastindex:
                return try JSONDecoder().decode(PodcastIndex.self, from: data).feeds.compactMap { feed in
                    result(title: feed.title, author: feed.author ?? feed.ownerName, feed: feed.url,
                           artwork: nonEmpty(feed.artwork) ?? feed.image, count: feed.episodeCount,
                           genres: (feed.categories ?? [:]).sorted { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) }.map(\.value))
                }
            }
        } catch {
            throw Unreadable(provider: provider)
        }
    }

    /// The podcast ids of iTunes' top chart (legacy RSS JSON: `feed.entry[].id.attributes["im:id"]`),
    /// in chart order, at most `DirectoryRequest.limit`. A chart of one entry comes as an object, not a list.
    public static func chartIDs(_ data: Data) throws(Unreadable) -> [String] {
        do {
            let chart = try JSONDecoder().decode(ITunesChart.self, from: data)
            var seen = Set<String>()
            let ids = chart.feed.entry.compactMap { $0.id?.attributes?.id?.trimmed }
                .filter { !$0.isEmpty && $0.allSatisfy(\.isNumber) && seen.insert($0).inserted }
            return Array(ids.prefix(DirectoryRequest.limit))
        } catch {
            throw Unreadable(provider: .itunes)
        }
    }

    /// An iTunes lookup answer read as results, in the order of `ids` (the chart's), not the
    /// order the lookup chose; ids it did not return are left out.
    public static func lookupResults(_ data: Data, order ids: [String]) throws(Unreadable) -> [DirectoryResult] {
        let items: [ITunes.Item]
        do { items = try JSONDecoder().decode(ITunes.self, from: data).results } catch { throw Unreadable(provider: .itunes) }
        let rank = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return items.compactMap { item -> (Int, DirectoryResult)? in
            guard let id = item.collectionId.map(String.init), let place = rank[id], let found = iTunesResult(item) else { return nil }
            return (place, found)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private static func iTunesResult(_ item: ITunes.Item) -> DirectoryResult? {
        result(title: item.collectionName ?? item.trackName, author: item.artistName, feed: item.feedUrl,
               artwork: item.artworkUrl600 ?? item.artworkUrl100, count: item.trackCount,
               genres: (item.genres ?? []).filter { $0 != "Podcasts" })
    }

    private static func result(title: String?, author: String?, feed: String?, artwork: String?, count: Int?,
                               genres: [String]) -> DirectoryResult? {
        guard let feed = feed?.trimmed, isWeb(feed) else { return nil }
        return DirectoryResult(title: title?.trimmed ?? feed, author: author?.trimmed ?? "", feedUrl: feed,
                               artwork: artwork.flatMap { isWeb($0) ? $0 : nil }, episodeCount: count, genres: genres)
    }

    private static func isWeb(_ url: String) -> Bool {
        let lower = url.lowercased()
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && url.count > 8
    }

    private static func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }

    // The documented shapes, only the fields used (everything optional: directories omit freely).
    private struct ITunes: Decodable {
        struct Item: Decodable {
            var collectionId: Int64?, collectionName: String?, trackName: String?, artistName: String?, feedUrl: String?
            var artworkUrl600: String?, artworkUrl100: String?, trackCount: Int?, genres: [String]?
        }
        var results: [Item]
    }

    /// The legacy chart: `{"feed": {"entry": [{"id": {"attributes": {"im:id": "…"}}}]}}`.
    private struct ITunesChart: Decodable {
        struct Entry: Decodable {
            struct ID: Decodable {
                struct Attributes: Decodable {
                    var id: String?
                    enum CodingKeys: String, CodingKey { case id = "im:id" }
                }
                var attributes: Attributes?
            }
            var id: ID?
        }
        struct Feed: Decodable {
            var entry: [Entry]
            enum CodingKeys: String, CodingKey { case entry }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                if let list = try? container.decode([Entry].self, forKey: .entry) {
                    entry = list
                } else if let one = try container.decodeIfPresent(Entry.self, forKey: .entry) {
                    entry = [one]
                } else {
                    entry = [] // an empty chart has no "entry" at all
                }
            }
        }
        var feed: Feed
    }

    private struct PodcastIndex: Decodable {
        struct Feed: Decodable {
            var title: String?, author: String?, ownerName: String?, url: String?, image: String?, artwork: String?
            var episodeCount: Int?, categories: [String: String]?
        }
        var feeds: [Feed]
    }
}
