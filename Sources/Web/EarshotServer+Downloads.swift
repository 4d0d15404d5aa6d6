import Downloads
import EarshotCore
import Foundation

extension EarshotServer {
    /// Forwards every `downloads` message of the manager to every client. Each client's outbox keeps
    /// only the newest unsent one, so a slow client gets the latest numbers, not a backlog.
    func startDownloads() async {
        guard let downloads else { return }
        let transport = self.transport
        await downloads.addListener { text in transport.enqueue(SocketOutbox.Message(kind: .downloads, text: text), to: nil) }
    }

    /// Carries out a `download` / `download.*` command.
    func download(_ command: DownloadCommand) async throws(CommandError) {
        guard let downloads else { throw CommandError("downloads are off on this server") }
        try await downloads.handle(command)
    }

    /// `GET /api/downloads`: the `downloads` message as it stands; nil when the request is not about downloads.
    func downloadsAPI(_ request: HTTPRequest, _ parts: [String]) async -> HTTPResponse? {
        guard parts.first == "downloads" else { return nil }
        guard parts.count == 1 else { return .error(404, "no such endpoint: \(request.path)") }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .error(405, "\(request.method) is not allowed on \(request.path): use download.* commands over /ws")
        }
        guard let downloads else { return .error(404, "downloads are off on this server") }
        return HTTPResponse(status: 200, contentType: "application/json", headers: [("cache-control", "no-store")],
                            body: Data(await downloads.snapshot().utf8))
    }
}
