import FoundationEssentials

/// Which new episodes enter the Inbox (AntennaPod's: what arrived since you last looked, each
/// to be queued, played or dismissed). A refresh brings episodes that are really new: all enter.
/// A first subscription brings the whole back catalogue, which is not news: only its newest
/// episode enters, so the Inbox shows there is something to start with. Pure.
public enum InboxArrivals {
    public struct Inserted: Sendable, Equatable {
        public var id: Int64
        public var published: Date?
        public init(id: Int64, published: Date?) { self.id = id; self.published = published }
    }

    /// The ids that enter the Inbox, of `inserted` (the episodes a store just inserted).
    public static func entering(_ inserted: [Inserted], firstSubscription: Bool) -> [Int64] {
        guard firstSubscription else { return inserted.map(\.id) }
        // Newest by date; undated episodes only when none has a date; among equals the first listed.
        let newest = inserted.enumerated().max { a, b in
            let (x, y) = (a.element.published ?? .distantPast, b.element.published ?? .distantPast)
            return x != y ? x < y : a.offset > b.offset
        }
        return newest.map { [$0.element.id] } ?? []
    }
}
