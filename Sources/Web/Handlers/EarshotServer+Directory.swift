import EarshotCore
import FeedFetching
import Feeds
import Foundation

/// Podcast search in a directory (docs/protocol.md): `GET /api/directory/search?q=…&provider=`.
/// The server asks the directory (so the Podcast Index secret never reaches a browser) and marks
/// what the library holds already.
extension EarshotServer {
    private struct ResultsBody: Encodable { var results: [DirectoryResult] }

    /// A directory that has not answered by then is "not answering": a search box waits no longer.
    static let directoryTimeout: TimeInterval = 8
    /// The longest term sent on (a search box, not a document).
    static let directoryTermLimit = 200

    func directorySearch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let term = (request.query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !term.isEmpty else { throw HTTPError.badRequest("say what to search for: ?q=…") }
        guard term.count <= Self.directoryTermLimit else {
            throw HTTPError.badRequest("a search is at most \(Self.directoryTermLimit) characters")
        }
        let name = request.query["provider"] ?? DirectoryProvider.itunes.rawValue
        guard let provider = DirectoryProvider(rawValue: name) else {
            throw HTTPError.badRequest("provider is \"itunes\" or \"podcastindex\", not \"\(name)\"")
        }
        let credentials = configuration.podcastIndexCredentials
        if provider == .podcastindex, credentials == nil {
            throw HTTPError(409, "Podcast Index needs an API key and secret (EARSHOT_PODCASTINDEX_KEY and EARSHOT_PODCASTINDEX_SECRET)")
        }
        let asked = DirectoryRequest.search(provider, base: configuration.directoryBaseURL(provider), term: term,
                                            credentials: credentials, unixTime: Int64(Date().timeIntervalSince1970),
                                            userAgent: Earshot.userAgent)
        let who = provider == .itunes ? "The iTunes directory" : "Podcast Index"
        guard let url = URL(string: asked.url) else { throw HTTPError(502, "\(who) has no usable address") }
        let fetcher = FeedFetcher(timeout: Self.directoryTimeout, maximumBytes: 4 * 1_048_576)
        let answer: FeedFetcher.Response
        do {
            answer = try await fetcher.fetch(url, headers: asked.headers.merging(["Accept": "application/json"]) { $1 })
        } catch let error as FeedError {
            throw HTTPError(502, "\(who) could not be searched: \(error)")
        } catch {
            Log.warning("directory", "\(asked.url): \(String(reflecting: error))")
            throw HTTPError(502, "\(who) could not be searched")
        }
        var results: [DirectoryResult]
        do { results = try DirectoryAnswer.results(provider, answer.data) } catch {
            throw HTTPError(502, "\(who) answered with something that is not its search results")
        }
        let subscribed = Set(try await store.podcasts().map(\.feedURL))
        for index in results.indices { results[index].subscribed = subscribed.contains(results[index].feedUrl) }
        return try .json(ResultsBody(results: results))
    }
}
