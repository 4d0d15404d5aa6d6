import EarshotCore
import Foundation
import Library
import Testing
import TestSupport

@Suite("LibraryStore under concurrent use")
struct LibraryStoreConcurrencyTests {
    @Test("many tasks subscribing, reading and saving positions at once all land")
    func manyTasks() async throws {
        try await withStore { store, _ in
            let feeds = 40, itemsPerFeed = 25
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<feeds {
                    group.addTask {
                        let podcast = try await store.subscribe(feedURL: "https://example.org/\(index)",
                                                                content: feed("Show \(index)", items: itemsPerFeed))
                        #expect(podcast.episodeCount == itemsPerFeed)
                    }
                    group.addTask {
                        // Readers interleave with writers and always see whole subscriptions.
                        for podcast in try await store.podcasts() {
                            #expect(podcast.episodeCount == itemsPerFeed)
                        }
                        _ = try await store.recentEpisodes(limit: 10)
                    }
                }
                try await group.waitForAll()
            }
            let episodes = try await store.recentEpisodes(limit: feeds * itemsPerFeed)
            #expect(episodes.count == feeds * itemsPerFeed)

            try await withThrowingTaskGroup(of: Void.self) { group in
                for episode in episodes {
                    group.addTask {
                        try await store.savePosition(episodeID: episode.id, position: Double(episode.id) + 0.5)
                        if episode.id % 3 == 0 { try await store.setPlayed(episodeID: episode.id, played: true) }
                    }
                }
                try await group.waitForAll()
            }
            for episode in try await store.recentEpisodes(limit: feeds * itemsPerFeed) {
                let playedNow = episode.id % 3 == 0
                #expect(episode.played == playedNow)
                #expect(episode.position == (playedNow ? 0 : Double(episode.id) + 0.5))
            }
        }
    }

    @Test("two stores on one file (two connections) write concurrently without losing anything")
    func twoConnections() async throws {
        try await withStore { first, _ in
            let second = try LibraryStore(path: first.path)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<30 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        try await store.subscribe(feedURL: "https://example.org/\(index)",
                                                  content: feed("Show \(index)", items: 20))
                        try await store.setSetting("last-\(index % 5)", "\(index)")
                    }
                }
                try await group.waitForAll()
            }
            for store in [first, second] {
                let podcasts = try await store.podcasts()
                #expect(podcasts.count == 30)
                #expect(podcasts.allSatisfy { $0.episodeCount == 20 })
            }
            #expect(try await first.recentEpisodes(limit: 1_000).count == 600)
        }
    }
}
