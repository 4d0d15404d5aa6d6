import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// Named playlists on a live server: `playlist.*` over the socket, seen by a second client,
/// read back over HTTP, and played into Up Next on real mpv.
@Suite("Playlists over the socket and HTTP", .serialized)
struct PlaylistSocketTests {
    /// The playlists as `GET /api/playlists` returns them: name and episode ids.
    private func listed(_ h: ServerHarness) async throws -> [(name: String, ids: [Int64])] {
        let lists = try #require(try await h.json("/api/playlists")["playlists"] as? [[String: Any]])
        return lists.map { ($0["name"] as? String ?? "?", ($0["episodeIds"] as? [Int] ?? []).map(Int64.init)) }
    }

    @Test("every edit from one client reaches the other as `playlists`, and HTTP reads the result")
    func editsSeenByBothClients() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()
            let (e0, e1) = (h.episodes[0].id, h.episodes[1].id)
            let isPlaylists: ([String: Any]) -> Bool = { $0["type"] as? String == "playlists" }

            #expect(try await a.reply(1, #""cmd":"playlist.create","name":"  Commute ","episodes":[\#(e1)]"#)["type"] as? String == "ack")
            _ = try await b.receive(until: isPlaylists)
            _ = try await a.receive(until: isPlaylists) // the sender hears it too, after its ack
            var lists = try await listed(h)
            #expect(lists.map(\.name) == ["Commute"] && lists[0].ids == [e1])
            let all = try #require(try await h.json("/api/playlists")["playlists"] as? [[String: Any]])
            let id = try #require(all.first?["id"] as? Int)
            #expect(all.first?["count"] as? Int == 1 && all.first?["duration"] as? Double == 60)

            #expect(try await b.reply(2, #""cmd":"playlist.add","playlist":\#(id),"episode":\#(e0)"#)["type"] as? String == "ack")
            _ = try await a.receive(until: isPlaylists)
            #expect(try await listed(h)[0].ids == [e1, e0])

            // Adding again changes nothing (but is no error).
            #expect(try await a.reply(3, #""cmd":"playlist.add","playlist":\#(id),"episodes":[\#(e1),\#(e0)]"#)["type"] as? String == "ack")
            #expect(try await listed(h)[0].ids == [e1, e0])

            #expect(try await a.reply(4, #""cmd":"playlist.move","playlist":\#(id),"from":1,"to":0"#)["type"] as? String == "ack")
            _ = try await b.receive(until: isPlaylists)
            let one = try await h.json("/api/playlists/\(id)")
            #expect(((one["episodes"] as? [[String: Any]]) ?? []).map { $0["id"] as? Int } == [Int(e0), Int(e1)])
            #expect(((one["episodes"] as? [[String: Any]])?.first)?["title"] as? String == "First tone")
            #expect((one["playlist"] as? [String: Any])?["name"] as? String == "Commute")

            #expect(try await b.reply(5, #""cmd":"playlist.rename","playlist":\#(id),"name":"Evening""#)["type"] as? String == "ack")
            _ = try await a.receive(until: isPlaylists)
            #expect(try await listed(h).map(\.name) == ["Evening"])

            #expect(try await a.reply(6, #""cmd":"playlist.remove","playlist":\#(id),"episode":\#(e0)"#)["type"] as? String == "ack")
            _ = try await b.receive(until: isPlaylists)
            #expect(try await listed(h)[0].ids == [e1])

            #expect(try await b.reply(7, #""cmd":"playlist.delete","playlist":\#(id)"#)["type"] as? String == "ack")
            _ = try await a.receive(until: isPlaylists)
            lists = try await listed(h)
            #expect(lists.isEmpty)
            #expect(try await h.http("/api/playlists/\(id)").status == 404)
        }
    }

    @Test("refused edits say why and tell no one")
    func refusals() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()
            _ = try await a.reply(1, #""cmd":"playlist.create","name":"Mine""#)
            _ = try await b.receive { $0["type"] as? String == "playlists" }
            let id = try #require((try await h.json("/api/playlists")["playlists"] as? [[String: Any]])?.first?["id"] as? Int)
            let cases: [(String, String)] = [
                (#""cmd":"playlist.create","name":"MINE""#, "a playlist named \"MINE\" already exists"),
                (#""cmd":"playlist.create","name":" ""#, "a playlist needs a name"),
                (#""cmd":"playlist.add","playlist":\#(id),"episode":999999"#, "no episode with id 999999"),
                (#""cmd":"playlist.add","playlist":424242,"episode":\#(h.episodes[0].id)"#, "no playlist with id 424242"),
                (#""cmd":"playlist.move","playlist":\#(id),"from":0,"to":1"#, "no position 1 in a playlist of 0 episodes"),
                (#""cmd":"playlist.remove","playlist":\#(id),"episode":\#(h.episodes[0].id)"#,
                 "episode \(h.episodes[0].id) is not in playlist \(id)"),
                (#""cmd":"playlist.play","playlist":\#(id)"#, "the playlist \"Mine\" is empty"),
            ]
            for (index, (command, message)) in cases.enumerated() {
                let reply = try await a.reply(10 + index, command)
                #expect(reply["type"] as? String == "error" && reply["message"] as? String == message, "\(command): \(reply)")
            }
            // The socket handles commands in order: B's ping is answered after anything the refused
            // commands could have sent, and nothing came.
            try await b.send(#"{"id":"p","cmd":"ping"}"#)
            var seen: [String] = []
            while true {
                let message = try await b.receiveJSON()
                if message["type"] as? String == "ack", message["id"] as? String == "p" { break }
                seen.append(message["type"] as? String ?? "?")
            }
            #expect(!seen.contains("playlists"), "\(seen)")
            #expect(try await h.json("/api/playlists/\(id)")["episodes"] as? [Any] != nil)
        }
    }

    @Test("HTTP: reads only, 404 for unknown playlists, and the page paths render")
    func http() async throws {
        try await ServerHarness.with { h in
            #expect((try await h.json("/api/playlists")["playlists"] as? [Any])?.isEmpty == true)
            #expect(try await h.http("/api/playlists/7").status == 404)
            #expect(try await h.http("/api/playlists/x").status == 404)
            #expect(try await h.http("/api/playlists/1/2").status == 404)
            let post = try await h.http("/api/playlists", method: "POST", headers: ["Content-Type": "application/json"], body: Data(#"{"name":"x"}"#.utf8))
            #expect(post.status == 405)
            try await h.store.createPlaylist(name: "Paged", episodes: [h.episodes[0].id])
            #expect(try await h.http("/api/playlists", method: "HEAD").status == 200)
            for path in ["/playlists", "/playlist/1"] {
                let page = try await h.http(path)
                #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true, "\(path)")
            }
            #expect(try await h.http("/playlist/x").status == 404)
        }
    }

    /// `playlist.play` on a live server with real mpv: Up Next becomes the playlist, its first
    /// episode (or the chosen one) plays, and a second client sees it in the state.
    @Test("playlist.play replaces Up Next and plays; the other client sees it")
    func play() async throws {
        try await ServerHarness.with { h in
            let a = try await h.socket(), b = try await h.socket()
            _ = try await a.receiveJSON(); _ = try await b.receiveJSON()
            let (e0, e1) = (h.episodes[0].id, h.episodes[1].id)
            // Something the playlist lacks plays first, with e0 queued after it.
            let other = try await h.store.subscribe(feedURL: "http://127.0.0.1/other.xml", content: FeedContent(
                title: "Other", items: [FeedItem(guid: "x", title: "Other tone", enclosureURL: h.episodes[0].mediaURL, duration: 60)]))
            let extra = try #require(try await h.store.episodes(podcastID: other.id).first).id
            _ = try await a.reply(1, #""cmd":"play","episode":\#(extra)"#)
            _ = try await a.reply(9, #""cmd":"queue.add","episode":\#(e0)"#)
            #expect(await h.engine.state.queue == [extra, e0])
            let list = try await h.store.createPlaylist(name: "Both", episodes: [e1, e0])
            #expect(try await a.reply(2, #""cmd":"playlist.play","playlist":\#(list.id)"#)["type"] as? String == "ack")
            let seen = try await b.receive { state in
                (state["episode"] as? [String: Any])?["id"] as? Int == Int(e1)
                    && state["queue"] as? [Int] == [Int(e1), Int(e0)] && state["paused"] as? Bool == false
            }
            #expect(seen["type"] as? String == "state")
            #expect(await h.engine.state.queue == [e1, e0])
            // Start at a chosen episode.
            #expect(try await b.reply(3, #""cmd":"playlist.play","playlist":\#(list.id),"episode":\#(e0)"#)["type"] as? String == "ack")
            _ = try await a.receive { ($0["episode"] as? [String: Any])?["id"] as? Int == Int(e0) && $0["queue"] as? [Int] == [Int(e1), Int(e0)] }
            let deadline = Date().addingTimeInterval(5)
            while await h.engine.state.position < 0.3, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(await h.engine.state.position >= 0.3, "mpv plays the chosen episode")
            // Playing is not an edit: the playlist is unchanged.
            #expect(try await h.store.playlist(id: list.id)?.episodeIDs == [e1, e0])
        }
    }
}
