/// The episodes of one named playlist, in order, as a pure value: what adding, removing and
/// moving do. `LibraryStore` reads a playlist's rows into one, applies the edit and writes the
/// result back.
///
/// Invariant, kept by every operation: each id appears at most once. Adding an id already there
/// is a no-op (it keeps its place), so "Add to playlist" twice, or from two clients at once,
/// never duplicates an episode.
///
/// Some items may be hidden from the listener (the episodes of an unsubscribed podcast: kept, so
/// subscribing again brings them back where they were). Moves are given in positions among the
/// shown items only, and never change where a hidden item sits.
public struct PlaylistOrder: Sendable, Equatable {
    /// Every item, hidden or not, in playlist order.
    public private(set) var items: [Int64]

    /// A playlist of `ids`; repeats after the first are dropped.
    public init(_ ids: [Int64] = []) {
        var seen = Set<Int64>()
        items = ids.filter { seen.insert($0).inserted }
    }

    public var count: Int { items.count }
    public func contains(_ id: Int64) -> Bool { items.contains(id) }

    /// The items `isShown` keeps, in order: what the listener sees.
    public func shown(_ isShown: (Int64) -> Bool) -> [Int64] { items.filter(isShown) }

    /// Appends the ids not already in the playlist, in the order given (repeats in `ids` count
    /// once). Returns the ids actually added.
    @discardableResult
    public mutating func add(_ ids: [Int64]) -> [Int64] {
        var present = Set(items)
        let added = ids.filter { present.insert($0).inserted }
        items.append(contentsOf: added)
        return added
    }

    /// Takes `id` out; returns whether it was there.
    @discardableResult
    public mutating func remove(_ id: Int64) -> Bool {
        guard let index = items.firstIndex(of: id) else { return false }
        items.remove(at: index)
        return true
    }

    /// Moves the shown item at `from` so it ends up at `to`, both positions among the items
    /// `isShown` keeps (what the listener sees). Hidden items keep their slots: the shown items
    /// are reordered through the slots they already hold. Out-of-range positions change nothing
    /// and return false.
    @discardableResult
    public mutating func move(from: Int, to: Int, isShown: (Int64) -> Bool = { _ in true }) -> Bool {
        let slots = items.indices.filter { isShown(items[$0]) }
        guard slots.indices.contains(from), slots.indices.contains(to) else { return false }
        var visible = slots.map { items[$0] }
        visible.insert(visible.remove(at: from), at: to)
        for (slot, id) in zip(slots, visible) { items[slot] = id }
        return true
    }
}
