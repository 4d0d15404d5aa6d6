import Downloads
import EarshotCore
import Foundation

extension EarshotServer {
    /// Forwards every `downloads` message of the manager to every client. Each client's outbox keeps
    /// only the newest unsent one, so a slow client gets the latest numbers, not a backlog.
    func startDownloads() async {
        guard let downloads else { return }
        let transport = self.transport
        await downloads.addListener { message in transport.send(.downloads(message)) }
    }

    /// Carries out a `download` / `download.*` command.
    func download(_ command: DownloadCommand) async throws(CommandError) {
        guard let downloads else { throw CommandError("downloads are off on this server") }
        try await downloads.handle(command)
    }

    /// `GET /api/downloads`: the `downloads` message as it stands.
    func downloadsSnapshot(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let downloads else { throw HTTPError.notFound("downloads are off on this server") }
        return .jsonText(Data(ServerMessage.downloads(await downloads.message()).encoded().utf8))
    }
}
