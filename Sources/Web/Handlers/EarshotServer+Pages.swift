import EarshotCore
import Foundation
import Mustache

extension EarshotServer {
    /// One of the app's pages (the web client routes itself; the rows of `routes` name them): the
    /// same page for each, with the library in it so the first paint shows something before any
    /// script runs. A paired device gets its cookie set again, so it lives another 400 days.
    func appPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        var response = try await page()
        if case .device = request.requester, let token = request.headers["cookie"].flatMap(DeviceToken.fromCookieHeader) {
            response.headers.append(("set-cookie", token.setCookie))
        }
        return response
    }

    private func page() async throws -> HTTPResponse {
        let podcasts = try await store.podcasts()
        let episodes = try await store.recentEpisodes(limit: Self.defaultEpisodeLimit)
        let context: MustacheValue = [
            "version": .string(assetVersion),
            "podcasts": .array(podcasts.map { p in
                ["id": .number(Double(p.id)), "title": .string(p.title), "author": .string(p.author),
                 "artwork": Self.artworkSource(p.artworkURL, size: 256).map(MustacheValue.string) ?? .null,
                 "episodeCount": .number(Double(p.episodeCount)),
                 // The tile's badge for a feed whose last refresh failed; the title says why.
                 "badge": p.status == .gone ? "Gone" : p.status == .error ? "Error" : .null,
                 "error": p.error.map(MustacheValue.string) ?? .null]
            }),
            "episodes": .array(episodes.map { e in
                ["id": .number(Double(e.id)), "title": .string(e.title), "podcast": .string(e.podcastTitle),
                 "podcastId": .number(Double(e.podcastID)),
                 "artwork": Self.artworkSource(e.artworkURL, size: 96).map(MustacheValue.string) ?? .null,
                 "durationText": .string(DisplayFormat.duration(e.duration)),
                 "dateText": .string(DisplayFormat.date(e.published)),
                 "dateISO": .string(DisplayFormat.isoDay(e.published)), "played": .bool(e.played), "inbox": .bool(e.inInbox)]
            }),
        ]
        let html = try templates.render("index", context)
        return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8",
                            headers: [("cache-control", "no-store")], body: Data(html.utf8))
    }
}
