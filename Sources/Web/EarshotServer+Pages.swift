import EarshotCore
import Foundation
import Mustache

extension EarshotServer {
    /// Paths the web client routes itself; the server renders the same page for each, with the
    /// library in it so the first paint shows something before any script runs.
    static func isPagePath(_ path: String) -> Bool {
        if path == "/" || path == "/player" || path == "/queue" || path == "/playlists" || path == "/downloads" || path == "/devices" { return true }
        let parts = path.split(separator: "/")
        return parts.count == 2 && (parts[0] == "podcast" || parts[0] == "episode" || parts[0] == "playlist")
            && Int64(parts[1]) != nil
    }

    func page(_ request: HTTPRequest) async -> HTTPResponse? {
        guard Self.isPagePath(request.path) else { return nil }
        do {
            let podcasts = try await store.podcasts()
            let episodes = try await store.recentEpisodes(limit: 100)
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
                     "dateISO": .string(DisplayFormat.isoDay(e.published)), "played": .bool(e.played)]
                }),
            ]
            let html = try templates.render("index", context)
            return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8",
                                headers: [("cache-control", "no-store")], body: Data(html.utf8))
        } catch {
            return .error(500, "could not render the page: \(error)")
        }
    }
}
