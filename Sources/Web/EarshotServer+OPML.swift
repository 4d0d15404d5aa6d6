import EarshotCore
import Feeds
import Foundation

extension EarshotServer {
    /// `/api/opml`: `GET` downloads the subscriptions as OPML 2.0, `POST` imports an OPML file (docs/protocol.md).
    func opml(_ request: HTTPRequest) async -> HTTPResponse {
        switch request.method {
        case "GET", "HEAD":
            do {
                let text = try await OPMLExport.library(store, templates: templates)
                return HTTPResponse(status: 200, contentType: OPMLExport.contentType,
                                    headers: [("content-disposition", "attachment; filename=\"\(OPMLExport.fileName)\""),
                                              ("cache-control", "no-store")],
                                    body: Data(text.utf8))
            } catch {
                return .error(500, "could not export the subscriptions: \(error)")
            }
        case "POST":
            do {
                let report = try await OPMLImport(subscriptions: subscriptions, store: store).run(request.body)
                if !report.added.isEmpty { libraryChanged() }
                return .json(report)
            } catch let error as OPMLError {
                return .error(400, error.description)
            } catch {
                return .error(500, "the library could not answer: \(error)")
            }
        default:
            return .error(405, "\(request.method) is not allowed on \(request.path)")
        }
    }
}
