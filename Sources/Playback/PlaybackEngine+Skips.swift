import EarshotCore
import Foundation

/// The engine's bookkeeping for a podcast's skips (one stored property of the actor).
struct SkipSession: Sendable {
    /// The episode this bookkeeping is for.
    var episode: Int64?
    /// The chapter playing was last seen in: a skip acts when playing crosses into a skipped
    /// chapter, never where a seek, a chapter jump or a resume lands (the listener chose that).
    var chapter: Int = -1
    /// The episode whose outro skip was undone: it plays to its end.
    var outroSpared: Int64?
    /// Clears `state.skipped` after `SkipNotice.shownFor` seconds.
    var clearTask: Task<Void, Never>?
}

extension PlaybackEngine {
    /// `podcast.settings` and `skip.undo`.
    func handleSkips(_ command: ClientCommand) async throws(CommandError) {
        switch command {
        case .podcastSettings(let podcast, let change):
            try await requireSubscribed(podcast)
            var settings = state.settings
            let skips = try settings.skips(for: podcast).applying(change)
            settings.podcasts[podcast] = skips.isEmpty ? nil : skips
            try await storeSettings(settings)
        case .skipUndo:
            try await undoSkip()
        default:
            return
        }
        publishState()
    }

    /// Where an episode of `episode`'s podcast starts instead of `start` (past its intro), and
    /// the notice that says so.
    func skippingIntro(of episode: Episode, from start: Double) -> Double {
        let begin = state.settings.skips(for: episode.podcastID).start(from: start, duration: episode.duration)
        // Published with the load that follows, not before it (the state still shows the old episode).
        if begin > start { announce(SkipNotice(kind: .intro, episode: episode.id, from: start, to: begin), publish: false) }
        return begin
    }

    /// A new episode loads at `start`: its skips begin afresh (a reload of the same one keeps them).
    func skipsLoaded(_ episode: Episode, at start: Double) {
        if skipping.episode != episode.id {
            skipping.episode = episode.id
            skipping.outroSpared = nil
        }
        skipsSeeked(to: start)
    }

    /// A seek (the listener's or a skip's) lands in its chapter without skipping it.
    func skipsSeeked(to target: Double) {
        skipping.chapter = PlaybackState.chapterIndex(at: target, in: state.chapters)
    }

    /// After the position moved while playing: the outro reached ends the episode (a seek to its
    /// end: mpv's end of file then marks it played and Up Next moves on, as at a real end), and
    /// playing into a chapter to skip goes on at the next chapter kept.
    func applySkips() async {
        guard loaded, !state.paused, let episode = current else { return }
        let skips = state.settings.skips(for: episode.podcastID)
        let chapter = state.chapter
        // Crossed into it by playing: the next chapter, its start just passed. (A report from
        // before a seek landed can come between; the landing then is not "just past a start".)
        let entered = chapter == skipping.chapter + 1 && chapter < state.chapters.count
            && state.position - state.chapters[chapter].start < Self.crossingWindow
        skipping.chapter = chapter
        guard !skips.isEmpty else { return }
        if skipping.outroSpared != episode.id, state.duration > 0,
           skips.reachedOutro(position: state.position, duration: state.duration), state.position < state.duration - 0.5 {
            announce(SkipNotice(kind: .outro, episode: episode.id, from: state.position, to: state.duration))
            await seek(to: state.duration)
            return
        }
        guard entered, chapter >= 0, skips.skipsChapter(titled: state.chapters[chapter].title) else { return }
        let target = skips.skipTarget(from: chapter, in: state.chapters) ?? state.duration
        announce(SkipNotice(kind: .chapter, episode: episode.id, from: state.position, to: target, title: state.chapters[chapter].title))
        await seek(to: target)
    }

    /// How soon after a chapter's start a position report must come to count as playing into it
    /// (reports come several times a second while playing).
    static let crossingWindow: Double = 1

    /// Shows `notice` to every client for a few seconds.
    func announce(_ notice: SkipNotice, publish: Bool = true) {
        skipForListening(notice)
        state.skipped = notice
        skipping.clearTask?.cancel()
        skipping.clearTask = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(SkipNotice.shownFor * 1_000_000_000))
            guard !Task.isCancelled else { return }
            await self?.clearSkipNotice(notice)
        }
        if publish { publishState() }
    }

    private func clearSkipNotice(_ notice: SkipNotice) {
        guard state.skipped == notice else { return }
        state.skipped = nil
        publishState()
    }

    /// Back to where playing was before the skip `state.skipped` shows; that skip is not made
    /// again (the chapter plays, the outro plays to the end).
    private func undoSkip() async throws(CommandError) {
        guard let notice = state.skipped else { throw CommandError("nothing was skipped just now") }
        skipping.clearTask?.cancel()
        state.skipped = nil
        skipForListening(notice, undone: true)
        switch notice.kind {
        case .intro, .chapter:
            guard current?.id == notice.episode, state.episode != nil else {
                throw CommandError("the episode that was skipped in is no longer playing")
            }
            await seek(to: notice.from)
        case .outro:
            if current?.id == notice.episode, loaded {
                skipping.outroSpared = notice.episode
                await seek(to: notice.from)
            } else {
                // It ended and Up Next may have moved on: that episode again, where it was.
                try await play(episodeID: notice.episode)
                skipping.outroSpared = notice.episode
                skipping.clearTask?.cancel()
                state.skipped = nil
                await seek(to: notice.from)
            }
        }
    }
}
