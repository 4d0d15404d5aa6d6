import EarshotCore
import Foundation

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
        var byGUID: [String: Int64] = [:]
        var byURL: [String: [(id: Int64, guid: String)]] = [:]
        for (id, guid, url) in try database.fetchAll(LibrarySQL.episodeKeys, [podcastID], row: {
            ($0.int64(at: 0), $0.string(at: 1), $0.string(at: 2))
        }) {
            byGUID[guid] = id
            if !url.isEmpty { byURL[url, default: []].append((id, guid)) }
        }
        let listedGUIDs = Set(items.map(\.guid))
        var claimed = Set<Int64>()
        var inserted: [InboxArrivals.Inserted] = []
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
        for item in items {
            let details = try LibraryJSON.encode(item.details)
            let fields: [any StatementBindable] = [
                item.guid, item.title, item.summary, item.enclosureURL, item.enclosureType, item.enclosureLength,
                item.duration, item.published, item.artworkURL, item.link, details,
            ]
            let match = byGUID[item.guid] ?? (item.enclosureURL.isEmpty ? nil : byURL[item.enclosureURL]?.first {
                !listedGUIDs.contains($0.guid) && !claimed.contains($0.id)
            }?.id)
            if let id = match {
                if let first = unindexedFrom, id >= first { try indexNewRows() }
                update.reset()
                try update.bind([id] + fields)
                try update.step()
                claimed.insert(id)
                byGUID[item.guid] = id
            } else {
                insert.reset()
                try insert.bind([podcastID] + fields)
                try insert.step()
                let id = database.lastInsertedRowID
                inserted.append(.init(id: id, published: item.published))
                if unindexedFrom == nil { unindexedFrom = id }
                claimed.insert(id)
                byGUID[item.guid] = id
                if !item.enclosureURL.isEmpty { byURL[item.enclosureURL, default: []].append((id, item.guid)) }
            }
        }
        try indexNewRows()
        return inserted
    }

    /// Puts the episodes `InboxArrivals` picks of `inserted` into the Inbox, on the caller's transaction.
    func welcome(_ inserted: [InboxArrivals.Inserted], firstSubscription: Bool, at now: Date) throws {
        for id in InboxArrivals.entering(inserted, firstSubscription: firstSubscription) {
            try database.run("UPDATE episodes SET inbox_at = ? WHERE id = ?", [now, id])
        }
    }
}
