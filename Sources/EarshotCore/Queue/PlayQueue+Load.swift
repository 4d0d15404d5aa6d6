extension PlayQueue {
    /// Replaces Up Next with `ids` (a playlist being played), making `start` current — or the
    /// first id when `start` is nil or not among them. Repeat stays as the listener set it; so
    /// does shuffle: when it is on, the new queue is shuffled with the starting episode first.
    /// Whatever was queued before is gone (the playlist keeps its own copy). An empty `ids`
    /// empties the queue.
    public mutating func load(_ ids: [Int64], start: Int64? = nil, using generator: inout some RandomNumberGenerator) {
        let shuffle = isShuffled
        var fresh = PlayQueue(ids, repeatMode: repeatMode)
        fresh.current = start.flatMap { fresh.contains($0) ? $0 : nil } ?? fresh.order.first
        if shuffle { fresh.setShuffle(true, using: &generator) }
        self = fresh
    }

    /// `load(_:start:using:)` with the system generator.
    public mutating func load(_ ids: [Int64], start: Int64? = nil) {
        var generator = SystemRandomNumberGenerator()
        load(ids, start: start, using: &generator)
    }
}
