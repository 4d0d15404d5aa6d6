import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// `GET /api/search` and `GET /api/episodes/{id}/transcript` on a live server; transcripts
/// served by a loopback HTTP server from the real samples in Tests/Fixtures/transcripts.
@Suite("Library search and transcripts on a live server", .serialized)
struct LibrarySearchServerTests {
    static let samples = ServerHarness.repository.appendingPathComponent("Tests/Fixtures/transcripts")

    static func object(_ response: RawHTTP.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)")
    }

    /// Subscribes a podcast whose episodes link the given transcripts (nil: none).
    static func subscribe(_ h: ServerHarness, transcripts: [[FeedTranscript]?]) async throws -> [Episode] {
        let items = transcripts.enumerated().map { index, links in
            var item = FeedItem(guid: "q\(index)", title: "Trailer talk \(index)", summary: "Buzzsprout answers a question.",
                                enclosureURL: h.episodes[0].mediaURL, duration: 60,
                                published: Date(timeIntervalSince1970: 1_790_000_000 + Double(index)))
            item.details.transcripts = links ?? []
            return item
        }
        let podcast = try await h.store.subscribe(feedURL: "http://127.0.0.1/qa.xml", content: FeedContent(title: "Podcasting Q&A", items: items))
        return try await h.store.episodes(podcastID: podcast.id).sorted { $0.title < $1.title }
    }

    @Test("search: title hits first, snippets as ranges, typing never an error, unsubscribed gone")
    func search() async throws {
        try await ServerHarness.with { h in
            var response = try await h.http("/api/search?q=tone")
            #expect(response.status == 200, "\(response.text)")
            var body = try Self.object(response)
            #expect((body["podcasts"] as? [Any])?.isEmpty == true, "\"Tones\" is another word than \"tone\" (no stemming)")
            let podcasts = try #require(try Self.object(try await h.http("/api/search?q=tone*"))["podcasts"] as? [[String: Any]])
            #expect(podcasts.map { ($0["podcast"] as? [String: Any])?["title"] as? String } == ["Test Tones <b>&amp; friends</b>"])
            let episodes = try #require(body["episodes"] as? [[String: Any]])
            #expect(episodes.compactMap { ($0["episode"] as? [String: Any])?["title"] as? String }.sorted() == ["First tone", "Second tone"])
            #expect(episodes.allSatisfy { $0["in"] as? String == "title" && $0.keys.contains("at") })
            let snippet = try #require(episodes.first?["snippet"] as? [String: Any])
            let text = try #require(snippet["text"] as? String), marks = try #require(snippet["marks"] as? [[Int]])
            let units = Array(text.utf16)
            #expect(marks.map { String(decoding: units[$0[0]..<$0[1]], as: UTF16.self) } == ["tone"])

            response = try await h.http("/api/search?q=script")
            body = try Self.object(response)
            let notes = try #require(body["episodes"] as? [[String: Any]])
            #expect(notes.count == 1 && notes.first?["in"] as? String == "notes", "\(response.text)")

            for typed in ["", "%22", "*", "NEAR(", "a%3Ab", "%28%28", "-x", "%E2%80%9Ctone%E2%80%9D"] {
                response = try await h.http("/api/search?q=\(typed)")
                #expect(response.status == 200, "\(typed): \(response.text)")
            }
            #expect(try await h.http("/api/search?q=\(String(repeating: "a", count: 201))").status == 400)
            try await h.store.setPlayed(episodeID: h.episodes[0].id, played: true)
            let played = try Self.object(try await h.http("/api/search?q=tone&filter=played"))
            #expect((played["episodes"] as? [[String: Any]])?.compactMap { ($0["episode"] as? [String: Any])?["title"] as? String } == ["First tone"])
            #expect(try await h.http("/api/search?q=tone&filter=new").status == 400)
            #expect(try await h.http("/api/search?q=tone&limit=1").text.components(separatedBy: "\"in\"").count == 2, "limit")
            #expect(try await h.http("/api/podcasts/\(h.podcast.id)", method: "DELETE").status == 200)
            body = try Self.object(try await h.http("/api/search?q=tone"))
            #expect((body["podcasts"] as? [Any])?.isEmpty == true && (body["episodes"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("transcript: fetched once when opened, kept, its words searchable with the time; none is 404")
    func transcript() async throws {
        let files = try FixtureHTTPServer()
        defer { files.stop() }
        files.set("/trailer.vtt", .init(headers: ["Content-Type": "text/vtt"],
                                        body: try Data(contentsOf: Self.samples.appendingPathComponent("podcasting-qa-trailer.vtt"))))
        files.set("/trailer.txt", body: Data("a plain text".utf8))
        try await ServerHarness.with { h in
            let episodes = try await Self.subscribe(h, transcripts: [
                [FeedTranscript(url: files.url("/trailer.txt").absoluteString, type: "text/plain"),
                 FeedTranscript(url: files.url("/trailer.vtt").absoluteString, type: "text/vtt")],
                nil,
            ])
            #expect(try await h.http("/api/search?q=gillian").text.contains("\"transcript\"") == false, "not fetched yet")
            let response = try await h.http("/api/episodes/\(episodes[0].id)/transcript")
            #expect(response.status == 200, "\(response.text)")
            let body = try Self.object(response)
            #expect(body["format"] as? String == "webvtt" && body["url"] as? String == files.url("/trailer.vtt").absoluteString,
                    "WebVTT chosen over plain text")
            let cues = try #require(body["cues"] as? [[String: Any]])
            #expect(cues.count == 7)
            #expect(cues[2]["text"] as? String == "include in one? Welcome to Podcasting Q&A, where you learn")
            #expect(cues[5]["speaker"] as? String == "Gillian" && cues[5]["start"] as? Double == 19.08 && cues[5]["end"] as? Double == 21.45)
            #expect(!response.text.contains("<v "), "no markup reaches the client")

            let again = try await h.http("/api/episodes/\(episodes[0].id)/transcript")
            #expect(again.status == 200)
            #expect(try (Self.object(again)["cues"] as? [Any])?.count == 7)
            #expect(files.requests.filter { $0.target == "/trailer.vtt" }.count == 1, "kept in the library after the first fetch")

            let found = try Self.object(try await h.http("/api/search?q=careers"))
            let hit = try #require((found["episodes"] as? [[String: Any]])?.first)
            #expect(hit["in"] as? String == "transcript" && hit["at"] as? Double == 21.45, "\(found)")
            #expect(((hit["episode"] as? [String: Any])?["id"] as? Int).map(Int64.init) == episodes[0].id)

            let none = try await h.http("/api/episodes/\(episodes[1].id)/transcript")
            #expect(none.status == 404)
            #expect(try Self.object(none)["error"] as? String == "this episode has no transcript")
            #expect(try await h.http("/api/episodes/99999/transcript").status == 404)
        }
    }

    @Test("a transcript that cannot be fetched or read: 502 in words, not kept, tried again next time")
    func transcriptFaults() async throws {
        let files = try FixtureHTTPServer()
        defer { files.stop() }
        files.set("/t.json", status: 500, body: Data("down".utf8))
        try await ServerHarness.with { h in
            let episodes = try await Self.subscribe(h, transcripts: [[FeedTranscript(url: files.url("/t.json").absoluteString, type: "application/json")]])
            var response = try await h.http("/api/episodes/\(episodes[0].id)/transcript")
            #expect(response.status == 502)
            #expect((try Self.object(response)["error"] as? String)?.hasPrefix("the transcript could not be fetched: ") == true, "\(response.text)")
            files.set("/t.json", .init(headers: ["Content-Type": "application/json"], body: Data("{\"version\": 1, \"segments\": 5}".utf8)))
            response = try await h.http("/api/episodes/\(episodes[0].id)/transcript")
            #expect(response.status == 502)
            #expect((try Self.object(response)["error"] as? String)?.hasPrefix("the transcript could not be read: ") == true, "\(response.text)")
            files.set("/t.json", .init(headers: ["Content-Type": "application/json"], body: try Data(contentsOf:
                Self.samples.appendingPathComponent("podnews-weekly-review-2023-06-02.json"))))
            response = try await h.http("/api/episodes/\(episodes[0].id)/transcript")
            #expect(response.status == 200, "\(response.text)")
            let cues = try #require(try Self.object(response)["cues"] as? [[String: Any]])
            #expect(!cues.isEmpty && cues.allSatisfy { $0["speaker"] is String && $0["start"] is Double })
            #expect(files.requests.count == 3, "each failure was tried again")
        }
    }
}
