import EarshotCore
import Foundation
@testable import Library
import TestSupport
import Testing

/// Filtered, sorted, paged lists and the Inbox on a real SQLite file.
@Suite("Episode lists and the Inbox")
struct EpisodeListTests {
    static func item(_ guid: String, hours: Double?, duration: Double) -> FeedItem {
        FeedItem(guid: guid, title: guid, enclosureURL: "https://example.org/\(guid).mp3", duration: duration,
                 published: hours.map { date(1_700_000_000 + $0 * 3_600) })
    }

    static let lists = FeedContent(title: "Lists", items: [
        item("a", hours: 1, duration: 300), item("b", hours: 2, duration: 0), item("c", hours: 3, duration: 100),
        item("d", hours: nil, duration: 900), item("e", hours: 5, duration: 600),
    ])

    @Test("filters on the listener's state, four sorts, pages that add up to the whole list")
    func filtersSortsPages() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/lists.xml", content: Self.lists)
            let other = try await store.subscribe(feedURL: "https://example.org/other.xml", content: feed("Other", items: 3))
            let ids = Dictionary(uniqueKeysWithValues: try await store.episodes(podcastID: podcast.id).map { ($0.guid, $0.id) })
            try await store.savePosition(episodeID: ids["a"]!, position: 20)          // in progress
            try await store.setPlayed(episodeID: ids["c"]!, played: true)             // played
            try await store.withDatabase { db in                                       // downloaded: a finished row
                try db.run("""
                    INSERT INTO downloads(episode_id, state, url, file, queued_at, updated_at) VALUES(?, 'done', 'u', 'f', 0, 0),
                        (?, 'failed', 'u', 'g', 0, 0)
                    """, [ids["e"]!, ids["b"]!])
            }
            func guids(_ query: EpisodeQuery) async throws -> [String] { try await store.episodes(query).episodes.map(\.guid) }
            let mine = EpisodeQuery(podcast: podcast.id)
            #expect(try await guids(mine) == ["e", "c", "b", "a", "d"], "newest first, undated last")
            #expect(try await guids(EpisodeQuery(sort: .oldest, podcast: podcast.id)) == ["a", "b", "c", "e", "d"], "undated last")
            #expect(try await guids(EpisodeQuery(sort: .shortest, podcast: podcast.id)) == ["c", "a", "e", "d", "b"], "unknown length last")
            #expect(try await guids(EpisodeQuery(sort: .longest, podcast: podcast.id)) == ["d", "e", "a", "c", "b"])
            #expect(try await guids(EpisodeQuery(filter: .unplayed, podcast: podcast.id)) == ["e", "b", "a", "d"])
            #expect(try await guids(EpisodeQuery(filter: .inprogress, podcast: podcast.id)) == ["a"])
            #expect(try await guids(EpisodeQuery(filter: .played, podcast: podcast.id)) == ["c"])
            #expect(try await guids(EpisodeQuery(filter: .downloaded, podcast: podcast.id)) == ["e"], "a failed download is not one")
            #expect(try await store.episodes(EpisodeQuery()).episodes.count == 8, "all podcasts")
            #expect(try await store.episodes(EpisodeQuery(podcast: other.id)).episodes.count == 3)

            var paged: [String] = []
            var offset = 0
            while true {
                let page = try await store.episodes(EpisodeQuery(sort: .shortest, offset: offset, limit: 3))
                paged += page.episodes.map(\.guid)
                offset += page.episodes.count
                if !page.more { break }
            }
            #expect(paged == (try await guids(EpisodeQuery(sort: .shortest))), "pages add up to the list, nothing twice")
            #expect(try await store.episodes(EpisodeQuery(offset: 8)).episodes.isEmpty)
            #expect(try await store.unsubscribe(podcastID: other.id))
            #expect(try await store.episodes(EpisodeQuery()).episodes.count == 5, "unsubscribed podcasts leave lists")
        }
    }

    @Test("the next page by offset starts where the page before ended, and after any change (here or by another connection) is walked to again")
    func offsetPageEnds() async throws {
        try await withStore { store, directory in
            let podcast = try await store.subscribe(feedURL: "https://example.org/many.xml", content: feed("Many", items: 30))
            func page(_ offset: Int, filter: EpisodeQuery.Filter? = nil) async throws -> [Int64] {
                try await store.episodes(EpisodeQuery(filter: filter, podcast: podcast.id, offset: offset, limit: 10)).episodes.map(\.id)
            }
            func whole(filter: EpisodeQuery.Filter? = nil) async throws -> [Int64] {
                try await store.episodes(EpisodeQuery(filter: filter, podcast: podcast.id, limit: 1_000)).episodes.map(\.id)
            }
            let list = try await whole()
            #expect(try await page(0) == Array(list[0..<10]))
            #expect(await store.pageEnds.entries == 1, "the first page's end is kept for the next")
            #expect(try await page(10) == Array(list[10..<20]), "from the kept end")
            #expect(try await page(20) == Array(list[20..<30]))
            #expect(try await page(10) == Array(list[10..<20]), "back to a page whose start is no longer kept: walked to")

            // This connection changes a row between two pages: the kept end is dropped, the walk finds the new one.
            #expect(try await page(0, filter: .unplayed) == Array(list[0..<10]))
            try await store.setPlayed(episodeID: list[3], played: true)
            let unplayed = try await whole(filter: .unplayed)
            #expect(try await page(10, filter: .unplayed) == Array(unplayed[10..<20]), "not list[10..<20]: one fewer before it")
            #expect(unplayed[10] == list[11])

            // Another connection commits between two pages (`PRAGMA data_version`): the same.
            #expect(try await page(0, filter: .unplayed) == Array(unplayed[0..<10]))
            let other = try Database(path: directory.file("library.sqlite").path)
            try other.run("UPDATE episodes SET played = 1 WHERE id = ?", [unplayed[5]])
            let now = try await whole(filter: .unplayed)
            #expect(now.count == unplayed.count - 1)
            #expect(try await page(10, filter: .unplayed) == Array(now[10..<20]))
        }
    }

    @Test("keyset pages (after an episode) add up to the list in every sort and filter, through undated and unknown-length runs")
    func keysetPages() async throws {
        try await withStore { store, _ in
            // Ties on purpose: a few dates and lengths shared by many episodes, some undated, some of unknown length.
            var random = SplitMix64(seed: 15)
            let items = (0..<90).map { index -> FeedItem in
                let hours: Double? = random.next() % 5 == 0 ? nil : Double(random.next() % 12)
                let duration = random.next() % 4 == 0 ? 0 : Double(random.next() % 6) * 60
                return Self.item("k\(index)", hours: hours, duration: duration)
            }
            let podcast = try await store.subscribe(feedURL: "https://example.org/keyset.xml", content: FeedContent(title: "Keyset", items: items))
            _ = try await store.subscribe(feedURL: "https://example.org/other.xml", content: feed("Other", items: 7))
            for episode in try await store.episodes(podcastID: podcast.id) where random.next() % 3 == 0 {
                try await store.setPlayed(episodeID: episode.id, played: true)
            }
            for sort in EpisodeQuery.Sort.allCases {
                for filter in [nil] + EpisodeQuery.Filter.allCases.map(Optional.some) {
                    for podcastID in [podcast.id, nil] {
                        let whole = try await store.episodes(EpisodeQuery(filter: filter, sort: sort, podcast: podcastID, limit: 1_000))
                        #expect(!whole.more)
                        for size in [1, 4, 25] {
                            var walked: [Int64] = []
                            var page = try await store.episodes(EpisodeQuery(filter: filter, sort: sort, podcast: podcastID, limit: size))
                            walked += page.episodes.map(\.id)
                            while page.more, let last = walked.last, walked.count <= whole.episodes.count {  // a repeat can't loop forever
                                page = try await store.episodes(EpisodeQuery(filter: filter, sort: sort, podcast: podcastID, after: last, limit: size))
                                #expect(!page.episodes.isEmpty || !page.more)
                                walked += page.episodes.map(\.id)
                            }
                            #expect(walked == whole.episodes.map(\.id), "sort \(sort), filter \(String(describing: filter)), page \(size)")
                            // At offsets (each read as the page after the episode before it): the same list.
                            var counted: [Int64] = []
                            repeat {
                                page = try await store.episodes(EpisodeQuery(filter: filter, sort: sort, podcast: podcastID,
                                                                             offset: counted.count, limit: size))
                                counted += page.episodes.map(\.id)
                            } while page.more && counted.count <= whole.episodes.count
                            #expect(counted == whole.episodes.map(\.id), "offsets: sort \(sort), filter \(String(describing: filter)), page \(size)")
                        }
                    }
                }
            }
            // The anchor need not pass the filter: played meanwhile, the list goes on after it, nothing skipped.
            let unplayed = try await store.episodes(EpisodeQuery(filter: .unplayed, podcast: podcast.id, limit: 1_000)).episodes.map(\.id)
            let first = try await store.episodes(EpisodeQuery(filter: .unplayed, podcast: podcast.id, limit: 5)).episodes.map(\.id)
            try await store.setPlayed(episodeID: first[4], played: true)
            let next = try await store.episodes(EpisodeQuery(filter: .unplayed, podcast: podcast.id, after: first[4], limit: 5)).episodes.map(\.id)
            #expect(next == Array(unplayed[5..<10]))
            #expect(try await store.episodes(EpisodeQuery(offset: 10_000)) == EpisodePage(episodes: [], more: false), "past the end")
            #expect(try await store.episodes(EpisodeQuery(after: 999_999)) == EpisodePage(episodes: [], more: false),
                    "an anchor the library does not hold: an empty page (the server answers 400 first)")
        }
    }

    @Test("a jump to any offset gives the list's rows from there: walked from the nearer end when the list's length is counted (no filter), from the start with a filter; unsubscribed podcasts count for nothing")
    func offsetJumps() async throws {
        try await withStore { store, _ in
            var random = SplitMix64(seed: 27)
            let items = (0..<41).map { index -> FeedItem in
                let hours: Double? = random.next() % 5 == 0 ? nil : Double(random.next() % 9)
                let duration = random.next() % 4 == 0 ? 0 : Double(random.next() % 5) * 60
                return Self.item("j\(index)", hours: hours, duration: duration)
            }
            let podcast = try await store.subscribe(feedURL: "https://example.org/jumps.xml", content: FeedContent(title: "Jumps", items: items))
            _ = try await store.subscribe(feedURL: "https://example.org/other.xml", content: feed("Other", items: 6))
            let gone = try await store.subscribe(feedURL: "https://example.org/gone.xml", content: feed("Gone", items: 5, prefix: "gone-"))
            try await store.unsubscribe(podcastID: gone.id)
            for episode in try await store.episodes(podcastID: podcast.id) where random.next() % 3 == 0 {
                try await store.setPlayed(episodeID: episode.id, played: true)
            }
            for sort in EpisodeQuery.Sort.allCases {
                for filter: EpisodeQuery.Filter? in [nil, .unplayed] {
                    for podcastID in [podcast.id, nil] {
                        let whole = try await store.episodes(EpisodeQuery(filter: filter, sort: sort, podcast: podcastID, limit: 1_000)).episodes.map(\.id)
                        #expect(whole.count == (podcastID == nil ? 47 : 41) || filter != nil)
                        // Last offset first: no page ends where the next jump starts, so every jump is walked.
                        for offset in (1...whole.count + 2).reversed() {
                            let page = try await store.episodes(EpisodeQuery(filter: filter, sort: sort, podcast: podcastID, offset: offset, limit: 3))
                            let expected = Array(whole.dropFirst(offset).prefix(3))
                            #expect(page.episodes.map(\.id) == expected && page.more == (offset + 3 < whole.count),
                                    "sort \(sort), filter \(String(describing: filter)), podcast \(String(describing: podcastID)), offset \(offset)")
                        }
                    }
                }
            }
            #expect(try await store.episodes(EpisodeQuery(podcast: gone.id, offset: 2)).episodes.isEmpty, "an unsubscribed podcast's list is empty")
        }
    }

    @Test("every sort's pages and walks read along an index, none sorted: first pages, keyset runs, anchor walks from either end, run counts")
    func listPlansSortNothing() async throws {
        try await withStore { store, _ in
            try await store.subscribe(feedURL: "https://example.org/f", content: feed("Show", items: 50))
            let plans = try await store.withDatabase { db in
                var statements: [(String, String, [any StatementBindable])] = []
                for sort in EpisodeQuery.Sort.allCases {
                    for podcast: Int64? in [1, nil] {
                        let query = EpisodeQuery(sort: sort, podcast: podcast)
                        let anchor = EpisodeListSQL.Anchor(published: 1_700_000_000, duration: 60, id: 10)
                        let (runs, key) = EpisodeListSQL.runs(after: anchor, sort)
                        for run in runs {
                            statements.append(("\(sort) \(String(describing: podcast)) keyset run \(run.condition)",
                                               EpisodeListSQL.list(query, run: run.condition), [1, 10, 0] + (run.anchored ? [key, Int64(10)] : [])))
                        }
                        if let starts = EpisodeListSQL.startRuns(sort) {
                            for run in starts {
                                statements.append(("\(sort) first page run \(run)", EpisodeListSQL.list(query, run: run), [1, 10, 0]))
                                for fromEnd in [false, true] {
                                    statements.append(("\(sort) walk \(fromEnd) in \(run)", EpisodeListSQL.anchorBefore(query, fromEnd: fromEnd, run: run), [1, 1, 5]))
                                }
                                statements.append(("\(sort) count \(run)", EpisodeListSQL.count(query, run: run), podcast.map { [$0] } ?? []))
                            }
                        } else {
                            statements.append(("\(sort) first page", EpisodeListSQL.list(query), [1, 10, 0]))
                            for fromEnd in [false, true] {
                                statements.append(("\(sort) walk \(fromEnd)", EpisodeListSQL.anchorBefore(query, fromEnd: fromEnd), [1, 1, 5]))
                            }
                        }
                    }
                }
                return try statements.map { name, sql, arguments in
                    (name, try db.fetchAll("EXPLAIN QUERY PLAN " + sql, arguments) { $0.string(at: 3) }.joined(separator: " | "))
                }
            }
            #expect(plans.count > 30)
            for (name, plan) in plans {
                #expect(!plan.contains("TEMP B-TREE"), "\(name): \(plan)")
            }
        }
    }

    @Test("the walk to an offset's anchor starts at the nearer end and finds the row a walk from the start finds (property)")
    func anchorWalks() {
        var random = SplitMix64(seed: 28)
        var fromEnd = 0
        for _ in 0..<5_000 {
            let total = Int(random.next() % 40)
            let offset = Int(random.next() % UInt64(total + 4))
            let list = Array(0..<total)
            let known = AnchorWalk.to(offset: offset, total: total)
            let unknown = AnchorWalk.to(offset: offset, total: nil)
            guard offset >= 1, offset - 1 < total else {
                #expect(known == nil, "offset \(offset) of \(total): no row before it")
                continue
            }
            let walk = try! #require(known)
            let found = walk.fromEnd ? list.reversed()[walk.skipped] : list[walk.skipped]
            #expect(found == offset - 1, "offset \(offset) of \(total): \(walk)")
            #expect(walk.skipped <= total / 2, "offset \(offset) of \(total): walked \(walk.skipped), past the middle")
            #expect(unknown == AnchorWalk(fromEnd: false, skipped: offset - 1), "length unknown: from the start")
            if walk.fromEnd { fromEnd += 1 }
        }
        #expect(fromEnd > 1_000)
    }

    @Test("episode_counts holds each podcast's episodes as count(*) does, through subscribing, a refresh that adds, deleting episodes and deleting the podcast; a library from before the counts gains them")
    func episodeCountsStayTrue() async throws {
        try await withStore { store, _ in
            func check(_ what: String) async throws {
                let (counted, kept) = try await store.withDatabase { db in
                    (try db.fetchAll("SELECT podcast_id, count(*) FROM episodes GROUP BY podcast_id ORDER BY podcast_id") { "\($0.int64(at: 0)):\($0.int64(at: 1))" },
                     try db.fetchAll("SELECT podcast_id, total FROM episode_counts WHERE total > 0 ORDER BY podcast_id") { "\($0.int64(at: 0)):\($0.int64(at: 1))" })
                }
                #expect(kept == counted, "\(what)")
            }
            let first = try await store.subscribe(feedURL: "https://example.org/one.xml", content: feed("One", items: 4))
            _ = try await store.subscribe(feedURL: "https://example.org/two.xml", content: feed("Two", items: 9, prefix: "two-"))
            try await check("subscribed")
            _ = try await store.subscribe(feedURL: "https://example.org/one.xml", content: feed("One", items: 7))
            try await check("three more")
            #expect(try await store.podcasts().map(\.episodeCount).sorted() == [7, 9])
            try await store.unsubscribe(podcastID: first.id)
            try await store.withDatabase { db in try db.run("DELETE FROM episodes WHERE podcast_id = ?", [first.id]) }
            try await check("one's episodes deleted")
            try await store.withDatabase { db in try db.run("DELETE FROM podcasts WHERE id = ?", [first.id]) }
            try await check("one deleted (its count with it)")
            #expect(try await store.withDatabase { db in try db.fetchOne("SELECT count(*) FROM episode_counts WHERE podcast_id = ?", [first.id]) { $0.int64(at: 0) } } == 0)
        }
        try await withDirectory { dir in
            let path = dir.file("library.sqlite").path
            do {
                let db = try libraryWithout("v13-episode-counts", at: path)
                try db.run("INSERT INTO podcasts(feed_url, title, added_at, updated_at) VALUES('https://example.org/old', 'Old', 0, 0)")
                for index in 0..<3 {
                    try db.run("INSERT INTO episodes(podcast_id, guid, title, media_url) VALUES(1, ?, 'Kept', 'https://example.org/1.mp3')", ["g\(index)"])
                }
            }
            let store = try LibraryStore(path: path)
            #expect(try await store.podcasts().map(\.episodeCount) == [3], "counted when the table was made")
            #expect(try await store.episodes(EpisodeQuery(offset: 2)).episodes.count == 1, "and used for a jump")
        }
    }

    @Test("the Inbox: a new subscription's newest, a refresh's new ones; queued, played, listened to, dismissed or cleared leave")
    func inbox() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/lists.xml", content: Self.lists)
            var page = try await store.inbox()
            #expect(page.episodes.map(\.guid) == ["e"] && page.total == 1 && !page.more)
            #expect(page.episodes[0].inInbox)
            var refreshed = Self.lists
            refreshed.items += [Self.item("f", hours: 6, duration: 60), Self.item("g", hours: 7, duration: 60), Self.item("h", hours: 8, duration: 60)]
            _ = try await store.storeRefresh(podcastID: podcast.id, content: refreshed, etag: nil, lastModified: nil)
            page = try await store.inbox()
            #expect(page.episodes.map(\.guid) == ["h", "g", "f", "e"] && page.total == 4)
            _ = try await store.storeRefresh(podcastID: podcast.id, content: refreshed, etag: nil, lastModified: nil)
            #expect(try await store.inbox().total == 4, "a refresh with nothing new brings nothing")
            #expect(try await store.inbox(offset: 1, limit: 2).episodes.map(\.guid) == ["g", "f"])
            #expect(try await store.inbox(offset: 1, limit: 2).more)
            let hID = try await store.inbox().episodes[0].id
            #expect(try await store.inbox(after: hID, limit: 2).episodes.map(\.guid) == ["g", "f"], "after an episode, as at an offset")
            #expect(try await store.inbox(after: hID, limit: 2).more)
            #expect(try await store.inbox(after: try await store.inbox().episodes[2].id, limit: 2) == EpisodePage(episodes: [
                try await store.inbox().episodes[3]], more: false, total: 4))

            let ids = Dictionary(uniqueKeysWithValues: try await store.episodes(podcastID: podcast.id).map { ($0.guid, $0.id) })
            try await store.setPlayed(episodeID: ids["h"]!, played: true)
            #expect(try await store.inbox().episodes.map(\.guid) == ["g", "f", "e"], "marked played leaves")
            try await store.savePosition(episodeID: ids["g"]!, position: 0)
            #expect(try await store.inbox().total == 3, "a position of 0 is not listening")
            try await store.savePosition(episodeID: ids["g"]!, position: 12)
            #expect(try await store.leaveInbox(episodeID: ids["f"]!))
            #expect(try await !store.leaveInbox(episodeID: ids["f"]!), "once")
            #expect(try await store.inbox().episodes.map(\.guid) == ["e"])
            try await store.setPlayed(episodeID: ids["h"]!, played: false)
            #expect(try await store.inbox().total == 1, "marked unplayed again does not bring it back")
            #expect(try await store.clearInbox() == 1)
            #expect(try await store.inbox() == EpisodePage(episodes: [], more: false, total: 0))
        }
    }
}
