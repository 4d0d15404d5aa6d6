import EarshotCore
import Foundation
import TestSupport
import Testing

/// List requests read from arguments, and which new episodes enter the Inbox.
@Suite("Episode lists and Inbox arrivals")
struct EpisodeQueryTests {
    @Test("arguments: every filter and sort by name, pages clamped, mistakes in words")
    func parse() {
        #expect(EpisodeQuery.parse([:]) == .success(EpisodeQuery()))
        #expect(EpisodeQuery.parse(["filter": "inprogress", "sort": "longest", "podcast": "7", "offset": "200", "limit": "50"])
                == .success(EpisodeQuery(filter: .inprogress, sort: .longest, podcast: 7, offset: 200, limit: 50)))
        for filter in EpisodeQuery.Filter.allCases {
            #expect(EpisodeQuery.parse(["filter": filter.rawValue]) == .success(EpisodeQuery(filter: filter)))
        }
        for sort in EpisodeQuery.Sort.allCases { #expect(EpisodeQuery.parse(["sort": sort.rawValue]) == .success(EpisodeQuery(sort: sort))) }
        #expect(EpisodeQuery.parse(["limit": "100000"]) == .success(EpisodeQuery(limit: 1_000)))
        #expect(EpisodeQuery.parse(["limit": "0"]) == .success(EpisodeQuery(limit: 1)))
        #expect(EpisodeQuery.parse(["limit": "lots"]) == .success(EpisodeQuery()), "an unreadable limit is the default, as before")
        #expect(EpisodeQuery.parse(["filter": "new"]) == .failure(.init("filter is one of unplayed, inprogress, downloaded, played, not \"new\"")))
        #expect(EpisodeQuery.parse(["sort": "random"]) == .failure(.init("sort is one of newest, oldest, shortest, longest, not \"random\"")))
        for bad in ["-1", "x", "1.5", "+3"] {
            guard case .failure = EpisodeQuery.parse(["offset": bad]) else { Issue.record("offset \(bad)"); continue }
            guard case .failure = EpisodeQuery.parse(["podcast": bad]) else { Issue.record("podcast \(bad)"); continue }
            guard case .failure = EpisodeQuery.parse(["after": bad]) else { Issue.record("after \(bad)"); continue }
        }
        #expect(EpisodeQuery.parse(["after": "41", "limit": "5", "sort": "oldest"]) == .success(EpisodeQuery(sort: .oldest, after: 41, limit: 5)))
        #expect(EpisodeQuery.parse(["after": "41", "offset": "0"]) == .success(EpisodeQuery(after: 41)))
        #expect(EpisodeQuery.parse(["after": "0"]) == .failure(.init("after is an episode id, not \"0\"")))
        #expect(EpisodeQuery.parse(["after": "41", "offset": "10"]) == .failure(.init("a page starts after an episode or at an offset, not both")))
    }

    @Test("Inbox arrivals: a refresh brings all that is new, a first subscription only its newest (property)")
    func arrivals() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            let count = Int(random.next() % 8)
            let inserted = (0..<count).map { index in
                InboxArrivals.Inserted(id: Int64(index + 1),
                                       published: random.next() % 4 == 0 ? nil : Date(timeIntervalSince1970: Double(random.next() % 5)))
            }
            #expect(InboxArrivals.entering(inserted, firstSubscription: false) == inserted.map(\.id))
            let first = InboxArrivals.entering(inserted, firstSubscription: true)
            #expect(first.count == min(1, count))
            guard let chosen = first.first.flatMap({ id in inserted.first { $0.id == id } }) else { continue }
            let newest = inserted.compactMap(\.published).max()
            #expect(chosen.published == newest, "the newest by date (undated only when none has one)")
            let firstOfNewest = inserted.first { $0.published == newest }
            #expect(chosen.id == firstOfNewest?.id, "among equals, the first the feed lists")
        }
    }
}
