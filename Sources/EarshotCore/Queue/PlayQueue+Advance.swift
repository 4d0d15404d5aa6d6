extension PlayQueue {
    /// The listener pressed "next": the following episode in the visible order becomes current
    /// and is returned. Nothing current yet: the first one. At the end, repeat-all starts the
    /// queue over; otherwise the queue has finished: nil, and `current` stays on the last
    /// episode so "previous" and the player still have it. Repeat-one does not hold "next"
    /// back: the listener asked to move on (repeat-one is about an episode *ending*).
    @discardableResult
    public mutating func next() -> Int64? {
        let visible = visibleOrder
        guard !visible.isEmpty else { return nil }
        guard let index = currentIndex else {
            current = visible[0]
            return current
        }
        if index + 1 < visible.count {
            current = visible[index + 1]
        } else if repeatMode == .all {
            current = visible[0]
        } else {
            return nil
        }
        return current
    }

    /// The listener pressed "previous" `position` seconds into the current episode. More than
    /// 3 s in: restart it (what every player does). Otherwise the episode before becomes
    /// current; at the head, repeat-all wraps to the last one, else the first is restarted.
    public mutating func previous(position: Double) -> Decision {
        guard let index = currentIndex else { return .nothing }
        if position > Self.restartThreshold { return .restart }
        let visible = visibleOrder
        let target: Int64
        if index > 0 {
            target = visible[index - 1]
        } else if repeatMode == .all, visible.count > 1 {
            target = visible[visible.count - 1]
        } else {
            return .restart
        }
        current = target
        return .play(target)
    }

    /// The current episode played to its end: what plays now, applying repeat. Repeat-one
    /// gives the same episode again; repeat-all never stops on a non-empty queue; repeat-off
    /// stops (nil) after the last one, as `next()` does.
    @discardableResult
    public mutating func episodeEnded() -> Int64? {
        if repeatMode == .one, let current { return current }
        return next()
    }
}
