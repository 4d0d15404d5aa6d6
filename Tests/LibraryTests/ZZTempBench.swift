import EarshotCore
import Foundation
import Library
import Testing
import TestSupport

@Test func tempBench() async throws {
    try await withStore { store, _ in
        let clock = ContinuousClock()
        let t0 = clock.now
        for p in 0..<1000 {
            try await store.subscribe(feedURL: "https://example.org/\(p)", content: feed("Show \(p)", items: 200))
        }
        print("BENCH subscribe 1000x200:", clock.now - t0)
        for _ in 0..<3 {
            var t = clock.now
            let ps = try await store.podcasts()
            print("BENCH podcasts:", ps.count, clock.now - t)
            t = clock.now
            let es = try await store.episodes(podcastID: 500)
            print("BENCH episodes:", es.count, clock.now - t)
            t = clock.now
            let rs = try await store.recentEpisodes()
            print("BENCH recent:", rs.count, clock.now - t)
            t = clock.now
            try await store.subscribe(feedURL: "https://example.org/3", content: feed("Show 3", items: 200))
            print("BENCH resubscribe unchanged:", clock.now - t)
        }
    }
}
