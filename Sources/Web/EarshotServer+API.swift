import EarshotCore
import Foundation

extension EarshotServer {
    private struct PodcastsBody: Encodable { var podcasts: [Podcast] }
    private struct PodcastBody: Encodable { var podcast: Podcast }
    private struct PodcastEpisodesBody: Encodable { var podcast: Podcast; var episodes: [Episode] }
    private struct EpisodesBody: Encodable { var episodes: [Episode] }
    private struct EpisodeBody: Encodable { var episode: Episode }
    private struct SubscribeBody: Decodable { var url: String }

    /// `/api/…`: JSON in, JSON out; every failure is `{"error"}` with a status (docs/protocol.md).
    func api(_ request: HTTPRequest) async -> HTTPResponse {
        let parts = request.path.split(separator: "/").dropFirst().map(String.init)
        do {
            if let response = try await refreshAPI(request, parts) { return response }
            if let response = try await playlistsAPI(request, parts) { return response }
            if let response = await downloadsAPI(request, parts) { return response }
            switch (request.method, parts.count, parts.first) {
            case ("GET", 1, "podcasts"):
                return .json(PodcastsBody(podcasts: try await store.podcasts()))
            case ("GET", 2, "podcasts"):
                guard let id = Int64(parts[1]), let podcast = try await store.podcast(id: id)
                else { return .error(404, "no podcast \(parts[1])") }
                return .json(PodcastBody(podcast: podcast))
            case ("GET", 3, "podcasts") where parts[2] == "episodes":
                guard let id = Int64(parts[1]), let podcast = try await store.podcast(id: id)
                else { return .error(404, "no podcast \(parts[1])") }
                return .json(PodcastEpisodesBody(podcast: podcast, episodes: try await store.episodes(podcastID: id)))
            case ("GET", 1, "episodes"):
                let limit = min(max(Int(request.query["limit"] ?? "") ?? 100, 1), 1000)
                return .json(EpisodesBody(episodes: try await store.recentEpisodes(limit: limit)))
            case ("GET", 2, "episodes"):
                guard let id = Int64(parts[1]), let episode = try await store.episode(id: id)
                else { return .error(404, "no episode \(parts[1])") }
                return .json(EpisodeBody(episode: episode))
            case ("GET", 1, "state"):
                return HTTPResponse(status: 200, contentType: "application/json", headers: [("cache-control", "no-store")],
                                    body: Data(await engine.snapshot().encoded().utf8))
            case ("POST", 1, "subscriptions"):
                return await subscribe(request)
            case (_, 1, "opml"): return await opml(request)  // GET /api/opml exports, POST imports
            case (_, _, "podcasts"), (_, _, "episodes"), (_, _, "state"), (_, _, "subscriptions"):
                return .error(405, "\(request.method) is not allowed on \(request.path)")
            default:
                return .error(404, "no such endpoint: \(request.path)")
            }
        } catch {
            return .error(500, "the library could not answer: \(error)")
        }
    }

    private func subscribe(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = try? JSONDecoder().decode(SubscribeBody.self, from: request.body) else {
            return .error(400, "send {\"url\": \"http://…\"}")
        }
        do {
            let (podcast, isNew) = try await subscriptions.add(body.url)
            libraryChanged()
            return .json(PodcastBody(podcast: podcast), status: isNew ? 201 : 200)
        } catch {
            return .error(error.status, error.message)
        }
    }
}
