import EarshotCore
import Foundation

extension EarshotServer {
    private struct RefreshBody: Encodable { var refresh: RefreshStatus }
    private struct RemovedBody: Encodable { var removed: Int64 }

    /// Sends the refresher's progress to every client as `refresh` messages, a `library` message
    /// after each run, and starts the periodic refresh.
    func startRefreshing() async {
        let transport = self.transport
        await refresher.observe(
            progress: { status in transport.enqueue(SocketOutbox.Message(kind: .other, text: status.message()), to: nil) },
            libraryChanged: { [weak self] in self?.libraryChanged() })
        if let refreshSchedule { await refresher.startPeriodic(refreshSchedule) }
    }

    /// Unsubscribing and refreshing (docs/protocol.md); nil when the request is not one of these.
    func refreshAPI(_ request: HTTPRequest, _ parts: [String]) async throws -> HTTPResponse? {
        switch (request.method, parts.count, parts.first) {
        case ("DELETE", 2, "podcasts"):
            guard let id = Int64(parts[1]), try await store.unsubscribe(podcastID: id)
            else { return .error(404, "no podcast \(parts[1])") }
            libraryChanged()
            return .json(RemovedBody(removed: id))
        case ("POST", 3, "podcasts") where parts[2] == "refresh":
            guard let id = Int64(parts[1]), let status = try await refresher.refresh(podcastID: id)
            else { return .error(404, "no podcast \(parts[1])") }
            return .json(RefreshBody(refresh: status), status: 202)
        case ("POST", 1, "refresh"):
            return .json(RefreshBody(refresh: try await refresher.refreshAll()), status: 202)
        case ("GET", 1, "refresh"), ("HEAD", 1, "refresh"):
            return .json(RefreshBody(refresh: await refresher.currentStatus))
        case (_, 1, "refresh"):
            return .error(405, "\(request.method) is not allowed on \(request.path)")
        default:
            return nil
        }
    }
}
