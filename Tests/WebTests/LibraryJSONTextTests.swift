import EarshotCore
import Foundation
import Testing
@testable import Web

/// The episode lists write their own JSON text (`JSONTextWritable`): it must read back as exactly what
/// their `Encodable` form gives (the generic path every other answer takes).
@Suite("Episode lists written directly")
struct LibraryJSONTextTests {
    static func direct(_ value: some JSONTextWritable) throws -> JSONValue {
        var writer = JSONTextWriter()
        try value.writeJSON(into: &writer)
        return try JSONDecoder().decode(JSONValue.self, from: Data(writer.take()))
    }

    static func generic(_ value: some Encodable) throws -> JSONValue {
        try JSONValueEncoder().encode(value)
    }

    static let podcast = Podcast(id: 7, feedURL: "https://example.org/feed", title: "Show \"quoted\"", author: "A",
                                 summary: "S", artworkURL: nil, link: "https://example.org", episodeCount: 2)

    static var episodes: [Episode] {
        var details = EpisodeDetails()
        details.subtitle = "Sub"
        details.explicit = true
        details.number = 12
        details.enclosures = [FeedEnclosure(url: "https://cdn.example.org/a.mp3", type: "audio/mpeg", length: 99)]
        details.notes = SanitizedHTML(nodes: [.element("p", attributes: [:], children: [.text("Hi "),
                                              .element("a", attributes: ["href": "https://x.org/"], children: [.text("link")])])])
        return [
            Episode(id: 1, podcastID: 7, podcastTitle: "Show", guid: "g1", title: "Tab\there, \\ slash / and \u{1}",
                    summary: "Line\nbreak \u{E9}\u{65E5}", mediaURL: "https://cdn.example.org/1.mp3", mediaType: "audio/mpeg",
                    mediaLength: 1_234_567_890_123, duration: 3_600.5, published: Date(timeIntervalSince1970: 1_700_000_000.25),
                    artworkURL: "https://example.org/1.jpg", position: 12.75, played: true, inInbox: true),
            Episode(id: 2, podcastID: 7, guid: "g2", title: "No date", mediaURL: "", published: nil, artworkURL: nil),
            Episode(id: 3, podcastID: 7, guid: "g3", title: "With details", mediaURL: "https://cdn.example.org/a.mp3",
                    duration: 0, details: details),
        ]
    }

    @Test("an episode, with and without details, dates and artwork; text that needs escaping")
    func episodes() throws {
        for episode in Self.episodes {
            #expect(try Self.direct(episode) == Self.generic(episode), "\(episode.title)")
        }
    }

    @Test("the pages: a list page (with and without a total), a podcast with its episodes, a playlist, none at all")
    func bodies() throws {
        let episodes = Self.episodes
        for page in [EarshotServer.PageBody(episodes: episodes, offset: 40, more: true, total: 1_003),
                     EarshotServer.PageBody(episodes: [], offset: 0, more: false, total: nil),
                     EarshotServer.PageBody(episodes: episodes, after: 9_007, offset: 0, more: true, total: nil)] {
            #expect(try Self.direct(page) == Self.generic(page))
        }
        let withEpisodes = EarshotServer.PodcastEpisodesBody(podcast: Self.podcast, episodes: episodes)
        #expect(try Self.direct(withEpisodes) == Self.generic(withEpisodes))
        let playlist = EarshotServer.PlaylistBody(
            playlist: Playlist(id: 3, name: "Mix", created: Date(timeIntervalSince1970: 1_700_000_000),
                               updated: Date(timeIntervalSince1970: 1_700_000_100), episodeIDs: [1, 2, 3], duration: 3_600.5),
            episodes: episodes)
        #expect(try Self.direct(playlist) == Self.generic(playlist))
        // And HTTPResponse.json takes the direct way for them.
        let response = try HTTPResponse.json(withEpisodes)
        #expect(try JSONDecoder().decode(JSONValue.self, from: response.body) == Self.generic(withEpisodes))
    }
}
