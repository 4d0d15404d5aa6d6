import FoundationEssentials

/// Skip silence's decisions for one loaded episode (issue 18), from what mpv's `silencedetect`
/// reports (`af-metadata/silence`: the start of the last pause found and the end of the last
/// pause that ended, in seconds of the file). Pure; the engine carries the actions out.
///
/// mpv keeps the last value of each key and reports the whole set whenever it changes, and
/// again after a seek: a value counts only when it is new, and a pause only when it starts
/// after `floor` (where playing last restarted, or the end of the pause last skipped —
/// after a skip lands inside a pause, the detector finds "a new pause" there, which is the old one).
public struct SilenceRun: Sendable, Equatable {
    /// What the engine does.
    public enum Action: Sendable, Equatable {
        /// A pause began: play on fast.
        case speedUp
        /// The pause that played fast ended at `end`: back to the listener's speed, and on from
        /// `resumeAt` (a little before `end`).
        case resume(at: Double, end: Double, from: Double)
    }

    /// Where the detector had got to when playing sped up (nil: at the listener's speed).
    public private(set) var fastFrom: Double?
    /// Pauses starting at or before this are old news.
    public private(set) var floor: Double = 0
    private var seenStart: Double?
    private var seenEnd: Double?

    public init() {}

    public var isFast: Bool { fastFrom != nil }

    /// Playing (re)starts at `position` (a load or the listener's seek): at the listener's speed,
    /// and pauses reported before now are not acted on.
    public mutating func restart(at position: Double) {
        fastFrom = nil
        // A little before it: a pause the file starts with (at 0) is one to skip too.
        floor = position - 0.05
    }

    /// One report from the detector with `level`'s settings; what to do, if anything.
    public mutating func report(start: Double?, end: Double?, level: SilenceSkipping) -> Action? {
        let newStart = start != nil && start != seenStart
        let newEnd = end != nil && end != seenEnd
        seenStart = start ?? seenStart
        seenEnd = end ?? seenEnd
        if let from = fastFrom {
            guard newEnd, let end, end >= from - level.minimum else { return nil }
            fastFrom = nil
            floor = end
            return .resume(at: max(from, end - level.keep), end: end, from: from)
        }
        guard level != .off, newStart, let start, start > floor else { return nil }
        // A pause that began and ended between two reports is over already.
        if let end, newEnd, end >= start { return nil }
        fastFrom = start + level.minimum
        return .speedUp
    }
}
