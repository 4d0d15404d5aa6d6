import EarshotCore
import Foundation
@testable import Library
import Testing
import TestSupport

/// The budget "1,000 podcasts and 200,000 episodes: any list under 50 ms", measured, not asserted:
/// timings belong in `make bench`, so this runs only when `EARSHOT_MEASURE=1` and prints its numbers.
@Suite("Library at scale", .enabled(if: ProcessInfo.processInfo.environment["EARSHOT_MEASURE"] == "1"))
struct LibraryScaleTests {
    @Test("list queries on 1,000 podcasts / 200,000 episodes")
    func measureLists() async throws {
        try await withStore { store, _ in
            let start = Date()
            for index in 0..<1_000 {
                var content = feed("Podcast \(index)", items: 200, prefix: "p\(index)-")
                for i in content.items.indices {
                    content.items[i].details.notes = SanitizedHTML(nodes: [.element("p", attributes: [:], children: [.text("Notes \(i)")])])
                }
                try await store.subscribe(feedURL: "https://example.org/\(index)", content: content)
            }
            print("filled 1,000 × 200 in \(Int(Date().timeIntervalSince(start))) s")
            // A tenth unsubscribed: the filters must not cost a scan.
            for id in stride(from: Int64(1), through: 1_000, by: 10) { try await store.unsubscribe(podcastID: id) }

            func measure(_ name: String, _ body: () async throws -> Int) async rethrows {
                _ = try await body() // warm the statement cache and pages
                var times: [Double] = []
                var count = 0
                for _ in 0..<20 {
                    let t = Date()
                    count = try await body()
                    times.append(Date().timeIntervalSince(t) * 1_000)
                }
                times.sort()
                print("\(name): \(count) rows, median \(String(format: "%.2f", times[10])) ms, max \(String(format: "%.2f", times[19])) ms")
            }
            let plan = try await store.withDatabase { db in
                try db.fetchAll("EXPLAIN QUERY PLAN " + LibrarySQL.allPodcasts) { $0.string(at: 3) }.joined(separator: " | ")
            }
            print("podcasts() plan: \(plan)")
            try await measure("podcasts()") { try await store.podcasts().count }
            try await measure("recentEpisodes(100)") { try await store.recentEpisodes(limit: 100).count }
            try await measure("recentEpisodes(1000)") { try await store.recentEpisodes(limit: 1_000).count }
            try await measure("episodes(podcastID:) 200") { try await store.episodes(podcastID: 500).count }
            try await measure("podcast(id:) with details") { try await store.podcast(id: 500) == nil ? 0 : 1 }
            try await measure("episode(id:) with details") { try await store.episode(id: 100_000) == nil ? 0 : 1 }
            try await measure("feedsToRefresh()") { try await store.feedsToRefresh().count }
            let feed500 = feed("Podcast 500", items: 200, prefix: "p500-")
            try await measure("storeRefresh 200 unchanged items") {
                try await store.storeRefresh(podcastID: 500, content: feed500, etag: nil, lastModified: nil) ? 200 : 0
            }
        }
    }
}
