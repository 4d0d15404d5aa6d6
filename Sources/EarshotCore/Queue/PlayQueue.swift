/// "Up Next" as a pure value: the episodes (by id) in the order the listener built, the one
/// playing, shuffle and repeat. It decides; `PlaybackEngine` carries out what it decides.
///
/// Invariants, kept by every operation (and repaired when decoding):
/// - `order` holds each id at most once;
/// - `shuffledOrder`, when present, is a permutation of `order`;
/// - `current`, when present, is in `order`.
///
/// Played episodes stay in the queue (the current item just moves on), because repeat-all
/// needs them to start over; removing is the listener's choice.
public struct PlayQueue: Sendable, Equatable {
    /// The original order: what the listener sees with shuffle off. Shuffling never touches it,
    /// so turning shuffle off gives it back exactly.
    public internal(set) var order: [Int64]
    /// The order shown while shuffle is on (ids rather than indices, so adds and removes
    /// cannot leave it pointing at the wrong episode); nil when shuffle is off.
    public internal(set) var shuffledOrder: [Int64]?
    /// The episode playing (or paused), if any. An id, not an index, so reordering and
    /// shuffling never change which episode is current.
    public internal(set) var current: Int64?
    public internal(set) var repeatMode: RepeatMode

    /// Where `add(_:at:)` puts an episode.
    public enum Placement: String, Sendable, Codable {
        /// After everything else.
        case end
        /// Right after the current episode ("play next"); at the head when nothing is current.
        case next
    }

    /// What `previous(position:)` asks the engine to do.
    public enum Decision: Sendable, Equatable {
        /// Seek the current episode back to 0.
        case restart
        /// Play this episode (it is now `current`).
        case play(Int64)
        /// Nothing to go back to: the queue has no current episode.
        case nothing
    }

    /// More than this many seconds into an episode, "previous" restarts it instead.
    public static let restartThreshold: Double = 3

    /// A queue of `ids` (duplicates after the first are dropped), shuffle off.
    /// `current` is kept only if it is one of the ids.
    public init(_ ids: [Int64] = [], current: Int64? = nil, repeatMode: RepeatMode = .off) {
        var seen = Set<Int64>()
        order = ids.filter { seen.insert($0).inserted }
        shuffledOrder = nil
        self.current = current.flatMap { seen.contains($0) ? $0 : nil }
        self.repeatMode = repeatMode
    }

    // MARK: - Reading

    /// The order the listener sees: shuffled while shuffle is on, the original otherwise.
    public var visibleOrder: [Int64] { shuffledOrder ?? order }
    public var isShuffled: Bool { shuffledOrder != nil }
    public var isEmpty: Bool { order.isEmpty }
    public var count: Int { order.count }
    public func contains(_ id: Int64) -> Bool { order.contains(id) }
    /// Where the current episode is in `visibleOrder`.
    public var currentIndex: Int? { current.flatMap { visibleOrder.firstIndex(of: $0) } }

    // MARK: - Editing

    /// Queues `id` at the end or right after the current episode. An id already queued is moved
    /// rather than duplicated; the current episode itself is left where it is (moving it after
    /// itself means nothing). With shuffle on, the id goes to the same place in both orders,
    /// so "play next" still means next after shuffle is turned off.
    public mutating func add(_ id: Int64, at placement: Placement = .end) {
        guard id != current else { return }
        detach(id)
        switch placement {
        case .end:
            order.append(id)
            shuffledOrder?.append(id)
        case .next:
            order.insert(id, at: Self.slotAfter(current, in: order))
            if var shuffled = shuffledOrder {
                shuffled.insert(id, at: Self.slotAfter(current, in: shuffled))
                shuffledOrder = shuffled
            }
        }
    }

    /// Removes `id` from the queue. Removing the current episode makes the one that followed
    /// it (in the visible order) current, or nothing when it was last; the engine decides
    /// whether to play it. Returns whether the id was queued.
    @discardableResult
    public mutating func remove(_ id: Int64) -> Bool {
        guard let index = visibleOrder.firstIndex(of: id) else { return false }
        if id == current {
            let visible = visibleOrder
            current = index + 1 < visible.count ? visible[index + 1] : nil
        }
        detach(id)
        return true
    }

    /// Moves the item at `from` so it ends up at `to`, both indices in `visibleOrder` (what the
    /// listener dragged). While shuffled only the shuffled order changes: turning shuffle off
    /// returns to the original order, as promised. Out-of-range indices change nothing.
    @discardableResult
    public mutating func move(from: Int, to: Int) -> Bool {
        let visible = visibleOrder
        guard visible.indices.contains(from), visible.indices.contains(to) else { return false }
        var moved = visible
        moved.insert(moved.remove(at: from), at: to)
        if isShuffled { shuffledOrder = moved } else { order = moved }
        return true
    }

    /// Clears Up Next the way Pocket Casts does: everything goes except the episode playing,
    /// which stays (alone) so the player keeps something to show and resume.
    public mutating func clear() {
        let keep = current.map { [$0] } ?? []
        order = keep
        if isShuffled { shuffledOrder = keep }
    }

    /// Makes `id` current. An id not queued is put at the head (of both orders), so what is
    /// playing is always in Up Next; a queued one stays where it is.
    public mutating func play(_ id: Int64) {
        if !contains(id) {
            order.insert(id, at: 0)
            shuffledOrder?.insert(id, at: 0)
        }
        current = id
    }

    // MARK: - Helpers

    /// Takes `id` out of both orders without touching `current`.
    mutating func detach(_ id: Int64) {
        order.removeAll { $0 == id }
        shuffledOrder?.removeAll { $0 == id }
    }

    /// The insertion index right after `id` in `list`, or the head when `id` is absent or nil.
    static func slotAfter(_ id: Int64?, in list: [Int64]) -> Int {
        guard let id, let index = list.firstIndex(of: id) else { return 0 }
        return index + 1
    }
}

// MARK: - Codable

extension PlayQueue: Codable {
    enum CodingKeys: String, CodingKey {
        case order, shuffledOrder = "shuffled", current, repeatMode = "repeat"
    }

    /// Decodes and repairs: a stored queue from an older or damaged database should load as
    /// the closest valid queue rather than fail playback altogether.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try c.decode([Int64].self, forKey: .order),
            current: try c.decodeIfPresent(Int64.self, forKey: .current),
            repeatMode: try c.decodeIfPresent(RepeatMode.self, forKey: .repeatMode) ?? .off
        )
        // A shuffled order that is not exactly a permutation of the original is dropped.
        if let shuffled = try c.decodeIfPresent([Int64].self, forKey: .shuffledOrder),
           shuffled.count == order.count, Set(shuffled) == Set(order) {
            shuffledOrder = shuffled
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(order, forKey: .order)
        try c.encodeIfPresent(shuffledOrder, forKey: .shuffledOrder)
        try c.encodeIfPresent(current, forKey: .current)
        try c.encode(repeatMode, forKey: .repeatMode)
    }
}
