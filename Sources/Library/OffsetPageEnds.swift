import EarshotCore

/// Where the last offset page of each episode list ended, so that the page after it (a client paging
/// by offset asks for exactly that next) starts after its last episode instead of walking every row
/// before it again: 61 pages of 1,000 by offset walked 1,830,000 index rows without it.
///
/// Valid only while the library is as it was: every entry is dropped when this connection has
/// changed any row since (`Database.totalChanges`) or another connection has committed (`PRAGMA
/// data_version`), so an entry always names the episode the walk would find. Only each list's latest
/// end is kept: any other offset (a jump deep into a list) is found by the walk
/// (`EpisodeListSQL.anchorBefore`).
struct OffsetPageEnds {
    /// A list: its filter, sort and podcast.
    struct List: Hashable {
        var filter: EpisodeQuery.Filter?
        var sort: EpisodeQuery.Sort
        var podcast: Int64?

        init(_ query: EpisodeQuery) {
            (filter, sort, podcast) = (query.filter, query.sort, query.podcast)
        }
    }

    /// The library's state the entries belong to: this connection's total changes, others' commits.
    struct Version: Equatable {
        var changes: Int64
        var data: Int64
    }

    /// At most this many lists (a few clients paging a few lists); past it, all are dropped.
    static let capacity = 64

    /// List → where its last offset page ended: the next page's offset and the episode just before it.
    private var ends: [List: (offset: Int, id: Int64)] = [:]
    private var version: Version?

    /// How many lists have an end kept (for tests).
    var entries: Int { ends.count }

    /// The id of the episode just before `offset` in `query`'s list, if its last page ended there and
    /// the library is as it was then.
    mutating func anchor(_ query: EpisodeQuery, offset: Int, at now: Version) -> Int64? {
        guard version == now else {
            ends = [:]
            version = now
            return nil
        }
        guard let end = ends[List(query)], end.offset == offset else { return nil }
        return end.id
    }

    /// A page of `query`'s list ended with episode `id`, just before `offset`.
    mutating func record(_ query: EpisodeQuery, offset: Int, id: Int64, at now: Version) {
        if version != now || ends.count >= Self.capacity {
            ends = [:]
            version = now
        }
        ends[List(query)] = (offset, id)
    }
}
