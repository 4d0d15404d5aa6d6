import EarshotCore
import Foundation

/// A refresh merged while its feed is parsed (`LibraryStore.storeRefresh(podcastID:parsing:…)`).
///
/// An item whose guid the podcast already has is that episode, whatever else the feed lists: it is
/// merged as its batch arrives. Any other item is new, or an episode whose guid changed, found by its
/// enclosure URL among the episodes whose guid the feed no longer lists: that needs every guid of the
/// feed, so such items wait for the end, in document order. The result is `mergeEpisodes`' on the whole
/// feed: a waiting item can only match an episode whose guid is unlisted, which no item merged early
/// touches, and the waiting ones are merged in their own order. Held meanwhile: the feed's guids and the
/// waiting items (the new episodes: a few), not its 60,000 items.
struct StreamedRefresh {
    var merge: EpisodeMerge
    /// Every guid the feed listed so far.
    var listed = Set<String>()
    /// Items without a stored guid, in document order.
    var waiting: [FeedItem] = []

    /// The parse started again (its bytes repaired): the items come again. Episodes merged already are
    /// merged again by guid, each ending as the new pass says.
    mutating func restart() {
        listed = []
        waiting = []
    }
}

extension LibraryStore {
    /// Stores a refreshed feed while it is parsed, for a large one (spooled to a file by the fetch): as
    /// `storeRefresh(podcastID:content:etag:lastModified:)`, but `parse` hands the items to its sink in
    /// batches and they are merged as they come (`StreamedRefresh`), so a 60,000-item feed is never held
    /// whole. `settle` sees the feed once it is read (without its items; it may fill in a missing
    /// title). One transaction: a parse or store that fails leaves the podcast as it was.
    ///
    /// Returns the feed as settled, without items, or nil (nothing stored) when the podcast is not
    /// subscribed.
    public func storeRefresh(podcastID: Int64, parsing parse: @Sendable (any FeedItemSink) throws -> FeedContent,
                             settle: @Sendable (inout FeedContent) -> Void, etag: String?, lastModified: String?) throws -> FeedContent? {
        try database.transaction { () throws -> FeedContent? in
            guard try isSubscribed(podcastID: podcastID) else { return nil }
            var refresh = StreamedRefresh(merge: EpisodeMerge(podcastID: podcastID, keys: try episodeKeys(podcastID), listing: nil))
            var content = try parse(FeedItemHandler(take: { items in
                var known: [FeedItem] = []
                for item in items {
                    refresh.listed.insert(item.guid)
                    if refresh.merge.byGUID[item.guid] != nil { known.append(item) } else { refresh.waiting.append(item) }
                }
                try self.merge(known, into: &refresh.merge)
            }, restart: { refresh.restart() }))
            settle(&content)
            _ = try updateRefreshedPodcast(podcastID, content, etag: etag, lastModified: lastModified)  // subscribed: checked above
            refresh.merge.listedGUIDs = refresh.listed
            try merge(refresh.waiting, into: &refresh.merge)
            try welcome(refresh.merge.inserted, firstSubscription: false, at: Date())
            return content
        }
    }
}
