import EarshotCore
import Foundation

/// What merging a feed's items into a podcast's episodes knows between batches (`LibraryStore.merge`).
struct EpisodeMerge {
    let podcastID: Int64
    /// Every guid the feed lists, for matching by enclosure URL (see `mergeEpisodes`); nil while a new
    /// podcast's feed is streamed in: every episode then comes from this feed, so each one's guid is
    /// listed and no enclosure match can apply (neither `byURL` nor `claimed` is kept). Nil too while a
    /// refresh is streamed in (`StreamedRefresh`): only items whose guid is stored are merged then, and
    /// the set is filled in before the others are.
    var listedGUIDs: Set<String>?
    var byGUID: [String: Int64] = [:]
    var byURL: [String: [(id: Int64, guid: String)]] = [:]
    var claimed = Set<Int64>()
    var inserted: [InboxArrivals.Inserted] = []

    /// A merge of the whole feed `items` into `podcastID`'s stored episodes `keys`.
    init(podcastID: Int64, keys: [(id: Int64, guid: String, url: String)], listing items: [FeedItem]?) {
        self.podcastID = podcastID
        listedGUIDs = items.map { Set($0.map(\.guid)) }
        for (id, guid, url) in keys {
            byGUID[guid] = id
            if !url.isEmpty { byURL[url, default: []].append((id, guid)) }
        }
    }

    /// A merge of a feed read batch by batch into a podcast with no episodes yet.
    init(streamingInto podcastID: Int64) {
        self.podcastID = podcastID
        listedGUIDs = nil
    }
}

extension LibraryStore {
    /// Merges a feed's items into podcast `podcastID`'s episodes, on the caller's transaction.
    ///
    /// An item is the episode with its guid. Failing that, it is the episode with its enclosure URL
    /// whose own guid the feed no longer lists (the publisher changed the guid, the audio stayed):
    /// that episode is updated, guid included, rather than duplicated. Otherwise it is new. A changed
    /// enclosure URL simply updates the episode it belongs to. Positions and played state are never
    /// touched, and unchanged rows are not rewritten. Returns the episodes it inserted.
    @discardableResult
    func mergeEpisodes(podcastID: Int64, items: [FeedItem]) throws -> [InboxArrivals.Inserted] {
        var state = EpisodeMerge(podcastID: podcastID, keys: try episodeKeys(podcastID), listing: items)
        try merge(items, into: &state)
        return state.inserted
    }

    /// A podcast's stored episodes as a merge matches them: id, guid, enclosure URL.
    func episodeKeys(_ podcastID: Int64) throws -> [(id: Int64, guid: String, url: String)] {
        try database.fetchAll(LibrarySQL.episodeKeys, [podcastID], row: {
            (id: $0.int64(at: 0), guid: $0.string(at: 1), url: $0.string(at: 2))
        })
    }

    /// Merges `items` (the whole feed, or the next batch of a streamed one) as `mergeEpisodes` says, on
    /// the caller's transaction, and indexes the rows it inserted.
    func merge(_ items: [FeedItem], into state: inout EpisodeMerge) throws {
        // New rows are indexed together at the end (one INSERT … SELECT: several times faster than
        // a trigger per row). New rows have rowids above every row before them (INTEGER PRIMARY KEY
        // takes max + 1), so "from this rowid on" names them. A row updated in this same merge (a
        // feed listing a guid twice) must be in the index first: the update trigger takes its old
        // words out.
        var unindexedFrom: Int64?
        func indexNewRows() throws {
            guard indexesEpisodes, let first = unindexedFrom else { return }
            try database.run("INSERT INTO episodes_fts(rowid, title, summary) SELECT id, title, summary FROM episodes WHERE id >= ?",
                             [first])
            unindexedFrom = nil
        }

        let insert = try database.cachedStatement(LibrarySQL.insertEpisode)
        let update = try database.cachedStatement(LibrarySQL.updateEpisode)
        defer { insert.reset(); update.reset() }
        let matchesByURL = state.listedGUIDs != nil
        for item in items {
            let details = try LibraryJSON.encode(item.details)
            let fields: [any StatementBindable] = [
                item.guid, item.title, item.summary, item.enclosureURL, item.enclosureType, item.enclosureLength,
                item.duration, item.published, item.artworkURL, item.link, details,
            ]
            let match = state.byGUID[item.guid] ?? (item.enclosureURL.isEmpty || !matchesByURL ? nil : state.byURL[item.enclosureURL]?.first {
                !state.listedGUIDs!.contains($0.guid) && !state.claimed.contains($0.id)
            }?.id)
            if let id = match {
                if let first = unindexedFrom, id >= first { try indexNewRows() }
                update.reset()
                try update.bind([id] + fields)
                try update.step()
                if matchesByURL { state.claimed.insert(id) }
                state.byGUID[item.guid] = id
            } else {
                insert.reset()
                try insert.bind([state.podcastID] + fields)
                try insert.step()
                let id = database.lastInsertedRowID
                state.inserted.append(.init(id: id, published: item.published))
                if unindexedFrom == nil { unindexedFrom = id }
                state.byGUID[item.guid] = id
                if matchesByURL {
                    state.claimed.insert(id)
                    if !item.enclosureURL.isEmpty { state.byURL[item.enclosureURL, default: []].append((id, item.guid)) }
                }
            }
        }
        try indexNewRows()
    }

    /// Puts the episodes `InboxArrivals` picks of `inserted` into the Inbox, on the caller's transaction.
    func welcome(_ inserted: [InboxArrivals.Inserted], firstSubscription: Bool, at now: Date) throws {
        for id in InboxArrivals.entering(inserted, firstSubscription: firstSubscription) {
            try database.run("UPDATE episodes SET inbox_at = ? WHERE id = ?", [now, id])
        }
    }
}
