import EarshotCore
import Foundation

/// The library's lists (docs/protocol.md "HTTP"): podcasts, episodes, the playback state.
extension EarshotServer {
    private struct PodcastsBody: Encodable { var podcasts: [Podcast] }
    struct PodcastBody: Encodable { var podcast: Podcast }
    /// Lists write their own text (`JSONTextWritable`); `LibraryJSONTextTests` holds it to their `Encodable` form.
    struct PodcastEpisodesBody: JSONTextWritable {
        var podcast: Podcast
        var episodes: [Episode]
        func writeJSON(into writer: inout JSONTextWriter) throws {
            try writer.writeEpisodes(of: podcast, as: "podcast", episodes)
        }
    }

    /// A page: `after` (the episode it follows) when it was asked so, else `offset`.
    struct PageBody: JSONTextWritable {
        var episodes: [Episode]
        var after: Int64? = nil
        var offset: Int
        var more: Bool
        var total: Int?
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(episodes, forKey: .episodes)
            if let after { try c.encode(after, forKey: .after) } else { try c.encode(offset, forKey: .offset) }
            try c.encode(more, forKey: .more)
            try c.encodeIfPresent(total, forKey: .total)
        }
        enum CodingKeys: String, CodingKey { case episodes, after, offset, more, total }
        func writeJSON(into writer: inout JSONTextWriter) throws {
            var first = true
            writer.openObject()
            writer.key("episodes", depth: 1, first: &first)
            try writer.writeArray(of: episodes)
            if let after { writer.member("after", Double(after), first: &first) } else { writer.member("offset", Double(offset), first: &first) }
            writer.member("more", more, first: &first)
            if let total { writer.member("total", Double(total), first: &first) }
            writer.closeObject(depth: 0, empty: false)
        }
    }
    private struct EpisodeBody: Encodable { var episode: Episode }

    /// The first page the server renders (the same as `GET /api/episodes` without `?limit=`).
    static let defaultEpisodeLimit = EpisodeQuery.defaultLimit

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

    /// `GET /api/episodes?filter=&sort=&podcast=&after=&offset=&limit=`: one page of a list, and
    /// whether more follow (a list pages as it scrolls).
    func listEpisodes(_ request: HTTPRequest) async throws -> HTTPResponse {
        let query: EpisodeQuery
        switch EpisodeQuery.parse(request.query) {
        case .success(let parsed): query = parsed
        case .failure(let error): throw HTTPError.badRequest(error.message)
        }
        if let podcast = query.podcast, try await !store.isSubscribed(podcastID: podcast) { throw HTTPError.notFound("no podcast \(podcast)") }
        try await requireAnchor(query.after)
        let page = try await store.episodes(query)
        return try .json(PageBody(episodes: page.episodes, after: query.after, offset: query.offset, more: page.more, total: nil))
    }

    /// `GET /api/inbox?after=&offset=&limit=`: the Inbox, newest first, with how many it holds.
    func inboxEpisodes(_ request: HTTPRequest) async throws -> HTTPResponse {
        var query = EpisodeQuery()
        let arguments = ["after", "offset", "limit"].reduce(into: [String: String]()) { $0[$1] = request.query[$1] ?? "" }
        switch EpisodeQuery.parse(arguments) {
        case .success(let parsed): query = parsed
        case .failure(let error): throw HTTPError.badRequest(error.message)
        }
        try await requireAnchor(query.after)
        let page = try await store.inbox(after: query.after, offset: query.offset, limit: query.limit)
        return try .json(PageBody(episodes: page.episodes, after: query.after, offset: query.offset, more: page.more, total: page.total))
    }

    /// A page `after` an episode the library no longer holds has no place to start: the client lists again
    /// from the start (400, in words).
    private func requireAnchor(_ after: Int64?) async throws {
        guard let after, try await store.episode(id: after) == nil else { return }
        throw HTTPError.badRequest("after: there is no episode \(after) (it was removed): list from the start")
    }

    /// `inbox.dismiss` / `inbox.clear` from a socket.
    func inbox(_ command: InboxCommand) async throws(CommandError) {
        do {
            switch command {
            case .dismiss(let id):
                guard try await store.episode(id: id) != nil else { throw CommandError("no episode with id \(id)") }
                try await store.leaveInbox(episodeID: id)
            case .clear:
                try await store.clearInbox()
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError.internalFailure("could not change the Inbox", error)
        }
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
