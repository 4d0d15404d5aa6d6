/// Numbered work shared by two threads from its two ends: one takes from the front, the other from the
/// back, one at a time, until they meet; each number is taken once. The caller keeps it under a lock.
/// A split read's file chunks (`SharedRead`) and its pieces (`SplitRead`) are shared this way: taken one
/// at a time, the work keeps both threads busy to the end, whatever each number costs.
struct TwoEndedClaims {
    /// The next number from the front, and from the back; none is left once they cross.
    var front: Int
    var back: Int

    /// The next number from the front, or nil when none is left.
    mutating func takeFront() -> Int? {
        guard front <= back else { return nil }
        front += 1
        return front - 1
    }

    /// The next number from the back, or nil when none is left.
    mutating func takeBack() -> Int? {
        guard front <= back else { return nil }
        back -= 1
        return back + 1
    }
}
