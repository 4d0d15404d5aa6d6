/// Which episodes a list shows and in what order (`GET /api/episodes?filter=&sort=&podcast=&after=&offset=&limit=`):
/// a filter on the listener's state, a sort, one podcast or all, and a page. Pure: read from the
/// request's arguments with a message for each mistake; the library turns it into SQL.
///
/// A page starts either `after` an episode (the last one of the page before: keyset paging, what the web
/// UI uses: a page deep in a 60,000-episode list costs what the first one does, and episodes arriving or
/// changing state meanwhile neither repeat nor skip a row) or at an `offset` (kept for clients that count).
public struct EpisodeQuery: Sendable, Equatable {
    public enum Filter: String, Sendable, CaseIterable {
        /// Not played to the end (in progress included, as in AntennaPod's "Unplayed").
        case unplayed
        /// Begun and not finished.
        case inprogress
        /// Kept on disk.
        case downloaded
        /// Played to the end (or marked so).
        case played
    }

    public enum Sort: String, Sendable, CaseIterable {
        case newest, oldest, shortest, longest
    }

    /// A page is at most this long: a list pages as it scrolls, none draws thousands of rows.
    public static let maximumLimit = 1_000
    public static let defaultLimit = 100

    public var filter: Filter?
    public var sort: Sort
    public var podcast: Int64?
    /// The page begins with the episode that follows this one in the list's order (it need not pass the filter).
    public var after: Int64?
    public var offset: Int
    public var limit: Int

    public init(filter: Filter? = nil, sort: Sort = .newest, podcast: Int64? = nil, after: Int64? = nil, offset: Int = 0,
                limit: Int = defaultLimit) {
        self.filter = filter; self.sort = sort; self.podcast = podcast; self.after = after; self.offset = offset; self.limit = limit
    }

    /// Reads the request's arguments. Unknown filter or sort names and malformed numbers are
    /// refused in words; a `limit` beyond the maximum is the maximum (as before: lists asked
    /// for 1000 and more), a missing one the default.
    public static func parse(_ arguments: [String: String]) -> Result<EpisodeQuery, EpisodeQueryError> {
        var query = EpisodeQuery()
        if let name = arguments["filter"], !name.isEmpty {
            guard let filter = Filter(rawValue: name) else {
                return .failure(.init("filter is one of \(Filter.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\""))
            }
            query.filter = filter
        }
        if let name = arguments["sort"], !name.isEmpty {
            guard let sort = Sort(rawValue: name) else {
                return .failure(.init("sort is one of \(Sort.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\""))
            }
            query.sort = sort
        }
        if let text = arguments["podcast"], !text.isEmpty {
            guard let id = Int64(text), id > 0, text.allSatisfy(\.isNumber) else { return .failure(.init("podcast is a podcast id, not \"\(text)\"")) }
            query.podcast = id
        }
        if let text = arguments["offset"], !text.isEmpty {
            guard let offset = Int(text), offset >= 0, text.allSatisfy(\.isNumber) else {
                return .failure(.init("offset is a whole number ≥ 0, not \"\(text)\""))
            }
            query.offset = offset
        }
        if let text = arguments["after"], !text.isEmpty {
            guard let id = Int64(text), id > 0, text.allSatisfy(\.isNumber) else { return .failure(.init("after is an episode id, not \"\(text)\"")) }
            guard query.offset == 0 else { return .failure(.init("a page starts after an episode or at an offset, not both")) }
            query.after = id
        }
        if let text = arguments["limit"], let asked = Int(text) {
            query.limit = min(max(asked, 1), maximumLimit)
        }
        return .success(query)
    }
}

/// A list request the listener (or client) must change, in words.
public struct EpisodeQueryError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
