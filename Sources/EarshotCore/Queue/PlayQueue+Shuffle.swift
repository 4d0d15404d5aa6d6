extension PlayQueue {
    /// Turns shuffle on or off. On: a Fisher–Yates permutation of a copy of the original
    /// order, with the current episode moved first so turning shuffle on never skips away from
    /// (or back over) what is playing. Off: the original order again, the current episode kept.
    /// Turning on what is already on keeps the existing shuffle (no surprise reshuffle).
    /// The generator is a parameter so tests can seed it.
    public mutating func setShuffle(_ on: Bool, using generator: inout some RandomNumberGenerator) {
        guard on else { shuffledOrder = nil; return }
        guard !isShuffled else { return }
        var indices = Array(order.indices)
        // Fisher–Yates, spelled out so the permutation for a given seed never depends on the
        // standard library's choice of shuffle.
        var i = indices.count - 1
        while i > 0 {
            let j = Int.random(in: 0...i, using: &generator)
            indices.swapAt(i, j)
            i -= 1
        }
        var shuffled = indices.map { order[$0] }
        if let current, let at = shuffled.firstIndex(of: current) {
            shuffled.remove(at: at)
            shuffled.insert(current, at: 0)
        }
        shuffledOrder = shuffled
    }

    /// `setShuffle(_:using:)` with the system generator.
    public mutating func setShuffle(_ on: Bool) {
        var generator = SystemRandomNumberGenerator()
        setShuffle(on, using: &generator)
    }

    /// Sets what happens when an episode ends; the queue itself is unchanged.
    public mutating func setRepeat(_ mode: RepeatMode) {
        repeatMode = mode
    }
}
