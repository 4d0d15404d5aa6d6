import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// `FeedRefresher` against real feeds on a loopback HTTP server and a real SQLite library.
@Suite("Refreshing feeds")
struct RefreshTests {
    typealias F = RefreshFixtures
    typealias Item = RefreshFixtures.Item

    @Test("a 304 keeps everything; the request carried our validators byte for byte, User-Agent and gzip")
    func notModified() async throws {
        try await F.with { store, refresher, fixture in
            let etag = #"W/"5e1-x y;z""#
            let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a"), Item("b")]),
                                                    headers: ["ETag": etag, "Last-Modified": lastModified]))
            let podcast = try await F.subscribe("/feed.xml", fixture, refresher, store)
            let stored = try #require(try await store.feedToRefresh(podcastID: podcast.id))
            #expect(stored.etag == etag && stored.lastModified == lastModified)
            let episodes = try await store.episodes(podcastID: podcast.id)
            try await store.savePosition(episodeID: episodes[0].id, position: 30)

            // Were the body fetched again, these would replace the stored episodes.
            fixture.set("/feed.xml", FixtureHTTPServer.Response(status: 304, headers: ["ETag": etag]))
            #expect(try await refresher.refreshAndWait(podcastID: podcast.id) == .unchanged(movedTo: nil))
            let request = try #require(fixture.requests.last)
            #expect(request.header("If-None-Match") == etag)
            #expect(request.header("If-Modified-Since") == lastModified)
            #expect(request.header("User-Agent") == "Earshot/\(Earshot.version)")
            #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
            var after = try #require(try await store.podcast(id: podcast.id))
            #expect(after.status == .ok)
            #expect(try #require(after.refreshedAt) >= podcast.refreshedAt!)
            after.refreshedAt = podcast.refreshedAt
            #expect(after == podcast)
            var expected = episodes
            expected[0].position = 30
            expected[0].inInbox = false // listening took it out of the Inbox
            #expect(try await store.episodes(podcastID: podcast.id) == expected)
            #expect(try await store.feedToRefresh(podcastID: podcast.id) == stored)
        }
    }

    @Test("a 200 stores the new validators exactly and merges: new items added, positions kept")
    func updated() async throws {
        try await F.with { store, refresher, fixture in
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a")]), headers: ["ETag": "\"1\""]))
            let podcast = try await F.subscribe("/feed.xml", fixture, refresher, store)
            let a = try #require(try await store.episodes(podcastID: podcast.id).first)
            try await store.savePosition(episodeID: a.id, position: 99)
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show renamed", [Item("b"), Item("a", title: "A again")]),
                                                    headers: ["etag": "\"2\"", "Last-Modified": "Thu, 01 Jan 2026 00:00:00 GMT"]))
            #expect(try await refresher.refreshAndWait(podcastID: podcast.id) == .updated(movedTo: nil))
            #expect(fixture.requests.last?.header("If-None-Match") == "\"1\"")
            #expect(fixture.requests.last?.header("If-Modified-Since") == nil)
            let stored = try await store.feedToRefresh(podcastID: podcast.id)
            #expect(stored?.etag == "\"2\"" && stored?.lastModified == "Thu, 01 Jan 2026 00:00:00 GMT")
            #expect(stored?.title == "Show renamed")
            let episodes = Dictionary(uniqueKeysWithValues: try await store.episodes(podcastID: podcast.id).map { ($0.guid, $0) })
            #expect(Set(episodes.keys) == ["a", "b"])
            #expect(episodes["a"]?.id == a.id && episodes["a"]?.position == 99 && episodes["a"]?.title == "A again")
        }
    }

    @Test("items re-keyed or moved to a new enclosure URL update their episodes, never duplicate them")
    func mergeOverHTTP() async throws {
        try await F.with { store, refresher, fixture in
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a"), Item("b"), Item("c")])))
            let podcast = try await F.subscribe("/feed.xml", fixture, refresher, store)
            let before = Dictionary(uniqueKeysWithValues: try await store.episodes(podcastID: podcast.id).map { ($0.guid, $0) })
            try await store.savePosition(episodeID: before["b"]!.id, position: 5)
            try await store.setPlayed(episodeID: before["c"]!.id, played: true)
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [
                Item("a"),
                Item("b-new-guid", url: "https://cdn.example.org/b.mp3"),
                Item("c", url: "https://cdn2.example.org/c-moved.mp3"),
            ])))
            #expect(try await refresher.refreshAndWait(podcastID: podcast.id) == .updated(movedTo: nil))
            let after = Dictionary(uniqueKeysWithValues: try await store.episodes(podcastID: podcast.id).map { ($0.guid, $0) })
            #expect(Set(after.keys) == ["a", "b-new-guid", "c"])
            #expect(after["b-new-guid"]?.id == before["b"]!.id && after["b-new-guid"]?.position == 5)
            #expect(after["c"]?.id == before["c"]!.id && after["c"]?.played == true)
            #expect(after["c"]?.mediaURL == "https://cdn2.example.org/c-moved.mp3")
        }
    }

    @Test("301 and 308 move the subscription, keeping validators; 302 and 307 are followed but not remembered",
          arguments: [(301, true), (308, true), (302, false), (307, false)])
    func redirects(status: Int, moves: Bool) async throws {
        try await F.with { store, refresher, fixture in
            fixture.set("/old.xml", F.feedResponse(F.rss("Show", [Item("a")])))
            let podcast = try await F.subscribe("/old.xml", fixture, refresher, store)
            fixture.set("/old.xml", F.redirect(status, to: fixture.url("/new.xml").absoluteString))
            fixture.set("/new.xml", F.feedResponse(F.rss("Show", [Item("a"), Item("b")]), headers: ["ETag": "\"new\""]))
            let expectedURL = fixture.url(moves ? "/new.xml" : "/old.xml").absoluteString
            #expect(try await refresher.refreshAndWait(podcastID: podcast.id)
                    == .updated(movedTo: moves ? expectedURL : nil))
            let stored = try #require(try await store.feedToRefresh(podcastID: podcast.id))
            #expect(stored.feedURL == expectedURL)
            #expect(stored.etag == "\"new\"")
            #expect(try await store.episodes(podcastID: podcast.id).count == 2)
        }
    }

    // `spoolingAbove` 1: the same through the large-feed path (spooled to a file, stored as it is read).
    @Test("subscribing through a temporary redirect stores the address given; through a permanent one, the target",
          arguments: [nil, 1])
    func subscribeThroughRedirects(spoolingAbove: Int?) async throws {
        try await F.with(spoolingAbove: spoolingAbove) { store, refresher, fixture in
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a")])))
            fixture.set("/temp", F.redirect(302, to: "/feed.xml"))
            fixture.set("/perm", F.redirect(301, to: "/feed.xml"))
            let temp = try await F.subscribe("/temp", fixture, refresher, store)
            #expect(temp.feedURL == fixture.url("/temp").absoluteString)
            // The permanent target is a different subscription: it is new.
            let perm = try await F.subscribe("/perm", fixture, refresher, store)
            #expect(perm.feedURL == fixture.url("/feed.xml").absoluteString && perm.id != temp.id)
            // Once more through the permanent redirect: already subscribed, refreshed, not duplicated.
            let (again, isNew) = try await Subscriptions(store: store, refresher: refresher).add(fixture.url("/perm").absoluteString)
            #expect(!isNew && again.id == perm.id)
            #expect(try await store.podcasts().count == 2)

            // A feed that names its new address is stored there; if that one is subscribed, it is that podcast.
            let fresh = fixture.url("/fresh.xml").absoluteString
            fixture.set("/moving.xml", F.feedResponse(F.rss("Moving", [Item("m")], newFeedURL: fresh), headers: ["ETag": "\"m\""]))
            let moving = try await F.subscribe("/moving.xml", fixture, refresher, store)
            #expect(moving.feedURL == fresh)
            #expect(try await store.feedToRefresh(podcastID: moving.id)?.etag == nil)
            fixture.set("/alias.xml", F.feedResponse(F.rss("Alias", [Item("m")], newFeedURL: fresh)))
            let (alias, aliasIsNew) = try await Subscriptions(store: store, refresher: refresher).add(fixture.url("/alias.xml").absoluteString)
            #expect(!aliasIsNew && alias.id == moving.id)
        }
    }

    @Test("itunes:new-feed-url moves the subscription, fetched there next time; never onto a subscribed address")
    func newFeedURL() async throws {
        try await F.with { store, refresher, fixture in
            fixture.set("/old.xml", F.feedResponse(F.rss("Show", [Item("a")]), headers: ["ETag": "\"old\""]))
            let podcast = try await F.subscribe("/old.xml", fixture, refresher, store)
            let newURL = fixture.url("/new.xml").absoluteString
            fixture.set("/old.xml", F.feedResponse(F.rss("Show", [Item("a")], newFeedURL: newURL), headers: ["ETag": "\"old2\""]))
            fixture.set("/new.xml", F.feedResponse(F.rss("Show", [Item("a"), Item("b")])))
            #expect(try await refresher.refreshAndWait(podcastID: podcast.id) == .updated(movedTo: newURL))
            let moved = try #require(try await store.feedToRefresh(podcastID: podcast.id))
            #expect(moved.feedURL == newURL && moved.etag == nil, "the old address's validators are dropped")
            #expect(!fixture.requests.contains { $0.target == "/new.xml" }, "fetched there next time, not now")
            #expect(try await refresher.refreshAndWait(podcastID: podcast.id) == .updated(movedTo: nil))
            #expect(fixture.requests.last?.target == "/new.xml")
            #expect(try await store.episodes(podcastID: podcast.id).count == 2)

            // A second show pointing at an address already subscribed stays where it is.
            fixture.set("/other.xml", F.feedResponse(F.rss("Other", [Item("x")])))
            let other = try await F.subscribe("/other.xml", fixture, refresher, store)
            fixture.set("/other.xml", F.feedResponse(F.rss("Other", [Item("x")], newFeedURL: newURL)))
            #expect(try await refresher.refreshAndWait(podcastID: other.id) == .updated(movedTo: nil))
            #expect(try await store.feedToRefresh(podcastID: other.id)?.feedURL == fixture.url("/other.xml").absoluteString)
        }
    }

    @Test("404 and 410 mark the podcast gone, other failures error, each with a clear message; episodes stay",
          arguments: [(404, Podcast.Status.gone, "404 Not Found"), (410, .gone, "410 Gone"), (500, .error, "HTTP 500")])
    func failures(code: Int, status: Podcast.Status, fragment: String) async throws {
        try await F.with { store, refresher, fixture in
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a"), Item("b")])))
            let podcast = try await F.subscribe("/feed.xml", fixture, refresher, store)
            let episodes = try await store.episodes(podcastID: podcast.id)
            fixture.set("/feed.xml", FixtureHTTPServer.Response(status: code, text: "no"))
            let outcome = try await refresher.refreshAndWait(podcastID: podcast.id)
            guard case .failed(let got, let message) = outcome else { Issue.record("\(outcome)"); return }
            #expect(got == status && message.contains(fragment) && message.contains("/feed.xml"), "\(message)")
            let failed = try #require(try await store.podcast(id: podcast.id))
            #expect(failed.status == status && failed.error == message)
            #expect(failed.refreshedAt == podcast.refreshedAt)
            #expect(try await store.episodes(podcastID: podcast.id) == episodes)

            // It comes back: status ok, message gone.
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a"), Item("b")])))
            #expect(try await refresher.refreshAndWait(podcastID: podcast.id) == .updated(movedTo: nil))
            let healed = try #require(try await store.podcast(id: podcast.id))
            #expect(healed.status == .ok && healed.error == nil)
        }
    }

    @Test("a server that stalls times out as an error; a body that is not a feed is an error; episodes stay")
    func timeoutAndJunk() async throws {
        // 1 s: the idle timeout (nothing received for that long) ends the fetch.
        try await F.with(timeout: 1) { store, refresher, fixture in
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a")])))
            let podcast = try await F.subscribe("/feed.xml", fixture, refresher, store)
            // 64 KiB arrive, then nothing for 5 s.
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a"), Item("b")], padding: 200_000), chunkDelay: 5))
            let started = Date()
            let outcome = try await refresher.refreshAndWait(podcastID: podcast.id)
            #expect(Date().timeIntervalSince(started) < 4)
            #expect(outcome == .failed(.error, "Could not reach \(fixture.url("/feed.xml").absoluteString): timed out"))
            #expect(try await store.podcast(id: podcast.id)?.error?.contains("timed out") == true)

            fixture.set("/feed.xml", FixtureHTTPServer.Response(text: "<html><body>Moved to our app!</body></html>", contentType: "text/html"))
            guard case .failed(.error, let message) = try await refresher.refreshAndWait(podcastID: podcast.id) else {
                Issue.record("a page is not a feed"); return
            }
            #expect(message.contains("could not be read") && message.contains("not a podcast feed"), "\(message)")
            #expect(try await store.episodes(podcastID: podcast.id).map(\.guid) == ["a"])
        }
    }

    @Test("a server that trickles, never quite stalling, is cut off at the refresher's deadline")
    func deadline() async throws {
        try await F.with(timeout: 10, deadline: 1) { store, refresher, fixture in
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a")])))
            let podcast = try await F.subscribe("/feed.xml", fixture, refresher, store)
            // 16 chunks of 64 KiB, 0.4 s apart: never idle for the 10 s timeout, but 6 s in all.
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a")], padding: 1_000_000), chunkDelay: 0.4))
            let started = Date()
            let outcome = try await refresher.refreshAndWait(podcastID: podcast.id)
            #expect(Date().timeIntervalSince(started) < 4)
            #expect(outcome == .failed(.error, "Could not reach \(fixture.url("/feed.xml").absoluteString): no complete answer within 1 s"))
        }
    }

    @Test("a gzip-encoded feed is inflated and parsed")
    func gzipBody() async throws {
        try await F.with { store, refresher, fixture in
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a")])))
            let podcast = try await F.subscribe("/feed.xml", fixture, refresher, store)
            let feed = F.rss("Zipped", [Item("a"), Item("z")])
            fixture.set("/feed.xml", F.feedResponse(F.gzip(feed), headers: ["Content-Encoding": "gzip"]))
            #expect(try await refresher.refreshAndWait(podcastID: podcast.id) == .updated(movedTo: nil))
            #expect(try await store.podcast(id: podcast.id)?.title == "Zipped")
            #expect(Set(try await store.episodes(podcastID: podcast.id).map(\.guid)) == ["a", "z"])
        }
    }
}
