import EarshotCore
import Foundation
import Library
import TestSupport
import Testing
@testable import Web

/// How `FeedRefresher` runs several feeds: the concurrency bound, progress, joining a run.
@Suite("Refresh runs")
struct RefreshRunTests {
    typealias F = RefreshFixtures
    typealias Item = RefreshFixtures.Item

    @Test("refreshing all fetches at most `concurrency` feeds at once and reports each start and finish")
    func boundedConcurrency() async throws {
        try await F.with(concurrency: 3) { store, refresher, fixture in
            let count = 8
            for index in 0..<count {
                fixture.set("/\(index).xml", F.feedResponse(F.rss("Show \(index)", [Item("i\(index)")])))
                _ = try await F.subscribe("/\(index).xml", fixture, refresher, store)
            }
            let before = fixture.requests.count
            for index in 0..<count {
                // Three 64 KiB chunks, 0.25 s apart: each fetch takes about half a second.
                fixture.set("/\(index).xml", F.feedResponse(F.rss("Show \(index)", [Item("i\(index)")], padding: 150_000), chunkDelay: 0.25))
            }
            let log = StatusLog()
            await refresher.observe(progress: { log.append($0) }, libraryChanged: { log.append(nil) })
            let started = try await refresher.refreshAll()
            #expect(started.running && started.total == count)

            var most = 0
            while await refresher.currentStatus.running {
                let inFlight = fixture.requests.count - before - (await refresher.currentStatus.done)
                most = max(most, inFlight)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(most <= 3, "at most 3 requests at once, saw \(most)")
            #expect(most == 3, "the bound is used")
            let final = await refresher.currentStatus
            #expect(final == RefreshStatus(running: false, total: count, done: count, failed: 0, current: []))

            let events = log.entries
            #expect(events.last == .some(nil), "the library listener is told last")
            let statuses = events.compactMap { $0 }
            #expect(statuses.count == 2 * count, "a message per start and per finish")
            #expect(statuses.allSatisfy { $0.current.count <= 3 && $0.total == count })
            #expect(statuses.map(\.done) == statuses.map(\.done).sorted(), "done never goes back")
            #expect(statuses.last == final && statuses.dropLast().allSatisfy(\.running))
        }
    }

    @Test("Subscriptions.refreshAll (earshot refresh) waits for every feed and lists the ones in trouble")
    func refreshAllForTheCommandLine() async throws {
        try await F.with { store, refresher, fixture in
            fixture.set("/ok.xml", F.feedResponse(F.rss("Fine", [Item("a")])))
            fixture.set("/gone.xml", F.feedResponse(F.rss("Leaving", [Item("b")])))
            let subscriptions = Subscriptions(store: store, refresher: refresher)
            _ = try await subscriptions.subscribe(fixture.url("/ok.xml").absoluteString)
            let leaving = try await subscriptions.subscribe(fixture.url("/gone.xml").absoluteString)
            fixture.set("/gone.xml", FixtureHTTPServer.Response(status: 410, text: "gone"))
            let log = StatusLog()
            let (status, problems) = try await subscriptions.refreshAll { log.append($0) }
            #expect(status == RefreshStatus(running: false, total: 2, done: 2, failed: 1, current: []))
            #expect(problems.map(\.id) == [leaving.id] && problems.first?.status == .gone)
            #expect(problems.first?.error?.contains("410 Gone") == true)
            #expect(log.entries.count == 4 && log.entries.last == status)
        }
    }

    @Test("the bundled demo feed is never fetched: left out of refresh-all, skipped alone, status untouched")
    func bundledDemo() async throws {
        try await F.with { store, refresher, fixture in
            let demo = try await store.subscribe(feedURL: Subscriptions.demoFeedPath, content: FeedContent(title: "Demo", items: [
                FeedItem(guid: "d", enclosureURL: "/demo/audio/01.mp3"),
            ]))
            fixture.set("/feed.xml", F.feedResponse(F.rss("Show", [Item("a")])))
            _ = try await F.subscribe("/feed.xml", fixture, refresher, store)
            let status = try await refresher.refreshAllAndWait()
            #expect(status.total == 1 && status.failed == 0)
            #expect(try await refresher.refreshAndWait(podcastID: demo.id) == .skipped)
            let after = try #require(try await store.podcast(id: demo.id))
            #expect(after.status == .ok && after.error == nil)
        }
    }

    @Test("feeds asked for while a refresh runs join it, once each; a failed feed counts as done and failed")
    func joiningARun() async throws {
        try await F.with(concurrency: 1) { store, refresher, fixture in
            fixture.set("/a.xml", F.feedResponse(F.rss("A", [Item("a")])))
            fixture.set("/b.xml", F.feedResponse(F.rss("B", [Item("b")])))
            let a = try await F.subscribe("/a.xml", fixture, refresher, store)
            let b = try await F.subscribe("/b.xml", fixture, refresher, store)
            fixture.set("/a.xml", F.feedResponse(F.rss("A", [Item("a")], padding: 150_000), chunkDelay: 0.2))
            fixture.set("/b.xml", FixtureHTTPServer.Response(status: 500, text: "down"))
            _ = try await refresher.refresh(podcastID: a.id)
            _ = try await refresher.refreshAll()
            let joined = try #require(try await refresher.refresh(podcastID: b.id))
            #expect(joined.running && joined.total == 2, "a is not added twice, b once")
            #expect(try await refresher.refresh(podcastID: 9_999) == nil)
            let final = await refresher.untilIdle()
            #expect(final == RefreshStatus(running: false, total: 2, done: 2, failed: 1, current: []))
            #expect(fixture.requests.filter { $0.target == "/a.xml" }.count == 2, "subscribe + one refresh")
            // The next run starts counting afresh.
            fixture.set("/b.xml", F.feedResponse(F.rss("B", [Item("b")])))
            let next = try await refresher.refreshAllAndWait()
            #expect(next == RefreshStatus(running: false, total: 2, done: 2, failed: 0, current: []))
            #expect(try await store.podcast(id: b.id)?.status == .ok)
        }
    }
}

/// What a refresher's listeners heard, in order (nil = "library changed").
final class StatusLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [RefreshStatus?] = []
    func append(_ status: RefreshStatus?) { lock.withLock { items.append(status) } }
    var entries: [RefreshStatus?] { lock.withLock { items } }
}
