/// Which episodes a list shows and in what order (`GET /api/episodes?filter=&sort=&podcast=&offset=&limit=`):
/// a filter on the listener's state, a sort, one podcast or all, and a page. Pure: read from the
/// request's arguments with a message for each mistake; the library turns it into SQL.
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
    public var offset: Int
    public var limit: Int

    public init(filter: Filter? = nil, sort: Sort = .newest, podcast: Int64? = nil, offset: Int = 0, limit: Int = defaultLimit) {
        self.filter = filter; self.sort = sort; self.podcast = podcast; self.offset = offset; self.limit = limit
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
