import EarshotCore
import Foundation

extension EarshotServer {
    private struct RefreshBody: Encodable { var refresh: RefreshStatus }

    /// Sends the refresher's progress to every client as `refresh` messages, a `library` message
    /// after each run, and starts the periodic refresh.
    func startRefreshing() async {
        let transport = self.transport
        await refresher.observe(
            progress: { status in transport.send(.refresh(status)) },
            libraryChanged: { [weak self] in self?.libraryChanged() })
        if let refreshSchedule { await refresher.startPeriodic(refreshSchedule) }
    }

    /// `POST /api/podcasts/{id}/refresh`: 202, the refresh under way.
    func refreshPodcast(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.id()
        guard let status = try await refresher.refresh(podcastID: id) else { throw HTTPError.notFound("no podcast \(id)") }
        return try .json(RefreshBody(refresh: status), status: 202)
    }

    /// `POST /api/refresh`: every subscription, 202.
    func refreshAll(_ request: HTTPRequest) async throws -> HTTPResponse {
        try .json(RefreshBody(refresh: try await refresher.refreshAll()), status: 202)
    }

    /// `GET /api/refresh`: the run as it stands.
    func refreshStatus(_ request: HTTPRequest) async throws -> HTTPResponse {
        try .json(RefreshBody(refresh: await refresher.currentStatus))
    }
}
