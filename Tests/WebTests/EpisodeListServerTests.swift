import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// `GET /api/episodes` with filters, sorts and pages, `GET /api/inbox`, and `inbox.*` over a
/// real socket (seen by a second client), on a live server with real mpv.
@Suite("Episode lists and the Inbox on a live server", .serialized)
struct EpisodeListServerTests {
    private func titles(_ body: [String: Any]) -> [String] {
        (body["episodes"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test("lists: filter, sort, podcast, pages with `more`; mistakes are 400 in words")
    func lists() async throws {
        try await ServerHarness.with { h in
            var body = try await h.json("/api/episodes")
            #expect(titles(body) == ["First tone", "Second tone"] && body["more"] as? Bool == false && body["offset"] as? Int == 0)
            body = try await h.json("/api/episodes?sort=oldest&limit=1")
            #expect(titles(body) == ["Second tone"] && body["more"] as? Bool == true)
            body = try await h.json("/api/episodes?sort=oldest&limit=1&offset=1")
            #expect(titles(body) == ["First tone"] && body["more"] as? Bool == false && body["offset"] as? Int == 1)
            // Keyset: the page after an episode says so (and no offset).
            let second = try await h.json("/api/episodes?sort=oldest&limit=1")
            let secondID = try #require((second["episodes"] as? [[String: Any]])?.first?["id"] as? Int)
            body = try await h.json("/api/episodes?sort=oldest&limit=1&after=\(secondID)")
            #expect(titles(body) == ["First tone"] && body["more"] as? Bool == false && body["after"] as? Int == secondID && body["offset"] == nil)
            body = try await h.json("/api/inbox?after=\(secondID)")
            #expect(titles(body).isEmpty && body["total"] as? Int == 1 && body["after"] as? Int == secondID,
                    "the Inbox after its older episode: nothing, the total still counts the whole Inbox")
            try await h.store.savePosition(episodeID: h.episodes[1].id, position: 5)
            #expect(titles(try await h.json("/api/episodes?filter=inprogress&podcast=\(h.podcast.id)")) == ["Second tone"])
            #expect(titles(try await h.json("/api/episodes?filter=played")).isEmpty)
            #expect(titles(try await h.json("/api/episodes?filter=downloaded")).isEmpty)
            for (query, message) in [("filter=new", "filter is one of unplayed, inprogress, downloaded, played, not \"new\""),
                                     ("sort=best", "sort is one of newest, oldest, shortest, longest, not \"best\""),
                                     ("offset=-3", "offset is a whole number ≥ 0, not \"-3\""), ("podcast=abc", "podcast is a podcast id, not \"abc\""),
                                     ("after=abc", "after is an episode id, not \"abc\""),
                                     ("after=1&offset=2", "a page starts after an episode or at an offset, not both"),
                                     ("after=999999", "after: there is no episode 999999 (it was removed): list from the start")] {
                let response = try await h.http("/api/episodes?\(query)")
                #expect(response.status == 400, "\(query)")
                #expect((try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String == message)
            }
            #expect(try await h.http("/api/episodes?podcast=999").status == 404)
        }
    }

    @Test("Inbox: listed with its total; queueing, playing and dismissing take episodes out, every client hears it")
    func inbox() async throws {
        try await ServerHarness.with { h in
            // The harness's podcast is a new subscription: its newest episode is in the Inbox.
            var body = try await h.json("/api/inbox")
            #expect(titles(body) == ["First tone"] && body["total"] as? Int == 1)
            var refreshed = FeedContent(title: "Test Tones", items: [])
            for (index, title) in ["Third tone", "Fourth tone", "Fifth tone"].enumerated() {
                // Each its own file: items sharing an enclosure would be taken for one episode whose guid changed.
                let file = h.directory.file("tone-\(index).wav")
                try FileManager.default.copyItem(atPath: h.episodes[0].mediaURL, toPath: file.path)
                refreshed.items.append(FeedItem(guid: "n\(index)", title: title, enclosureURL: file.path, duration: 60,
                                                published: Date(timeIntervalSince1970: 1_790_000_000 + Double(index))))
            }
            _ = try await h.store.storeRefresh(podcastID: h.podcast.id, content: refreshed, etag: nil, lastModified: nil)
            body = try await h.json("/api/inbox?limit=2")
            #expect(titles(body) == ["Fifth tone", "Fourth tone"] && body["total"] as? Int == 4 && body["more"] as? Bool == true, "\(body)")
            let ids = Dictionary(uniqueKeysWithValues: try await h.store.episodes(podcastID: h.podcast.id).map { ($0.title, $0.id) })
            #expect((try await h.json("/api/episodes/\(ids["Fifth tone"]!)")["episode"] as? [String: Any])?["inbox"] as? Bool == true)

            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()
            let isLibrary: ([String: Any]) -> Bool = { $0["type"] as? String == "library" }
            #expect(try await a.reply(1, #""cmd":"inbox.dismiss","episode":\#(ids["Fifth tone"]!)"#)["type"] as? String == "ack")
            _ = try await b.receive(until: isLibrary)
            #expect(try await a.reply(2, #""cmd":"queue.add","episode":\#(ids["Fourth tone"]!)"#)["type"] as? String == "ack")
            _ = try await b.receive(until: isLibrary)
            #expect(try await a.reply(3, #""cmd":"play","episode":\#(ids["Third tone"]!)"#)["type"] as? String == "ack")
            _ = try await b.receive(until: isLibrary) // it left the Inbox: lists change
            #expect(titles(try await h.json("/api/inbox")) == ["First tone"], "dismissed, queued and played ones left")
            let unknown = try await a.reply(4, #""cmd":"inbox.dismiss","episode":99999"#)
            #expect(unknown["type"] as? String == "error" && unknown["message"] as? String == "no episode with id 99999")
            #expect(try await b.reply(5, #""cmd":"inbox.clear""#)["type"] as? String == "ack")
            _ = try await a.receive(until: isLibrary)
            body = try await h.json("/api/inbox")
            #expect(titles(body).isEmpty && body["total"] as? Int == 0)
        }
    }
}
