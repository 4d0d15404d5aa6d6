import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// The sync API on a live server, with the requests shaped exactly as AntennaPod sends them
/// (GpodnetService, NextcloudSyncService, NextcloudLoginFlow: headers, bodies, Content-Types,
/// timestamps) — the replay of issue 16. mygpoclient itself is driven in Tests/e2e/test_sync.py.
@Suite("Sync: gpodder.net and Nextcloud APIs, as AntennaPod calls them", .serialized)
struct SyncAPITests {
    static let user = "ann"
    static let password = "correct horse battery"
    static var basic: String { SyncCredentials(user: user, password: password).basicHeader }

    /// Turns sync on through the host's settings, as the Devices view does.
    static func enable(_ h: ServerHarness, password: String? = SyncAPITests.password) async throws {
        var body: [String: String] = ["user": user]
        if let password { body["password"] = password }
        let answer = try await h.http("/api/sync", method: "PUT", headers: ["Content-Type": "application/json"],
                                      body: try JSONSerialization.data(withJSONObject: body))
        try #require(answer.status == 200, "\(answer.text)")
    }

    static func object(_ response: RawHTTP.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.status) \(response.text)")
    }

    static func json(_ value: Any) throws -> Data { try JSONSerialization.data(withJSONObject: value) }

    /// The session cookie of a Set-Cookie header ("sessionid=…").
    static func session(_ response: RawHTTP.Response) throws -> String {
        let header = try #require(response.headers["set-cookie"], "no Set-Cookie in \(response.headers)")
        #expect(header.contains("Path=/") && header.contains("HttpOnly"), "\(header)")
        return String(try #require(header.split(separator: ";").first))
    }

    static let antennaPodJSON = "application/json; charset=utf-8"

    @Test("off until set up: 401 with a Basic challenge saying so; the password made is shown once")
    func setUp() async throws {
        try await ServerHarness.with { h in
            let before = try await h.http("/api/2/devices/ann.json")
            #expect(before.status == 401 && before.headers["www-authenticate"] == "Basic realm=\"Earshot\"")
            #expect(before.text.contains("not set up"))
            #expect(try await h.json("/api/sync")["enabled"] as? Bool == false)

            let made = try await h.http("/api/sync", method: "PUT", headers: ["Content-Type": "application/json"], body: try Self.json(["user": "ann"]))
            let shown = try #require(try Self.object(made)["password"] as? String)
            #expect(shown.count == 23, "\(shown)")
            let status = try await h.json("/api/sync")
            #expect(status["enabled"] as? Bool == true && status["user"] as? String == "ann" && status["password"] == nil, "shown once only")
            let stored = try #require(try await h.store.setting("sync.account"))
            #expect(stored.contains("$y$") && !stored.contains(shown), "a yescrypt hash, never the password")
            let login = try await h.http("/api/2/auth/ann/login.json", method: "POST",
                                         headers: ["Authorization": SyncCredentials(user: "ann", password: shown).basicHeader])
            #expect(login.status == 200)

            for (body, word) in [(["user": "a b"], "user name"), (["user": "ann", "password": "short"], "8 characters")] {
                let refused = try await h.http("/api/sync", method: "PUT", headers: ["Content-Type": "application/json"], body: try Self.json(body))
                #expect(refused.status == 400 && refused.text.contains(word), "\(refused.text)")
            }
            // Off again: sessions and devices forgotten, the API closed.
            #expect(try await h.http("/api/sync", method: "DELETE").status == 200)
            #expect(try await h.http("/api/2/devices/ann.json", headers: ["Cookie": try Self.session(login)]).status == 401)
        }
    }

    @Test("AntennaPod's gpodder.net sync: login, device, subscriptions and episode actions move a position both ways")
    func antennaPodGpodder() async throws {
        try await ServerHarness.with { h in
            try await Self.enable(h)
            // login(): Basic once, an empty body typed "plain/text" (sic), then the cookie alone.
            let login = try await h.http("/api/2/auth/ann/login.json", method: "POST",
                                         headers: ["Authorization": Self.basic, "Content-Type": "plain/text; charset=utf-8"])
            #expect(login.status == 200)
            let cookie = try Self.session(login)
            let devices = try await h.http("/api/2/devices/ann.json", headers: ["Cookie": cookie])
            #expect(devices.status == 200 && devices.text == "[]")
            let created = try await h.http("/api/2/devices/ann/pixel_7.json", method: "POST",
                                           headers: ["Cookie": cookie, "Content-Type": Self.antennaPodJSON],
                                           body: try Self.json(["caption": "Pixel 7", "type": "mobile"]))
            #expect(created.status == 200 && created.body.isEmpty)
            let listed = try #require(try JSONSerialization.jsonObject(with: try await h.http("/api/2/devices/ann.json", headers: ["Cookie": cookie]).body) as? [[String: Any]])
            #expect(listed.count == 1 && listed[0]["id"] as? String == "pixel_7" && listed[0]["caption"] as? String == "Pixel 7"
                    && listed[0]["type"] as? String == "mobile" && listed[0]["subscriptions"] as? Int == 1)

            // The first sync: what the library holds is added; nothing removed.
            let first = try Self.object(try await h.http("/api/2/subscriptions/ann/pixel_7.json?since=0", headers: ["Cookie": cookie]))
            #expect(first["add"] as? [String] == [h.podcast.feedURL] && (first["remove"] as? [String])?.isEmpty == true)
            let since = try #require(first["timestamp"] as? Int)
            #expect(abs(Double(since) - Date().timeIntervalSince1970) < 5)

            // Episode actions: a batch as AntennaPod uploads it (device and guid added, -1 for unknowns).
            let episode = h.episodes.first { $0.guid == "a" }!
            let when = SyncTime.format(Date().timeIntervalSince1970 - 10)
            let upload = try await h.http("/api/2/episodes/ann.json", method: "POST",
                                          headers: ["Cookie": cookie, "Content-Type": Self.antennaPodJSON],
                                          body: try Self.json([[
                                            "podcast": h.podcast.feedURL, "episode": "https://cdn.example/old-address.mp3", "guid": "a",
                                            "action": "play", "timestamp": when, "started": -1, "position": 42, "total": 60,
                                            "device": "pixel_7",
                                          ]]))
            let answer = try Self.object(upload)
            #expect(upload.status == 200 && answer["timestamp"] is Int && (answer["update_urls"] as? [Any])?.isEmpty == true)
            let moved = try #require(try await h.store.episode(id: episode.id))
            #expect(moved.position == 42 && !moved.played, "matched by guid, moved to the phone's position")

            // The phone's action comes back to the others as sent; Earshot's own listening comes as device "earshot".
            try await h.store.setPlayed(episodeID: h.episodes.first { $0.guid == "b" }!.id, played: true)
            let actions = try #require(try Self.object(try await h.http("/api/2/episodes/ann.json?since=\(since)", headers: ["Cookie": cookie]))["actions"] as? [[String: Any]])
            let phone = try #require(actions.first { $0["device"] as? String == "pixel_7" })
            #expect(phone["position"] as? Int == 42 && phone["timestamp"] as? String == when && phone["action"] as? String == "play"
                    && phone["started"] == nil, "-1 means unknown and goes back out as no field")
            let own = try #require(actions.first { $0["device"] as? String == "earshot" }, "\(actions)")
            #expect(own["position"] as? Int == 60 && own["total"] as? Int == 60 && own["podcast"] as? String == h.podcast.feedURL,
                    "played here: at the end, so the phone marks it played")
            #expect(!actions.contains { $0["device"] as? String == "earshot" && $0["guid"] as? String == "a" },
                    "a position the phone set is not sent back as Earshot's")

            // An older action changes nothing: Earshot moved it since.
            try await h.store.savePosition(episodeID: episode.id, position: 50)
            _ = try await h.http("/api/2/episodes/ann.json", method: "POST", headers: ["Cookie": cookie, "Content-Type": Self.antennaPodJSON],
                                 body: try Self.json([["podcast": h.podcast.feedURL, "episode": episode.mediaURL, "action": "play",
                                                       "timestamp": SyncTime.format(Date().timeIntervalSince1970 - 300), "position": 5, "total": 60]]))
            #expect(try await h.store.episode(id: episode.id)?.position == 50)
        }
    }

    @Test("subscriptions from a phone: added ones fetched in the background, removed ones unsubscribed, update_urls for cleaned ones")
    func phoneSubscriptions() async throws {
        let feeds = try FixtureHTTPServer()
        defer { feeds.stop() }
        feeds.set("/new.xml", FixtureHTTPServer.Response(text: """
            <rss version="2.0"><channel><title>From the phone</title>
            <item><guid>n1</guid><title>One</title><enclosure url="https://cdn.example/n1.mp3" type="audio/mpeg" length="1"/></item>
            </channel></rss>
            """, contentType: "application/rss+xml"))
        try await ServerHarness.with { h in
            try await Self.enable(h)
            let newFeed = feeds.url("/new.xml").absoluteString
            // An action for an episode of a podcast not here yet: kept, applied once the feed is in.
            let early = try await h.http("/api/2/episodes/ann.json", method: "POST", headers: ["Authorization": Self.basic],
                                         body: try Self.json([["podcast": newFeed, "episode": "https://cdn.example/n1.mp3", "action": "play",
                                                               "timestamp": SyncTime.format(Date().timeIntervalSince1970 - 60), "position": 33]]))
            #expect(early.status == 200)
            let upload = try await h.http("/api/2/subscriptions/ann/pixel_7.json", method: "POST",
                                          headers: ["Authorization": Self.basic, "Content-Type": Self.antennaPodJSON],
                                          body: try Self.json(["add": [" " + newFeed], "remove": [h.podcast.feedURL]]))
            let answer = try Self.object(upload)
            #expect(answer["update_urls"] as? [[String]] == [[" " + newFeed, newFeed]])
            #expect(try await h.store.podcastID(feedURL: h.podcast.feedURL) == nil, "removed on the phone: unsubscribed here")
            var added: Podcast?
            for _ in 0..<100 where added == nil {
                added = try await h.store.podcasts().first { $0.feedURL == newFeed }
                if added == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let podcast = try #require(added, "the phone's podcast was fetched and stored")
            #expect(podcast.title == "From the phone")
            var episode = try #require(try await h.store.episodes(podcastID: podcast.id).first)
            for _ in 0..<50 where episode.position != 33 {
                try await Task.sleep(for: .milliseconds(100))
                episode = try #require(try await h.store.episodes(podcastID: podcast.id).first)
            }
            #expect(episode.position == 33, "the action sent before the podcast was here is applied once it is")
            let changes = try Self.object(try await h.http("/api/2/subscriptions/ann/other.json?since=1", headers: ["Authorization": Self.basic]))
            #expect(changes["add"] as? [String] == [newFeed] && changes["remove"] as? [String] == [h.podcast.feedURL])
        }
    }

    @Test("an added podcast still being fetched is in the lists phones read; a list sent back without it withdraws it")
    func pendingSubscriptions() async throws {
        let feeds = try FixtureHTTPServer()
        defer { feeds.stop() }
        func feed(_ title: String) -> FixtureHTTPServer.Response {
            // Slow on purpose (a chunk of 40 bytes every 0.3 s): the fetches are still on when the phone reads the list.
            FixtureHTTPServer.Response(headers: ["Content-Type": "application/rss+xml"], body: Data("""
                <rss version="2.0"><channel><title>\(title)</title>
                <item><guid>\(title)-1</guid><title>One</title><enclosure url="https://cdn.example/\(title).mp3" type="audio/mpeg" length="1"/></item>
                </channel></rss>
                """.utf8), chunkDelay: 0.3, chunkSize: 40)
        }
        for name in ["slow", "later", "never"] { feeds.set("/\(name).xml", feed(name)) }
        let (slow, later, never) = (feeds.url("/slow.xml").absoluteString, feeds.url("/later.xml").absoluteString,
                                    feeds.url("/never.xml").absoluteString)
        try await ServerHarness.with { h in
            try await Self.enable(h)
            let auth = ["Authorization": Self.basic]
            let upload = try await h.http("/api/2/subscriptions/ann/pixel.json", method: "POST",
                                          headers: auth.merging(["Content-Type": Self.antennaPodJSON]) { $1 },
                                          body: try Self.json(["add": [slow, later, never], "remove": []]))
            #expect(upload.status == 200)
            // gPodder's simple sync reads the list and puts it back at once: what was just added is in it.
            let listed = try await h.http("/subscriptions/ann/pixel.json", headers: auth)
            #expect(Set(try JSONSerialization.jsonObject(with: listed.body) as? [String] ?? []) == [h.podcast.feedURL, slow, later, never], "\(listed.text)")
            let text = try await h.http("/subscriptions/ann.txt", headers: auth)
            #expect(Set(text.text.split(separator: "\n").map(String.init)) == [h.podcast.feedURL, slow, later, never], "\(text.text)")
            // The phone drops two of them: the one being fetched and one still waiting.
            let put = try await h.http("/subscriptions/ann/pixel.json", method: "PUT", headers: auth, body: try Self.json([h.podcast.feedURL, later]))
            #expect(put.status == 200, "\(put.text)")
            var subscribed: Int64?
            for _ in 0..<150 where subscribed == nil {
                subscribed = try await h.store.podcastID(feedURL: later)
                if subscribed == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(subscribed != nil, "the one kept in the list is fetched and subscribed")
            // `later` was fetched after `slow`'s fetch ended: `slow` came and was taken back.
            #expect(try await h.store.podcastID(feedURL: slow) == nil, "withdrawn while fetched: unsubscribed once it was in")
            #expect(!feeds.requests.contains { $0.target == "/never.xml" }, "withdrawn while waiting: never fetched")
            let after = try await h.http("/subscriptions/ann/pixel.json", headers: auth)
            #expect(Set(try JSONSerialization.jsonObject(with: after.body) as? [String] ?? []) == [h.podcast.feedURL, later], "got \(after.text)")
        }
    }

    @Test("AntennaPod's Nextcloud sync: Login Flow v2 in the phone's browser, then Basic on every request")
    func antennaPodNextcloud() async throws {
        try await ServerHarness.with { h in
            try await Self.enable(h)
            let form = "application/x-www-form-urlencoded; charset=utf-8"
            let start = try await h.http("/index.php/login/v2", method: "POST", headers: ["Content-Type": form, "User-Agent": "AntennaPod/3.7.0"])
            let flow = try Self.object(start)
            let poll = try #require(flow["poll"] as? [String: String])
            let base = "http://127.0.0.1:\(h.port)"
            #expect(poll["endpoint"] == base + "/index.php/login/v2/poll")
            let login = try #require(flow["login"] as? String)
            #expect(login.hasPrefix(base + "/index.php/login/v2/flow/"))
            let token = try #require(poll["token"])
            let loginToken = String(login.dropFirst((base + "/index.php/login/v2/flow/").count))
            #expect(token != loginToken, "the page's address does not give away the poll token")

            let pending = try await h.http("/index.php/login/v2/poll", method: "POST", headers: ["Content-Type": form], body: Data("token=\(token)".utf8))
            #expect(pending.status == 404)
            let page = try await h.http("/index.php/login/v2/flow/\(loginToken)")
            #expect(page.status == 200 && page.text.contains("sync-login-form") && page.text.contains(loginToken))
            #expect(try await h.http("/index.php/login/v2/flow/\(String(repeating: "0", count: 64))").status == 404)

            func grant(_ password: String) async throws -> RawHTTP.Response {
                try await h.http("/index.php/login/v2/grant", method: "POST", headers: ["Content-Type": "application/json"],
                                 body: try Self.json(["token": loginToken, "user": "ann", "password": password]))
            }
            #expect(try await grant("wrong one").status == 401)
            #expect(try await grant(Self.password).status == 200)
            let done = try Self.object(try await h.http("/index.php/login/v2/poll", method: "POST", headers: ["Content-Type": form],
                                                        body: Data("token=\(token)".utf8)))
            #expect(done["server"] as? String == base && done["loginName"] as? String == "ann")
            let appPassword = try #require(done["appPassword"] as? String)
            #expect(try await h.http("/index.php/login/v2/poll", method: "POST", body: Data("token=\(token)".utf8)).status == 404, "handed out once")

            let auth = ["Authorization": SyncCredentials(user: "ann", password: appPassword).basicHeader, "Accept": "application/json"]
            let subscriptions = try Self.object(try await h.http("/index.php/apps/gpoddersync/subscriptions?since=0", headers: auth))
            #expect(subscriptions["add"] as? [String] == [h.podcast.feedURL] && subscriptions["timestamp"] is Int)
            let episode = h.episodes[0]
            var headers = auth
            headers["Content-Type"] = Self.antennaPodJSON
            let upload = try await h.http("/index.php/apps/gpoddersync/episode_action/create", method: "POST", headers: headers,
                                          body: try Self.json([["podcast": h.podcast.feedURL, "episode": episode.mediaURL, "guid": episode.guid,
                                                                "action": "PLAY", "timestamp": SyncTime.format(Date().timeIntervalSince1970 - 5),
                                                                "started": 0, "position": 17, "total": 60]]))
            let uploaded = try Self.object(upload)
            #expect(upload.status == 200 && uploaded["timestamp"] is Int)
            #expect(try await h.store.episode(id: episode.id)?.position == 17)
            let change = try await h.http("/index.php/apps/gpoddersync/subscription_change/create", method: "POST", headers: headers,
                                          body: try Self.json(["add": [], "remove": []]))
            #expect(change.status == 200)
            let actions = try #require(try Self.object(try await h.http("/index.php/apps/gpoddersync/episode_action?since=0", headers: auth))["actions"] as? [[String: Any]])
            #expect(actions.contains { $0["device"] as? String == "nextcloud" && $0["position"] as? Int == 17 && $0["action"] as? String == "play" })
        }
    }

    @Test("credentials: sync's own or none — not the pairing cookie, not the host's loopback; wrong passwords throttled")
    func credentials() async throws {
        try await ServerHarness.with { h in
            try await Self.enable(h)
            // The host may do everything in the app, but sync asks even the host for the account.
            let bare = try await h.http("/api/2/episodes/ann.json")
            #expect(bare.status == 401 && bare.headers["www-authenticate"]?.hasPrefix("Basic realm=") == true)
            let pairingCookie = "earshot_device=" + String(repeating: "ab", count: 32)
            #expect(try await h.http("/api/2/episodes/ann.json", headers: ["Cookie": pairingCookie]).status == 401)
            // Another user's path.
            #expect(try await h.http("/api/2/episodes/bob.json", headers: ["Authorization": Self.basic]).status == 400)
            // Basic on a data request: answered, and a session cookie that then works alone (mygpoclient's way).
            let first = try await h.http("/api/2/episodes/ann.json", headers: ["Authorization": Self.basic])
            #expect(first.status == 200)
            let cookie = try Self.session(first)
            #expect(try await h.http("/api/2/episodes/ann.json", headers: ["Cookie": cookie]).status == 200)
            // The password changed behind the server's back (earshot sync-user while it runs): the session ends.
            _ = try await SyncAccountSetup.set(user: "ann", password: "another password", store: h.store)
            #expect(try await h.http("/api/2/episodes/ann.json", headers: ["Cookie": cookie]).status == 401)
            _ = try await SyncAccountSetup.set(user: "ann", password: Self.password, store: h.store)
            // Wrong passwords: two free, then 429 with Retry-After before the password is even looked at.
            let wrong = ["Authorization": SyncCredentials(user: "ann", password: "nope nope").basicHeader]
            #expect(try await h.http("/api/2/episodes/ann.json", headers: wrong).status == 401)
            #expect(try await h.http("/api/2/episodes/ann.json", headers: wrong).status == 401)
            #expect(try await h.http("/api/2/episodes/ann.json", headers: wrong).status == 401)
            let held = try await h.http("/api/2/episodes/ann.json", headers: ["Authorization": Self.basic])
            #expect(held.status == 429 && Int(held.headers["retry-after"] ?? "") ?? 0 > 0, "even the right password waits")
        }
    }

    @Test("bad uploads: 400 naming what is wrong, nothing stored; a clock in the future counts as now")
    func badInput() async throws {
        try await ServerHarness.with { h in
            try await Self.enable(h)
            let auth = ["Authorization": Self.basic]
            let episode = h.episodes[0]
            let good: [String: Any] = ["podcast": h.podcast.feedURL, "episode": episode.mediaURL, "action": "play", "position": 9]
            for (body, word) in [(Data("not json".utf8), "array"), (try Self.json([good, ["podcast": "x", "action": "play"]]), "episode action 1"),
                                 (try Self.json(["add": "x"]), "array")] {
                let refused = try await h.http("/api/2/episodes/ann.json", method: "POST", headers: auth, body: body)
                #expect(refused.status == 400 && refused.text.contains(word), "\(refused.text)")
            }
            #expect(try await h.store.episode(id: episode.id)?.position == 0, "nothing of a refused upload is applied")
            let none = try #require(try Self.object(try await h.http("/api/2/episodes/ann.json?since=0", headers: auth))["actions"] as? [[String: Any]])
            #expect(none.isEmpty, "nor stored")
            let bad = try await h.http("/api/2/subscriptions/ann/pixel.json", method: "POST", headers: auth,
                                       body: try Self.json(["add": ["https://a.example/f"], "remove": ["https://a.example/f"]]))
            #expect(bad.status == 400 && bad.text.contains("both added and removed"))
            #expect(try await h.http("/api/2/subscriptions/ann/pixel.json?since=soon", headers: auth).status == 400)

            // An action claiming to be Earshot's own is the uploader's: no phone speaks for the speakers.
            var claimed = good
            claimed["device"] = "earshot"
            claimed["action"] = "download"
            _ = try await h.http("/api/2/episodes/ann.json", method: "POST", headers: auth, body: try Self.json([claimed]))
            let mine = try #require(try Self.object(try await h.http("/api/2/episodes/ann.json?since=0&device=earshot", headers: auth))["actions"] as? [[String: Any]])
            #expect(!mine.contains { $0["action"] as? String == "download" })
            let flattr = good.merging(["action": "flattr"]) { $1 }.filter { $0.key != "position" }
            #expect(try await h.http("/api/2/episodes/ann.json", method: "POST", headers: auth, body: try Self.json([flattr])).status == 200,
                    "gpodder.net's old flattr action is taken (and changes nothing)")
            // A phone whose clock runs a year ahead: its action counts as now, so Earshot's next save wins.
            var future = good
            future["timestamp"] = SyncTime.format(Date().timeIntervalSince1970 + 365 * 86_400)
            #expect(try await h.http("/api/2/episodes/ann.json", method: "POST", headers: auth, body: try Self.json([future])).status == 200)
            let stored = try #require(try Self.object(try await h.http("/api/2/episodes/ann.json?since=0", headers: auth))["actions"] as? [[String: Any]])
                .first { $0["action"] as? String == "play" }
            let time = try #require(SyncTime.parse(stored?["timestamp"] as? String ?? ""))
            #expect(abs(time - Date().timeIntervalSince1970) < 5, "capped at its arrival")
            try await Task.sleep(for: .milliseconds(1100))
            try await h.store.savePosition(episodeID: episode.id, position: 20)
            let later = good.merging(["position": 40, "timestamp": SyncTime.format(Date().timeIntervalSince1970 - 30)]) { $1 }
            _ = try await h.http("/api/2/episodes/ann.json", method: "POST", headers: auth, body: try Self.json([later]))
            #expect(try await h.store.episode(id: episode.id)?.position == 20)
        }
    }

    @Test("while the episode plays here, a phone's action waits: the speakers win")
    func playingHereWins() async throws {
        try await ServerHarness.with { h in
            try await Self.enable(h)
            let episode = h.episodes[0]
            try await h.engine.handle(.play(episode: episode.id))
            for _ in 0..<50 where !(await h.engine.isPlayingHere(episode.id)) { try await Task.sleep(for: .milliseconds(100)) }
            #expect(await h.engine.isPlayingHere(episode.id))
            _ = try await h.http("/api/2/episodes/ann.json", method: "POST", headers: ["Authorization": Self.basic],
                                 body: try Self.json([["podcast": h.podcast.feedURL, "episode": episode.mediaURL, "action": "play",
                                                       "position": 45, "total": 60]]))
            #expect(await h.engine.state.position < 30, "still where the speakers are")
            try await h.engine.handle(.pause)
            // Paused here: a newer action moves the loaded episode too, so "play" resumes there.
            try await Task.sleep(for: .milliseconds(1100))
            _ = try await h.http("/api/2/episodes/ann.json", method: "POST", headers: ["Authorization": Self.basic],
                                 body: try Self.json([["podcast": h.podcast.feedURL, "episode": episode.mediaURL, "action": "play",
                                                       "position": 45, "total": 60]]))
            #expect(await h.engine.state.position == 45)
            #expect(try await h.store.episode(id: episode.id)?.position == 45)
        }
    }
}
