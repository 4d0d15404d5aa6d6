import FoundationEssentials

/// Where the chapter commands seek: pure decisions over the merged list (`ChapterMerge.chapters`).
public enum ChapterNavigation {
    /// More than this many seconds into a chapter, "previous chapter" restarts it (as `previous`
    /// restarts an episode).
    public static let restartThreshold: Double = PlayQueue.restartThreshold

    /// `chapter {index}`: the start of that chapter.
    public static func start(of index: Int, in chapters: [Chapter]) throws(CommandError) -> Double {
        guard !chapters.isEmpty else { throw noChapters }
        guard chapters.indices.contains(index) else {
            throw CommandError("no chapter \(index): this episode's chapters are 0 to \(chapters.count - 1)")
        }
        return chapters[index].start
    }

    /// `chapter.next`: the start of the chapter after the one `position` is in (the first one
    /// when `position` is before it). An error in the last chapter.
    public static func next(from position: Double, in chapters: [Chapter]) throws(CommandError) -> Double {
        guard !chapters.isEmpty else { throw noChapters }
        let index = PlaybackState.chapterIndex(at: position, in: chapters)
        guard index + 1 < chapters.count else { throw CommandError("this is the last chapter") }
        return chapters[index + 1].start
    }

    /// `chapter.previous`: more than `restartThreshold` into a chapter, its start; otherwise the
    /// start of the chapter before. In the first chapter (or before it) that is the first
    /// chapter's start, or 0 when `position` is before it.
    public static func previous(from position: Double, in chapters: [Chapter]) throws(CommandError) -> Double {
        guard !chapters.isEmpty else { throw noChapters }
        let index = PlaybackState.chapterIndex(at: position, in: chapters)
        guard index >= 0 else { return 0 }
        if position - chapters[index].start > restartThreshold || index == 0 { return chapters[index].start }
        return chapters[index - 1].start
    }

    private static var noChapters: CommandError { CommandError("this episode has no chapters") }
}
