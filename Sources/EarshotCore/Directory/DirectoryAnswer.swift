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
                return try JSONDecoder().decode(ITunes.self, from: data).results.compactMap { item in
                    result(title: item.collectionName ?? item.trackName, author: item.artistName, feed: item.feedUrl,
                           artwork: item.artworkUrl600 ?? item.artworkUrl100, count: item.trackCount,
                           genres: (item.genres ?? []).filter { $0 != "Podcasts" })
                }
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
            var collectionName: String?, trackName: String?, artistName: String?, feedUrl: String?
            var artworkUrl600: String?, artworkUrl100: String?, trackCount: Int?, genres: [String]?
        }
        var results: [Item]
    }

    private struct PodcastIndex: Decodable {
        struct Feed: Decodable {
            var title: String?, author: String?, ownerName: String?, url: String?, image: String?, artwork: String?
            var episodeCount: Int?, categories: [String: String]?
        }
        var feeds: [Feed]
    }
}
