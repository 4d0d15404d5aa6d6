import EarshotCore
import Feeds
import Foundation

/// `/api/opml`: `GET` downloads the subscriptions as OPML 2.0, `POST` imports an OPML file (docs/protocol.md).
extension EarshotServer {
    func exportOPML(_ request: HTTPRequest) async throws -> HTTPResponse {
        let text = try await OPMLExport.library(store, templates: templates)
        return HTTPResponse(status: 200, contentType: OPMLExport.contentType,
                            headers: [("content-disposition", "attachment; filename=\"\(OPMLExport.fileName)\""),
                                      ("cache-control", "no-store")],
                            body: Data(text.utf8))
    }

    func importOPML(_ request: HTTPRequest) async throws -> HTTPResponse {
        let report = try await OPMLImport(subscriptions: subscriptions, store: store).run(request.body)
        if !report.added.isEmpty { libraryChanged() }
        return try .json(report)
    }
}

extension OPMLError: PublicHTTPError {
    var httpStatus: Int { 400 }
    var publicMessage: String { description }
}
