import EarshotCore
import Foundation

/// The library's lists (docs/protocol.md "HTTP"): podcasts, episodes, the playback state.
extension EarshotServer {
    private struct PodcastsBody: Encodable { var podcasts: [Podcast] }
    struct PodcastBody: Encodable { var podcast: Podcast }
    private struct PodcastEpisodesBody: Encodable { var podcast: Podcast; var episodes: [Episode] }
    private struct EpisodesBody: Encodable { var episodes: [Episode] }
    private struct EpisodeBody: Encodable { var episode: Episode }

    /// `GET /api/episodes` returns at most this many (newest first); `?limit=` asks for fewer or more, up to here.
    static let episodeLimit = 1000
    /// Without `?limit=`.
    static let defaultEpisodeLimit = 100

    func listPodcasts(_ request: HTTPRequest) async throws -> HTTPResponse {
        try .json(PodcastsBody(podcasts: try await store.podcasts()))
    }

    func onePodcast(_ request: HTTPRequest) async throws -> HTTPResponse {
        try .json(PodcastBody(podcast: try await podcast(request)))
    }

    func podcastEpisodes(_ request: HTTPRequest) async throws -> HTTPResponse {
        let podcast = try await podcast(request)
        return try .json(PodcastEpisodesBody(podcast: podcast, episodes: try await store.episodes(podcastID: podcast.id)))
    }

    func recentEpisodes(_ request: HTTPRequest) async throws -> HTTPResponse {
        let asked = Int(request.query["limit"] ?? "") ?? Self.defaultEpisodeLimit
        let limit = min(max(asked, 1), Self.episodeLimit)
        return try .json(EpisodesBody(episodes: try await store.recentEpisodes(limit: limit)))
    }

    func oneEpisode(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.id()
        guard let episode = try await store.episode(id: id) else { throw HTTPError.notFound("no episode \(id)") }
        return try .json(EpisodeBody(episode: episode))
    }

    func playbackState(_ request: HTTPRequest) async throws -> HTTPResponse {
        .jsonText(Data(await engine.snapshot().encoded().utf8))
    }

    /// The `{id}` podcast, subscribed or not (404 when the library has none).
    func podcast(_ request: HTTPRequest) async throws -> Podcast {
        let id = try request.id()
        guard let podcast = try await store.podcast(id: id) else { throw HTTPError.notFound("no podcast \(id)") }
        return podcast
    }
}
