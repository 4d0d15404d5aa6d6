/// How the anchor of a page at an offset (the episode at `offset - 1`, the page being the keyset page
/// after it) is found: by walking the list's sort index from the nearer end when the list's length is
/// known (`episode_counts`: a list without a filter), from the start otherwise. SQLite can only step
/// over rows one by one (`OFFSET`), so a jump costs the rows skipped: with the length known, at most
/// half the list (a jump to the last page of a 60,000-episode podcast skipped 59,000 rows; it now
/// skips 1,000).
struct AnchorWalk: Equatable {
    /// Walk the list in reverse order (its last row first).
    var fromEnd: Bool
    /// Rows stepped over before the anchor, in the direction walked.
    var skipped: Int

    /// The walk to the anchor of the page at `offset` (> 0) of a list of `total` rows (nil: unknown);
    /// nil when the list has no row at `offset - 1` (the page is empty).
    static func to(offset: Int, total: Int?) -> AnchorWalk? {
        let index = offset - 1
        guard index >= 0 else { return nil }
        guard let total else { return AnchorWalk(fromEnd: false, skipped: index) }
        guard index < total else { return nil }
        let fromEnd = total - 1 - index
        return fromEnd < index ? AnchorWalk(fromEnd: true, skipped: fromEnd) : AnchorWalk(fromEnd: false, skipped: index)
    }
}
