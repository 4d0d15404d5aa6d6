import EarshotCore
import FeedFetching
import Feeds
import Foundation

/// Podcast search in a directory (docs/protocol.md): `GET /api/directory/search?q=…&provider=`,
/// `GET /api/directory/popular`, and the directory settings. The server asks the directory (so
/// the Podcast Index secret never reaches a browser) and marks what the library holds already.
extension EarshotServer {
    private struct ResultsBody: Encodable { var results: [DirectoryResult] }
    private struct SettingsBody: Decodable { var podcastIndexKey: String; var podcastIndexSecret: String }

    /// The longest term sent on (a search box, not a document).
    static let directoryTermLimit = 200

    func directorySearch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let term = (request.query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !term.isEmpty else { throw HTTPError.badRequest("say what to search for: ?q=… (GET /api/directory/popular lists popular podcasts)") }
        guard term.count <= Self.directoryTermLimit else {
            throw HTTPError.badRequest("a search is at most \(Self.directoryTermLimit) characters")
        }
        let (provider, settings) = try await directoryProvider(request)
        let asked = DirectoryRequest.search(provider, base: configuration.directoryBaseURL(provider), term: term,
                                            credentials: settings.credentials, unixTime: Self.unixNow, userAgent: Earshot.userAgent)
        let data = try await askDirectory(provider, asked, doing: "searched")
        return try await resultsResponse(try readAnswer(provider, "search results") { try DirectoryAnswer.results(provider, data) })
    }

    /// `GET /api/directory/popular`: iTunes' top podcasts (the chart, then a lookup for the feed
    /// addresses it leaves out) or Podcast Index's trending feeds.
    func directoryPopular(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (provider, settings) = try await directoryProvider(request)
        let base = configuration.directoryBaseURL(provider)
        let asked = DirectoryRequest.popular(provider, base: base, credentials: settings.credentials,
                                             unixTime: Self.unixNow, userAgent: Earshot.userAgent)
        let data = try await askDirectory(provider, asked, doing: "asked for popular podcasts")
        switch provider {
        case .podcastindex:
            return try await resultsResponse(try readAnswer(provider, "trending feeds") { try DirectoryAnswer.results(.podcastindex, data) })
        case .itunes:
            let ids = try readAnswer(provider, "top podcasts chart") { try DirectoryAnswer.chartIDs(data) }
            guard !ids.isEmpty else { return try await resultsResponse([]) }
            let lookup = DirectoryRequest.lookup(base: base, ids: ids, userAgent: Earshot.userAgent)
            let found = try await askDirectory(provider, lookup, doing: "asked for popular podcasts")
            return try await resultsResponse(try readAnswer(provider, "podcast lookup") { try DirectoryAnswer.lookupResults(found, order: ids) })
        }
    }

    /// `GET /api/directory/settings`: the provider used by default and whether (and whose) a Podcast
    /// Index key is set; never the secret.
    func directorySettings(_ request: HTTPRequest) async throws -> HTTPResponse {
        try .json(await directory.current().summary)
    }

    /// `PUT /api/directory/settings {"podcastIndexKey","podcastIndexSecret"}`: saves both, or with
    /// both empty forgets the saved ones (the environment's, if any, apply again).
    func saveDirectorySettings(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try request.decodeJSON(SettingsBody.self, hint: "send {\"podcastIndexKey\": \"…\", \"podcastIndexSecret\": \"…\"}")
        let credentials: PodcastIndexCredentials?
        switch DirectorySettings.edit(key: body.podcastIndexKey, secret: body.podcastIndexSecret) {
        case .success(let edited): credentials = edited
        case .failure(let error): throw HTTPError.badRequest(error.message)
        }
        return try .json(await directory.save(credentials).summary)
    }

    private static var unixNow: Int64 { Int64(Date().timeIntervalSince1970) }

    private func directoryProvider(_ request: HTTPRequest) async throws -> (DirectoryProvider, DirectorySettings) {
        let settings = await directory.current()
        switch settings.provider(named: request.query["provider"]) {
        case .success(let provider): return (provider, settings)
        case .failure(let error):
            throw HTTPError(DirectoryProvider(rawValue: request.query["provider"] ?? "") == nil ? 400 : 409, error.message)
        }
    }

    private static func directoryName(_ provider: DirectoryProvider) -> String {
        provider == .itunes ? "The iTunes directory" : "Podcast Index"
    }

    /// The directory's answer, or a 502 saying in words what went wrong (down, slow, refused).
    private func askDirectory(_ provider: DirectoryProvider, _ asked: DirectoryRequest, doing what: String) async throws -> Data {
        let who = Self.directoryName(provider)
        guard let url = URL(string: asked.url) else { throw HTTPError(502, "\(who) has no usable address") }
        let fetcher = FeedFetcher(timeout: configuration.directoryTimeout, maximumBytes: 4 * 1_048_576)
        do {
            return try await fetcher.fetch(url, headers: asked.headers.merging(["Accept": "application/json"]) { $1 }).data
        } catch let error as FeedError {
            throw HTTPError(502, "\(who) could not be \(what): \(error)")
        } catch {
            Log.warning("directory", "\(asked.url): \(String(reflecting: error))")
            throw HTTPError(502, "\(who) could not be \(what)")
        }
    }

    private func readAnswer<T>(_ provider: DirectoryProvider, _ what: String, _ read: () throws -> T) throws -> T {
        do { return try read() } catch {
            throw HTTPError(502, "\(Self.directoryName(provider)) answered with something that is not its \(what)")
        }
    }

    /// The results marked with what the library holds, their artwork let through the cache.
    private func resultsResponse(_ found: [DirectoryResult]) async throws -> HTTPResponse {
        var results = found
        let subscribed = Set(try await store.podcasts().map(\.feedURL))
        for index in results.indices { results[index].subscribed = subscribed.contains(results[index].feedUrl) }
        await directory.remember(results)
        await artwork.known(results.compactMap { $0.artwork.flatMap(ArtworkAddress.key(for:)) })
        return try .json(ResultsBody(results: results))
    }
}
