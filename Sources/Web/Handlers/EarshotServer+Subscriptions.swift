import EarshotCore
import Foundation

/// Subscribing and unsubscribing (docs/protocol.md).
extension EarshotServer {
    private struct SubscribeBody: Decodable { var url: String }
    private struct RemovedBody: Encodable { var removed: Int64 }

    /// `POST /api/subscriptions {"url"}`: 201 with the new podcast, 200 when it was there (refreshed).
    func subscribe(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try request.decodeJSON(SubscribeBody.self, hint: "send {\"url\": \"http://…\"}")
        let (podcast, isNew) = try await subscriptions.add(body.url)
        libraryChanged()
        return try .json(PodcastBody(podcast: podcast), status: isNew ? 201 : 200)
    }

    /// `DELETE /api/podcasts/{id}`: the podcast leaves every list; its episodes' positions stay.
    func unsubscribe(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.id()
        guard try await store.unsubscribe(podcastID: id) else { throw HTTPError.notFound("no podcast \(id)") }
        libraryChanged()
        return try .json(RemovedBody(removed: id))
    }
}

extension SubscriptionError: PublicHTTPError {
    var httpStatus: Int { status }
    var publicMessage: String { message }
}
