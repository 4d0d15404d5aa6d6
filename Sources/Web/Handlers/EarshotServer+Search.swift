import EarshotCore
import Foundation

/// Library search (docs/protocol.md): `GET /api/search?q=…&limit=…`.
extension EarshotServer {
    /// Results of each kind sent at most (a search box shows a screenful; asking for more is allowed).
    static let searchDefaultLimit = 20
    static let searchMaximumLimit = 100

    /// Podcasts and episodes matching `q`, best first, with snippets whose matches are ranges.
    /// A blank or punctuation-only `q` finds nothing (200, empty lists): a search box sends what
    /// is typed, and typing is never an error.
    func librarySearch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let text = request.query["q"] ?? ""
        guard text.count <= Self.directoryTermLimit else {
            throw HTTPError.badRequest("a search is at most \(Self.directoryTermLimit) characters")
        }
        let asked = Int(request.query["limit"] ?? "") ?? Self.searchDefaultLimit
        var filter: EpisodeQuery.Filter?
        switch EpisodeQuery.parse(["filter": request.query["filter"] ?? ""]) {
        case .success(let parsed): filter = parsed.filter
        case .failure(let error): throw HTTPError.badRequest(error.message)
        }
        return try .json(try await store.search(text, limit: min(max(asked, 1), Self.searchMaximumLimit), filter: filter))
    }
}
