import EarshotCore
import FeedFetching
import Foundation

/// Chapters of the loaded episode from its three sources (`ChapterMerge` decides which one shows):
/// the feed's Podlove chapters at once, the file's when mpv has read them, the Podcasting 2.0 JSON
/// ones from the library's cache or, the first time, from the web.
extension PlaybackEngine {
    /// How JSON chapters are fetched: small (a chapters file is kilobytes) and quick to give up.
    static let chapterFetcher = FeedFetcher(timeout: 15, maximumBytes: PodcastChaptersJSON.maximumBytes)

    /// A new episode was loaded (nil: none is): its feed chapters show now, and its JSON chapters
    /// are looked up. Publishing is left to the caller, which has more to say.
    func resetChapters(for episode: Episode?) {
        chapterTask?.cancel()
        chapterTask = nil
        chapterSources = ChapterMerge(feed: episode?.details?.chapters ?? [])
        state.chapters = chapterSources.chapters
        guard let episode, let address = episode.details?.chaptersURL,
              let url = URL(string: address), FeedFetcher.isFetchable(url) else { return }
        let id = episode.id, title = episode.title
        chapterTask = Task { [weak self] in
            await self?.loadJSONChapters(episodeID: id, title: title, address: address, url: url)
        }
    }

    /// A source changed: publishes the merged list when it differs from what clients have.
    func chaptersChanged() {
        let merged = chapterSources.chapters
        guard merged != state.chapters else { return }
        state.chapters = merged
        // Chapters that arrive (a file's own, a chapters file) do not count as playing into one.
        skipsSeeked(to: state.position)
        publishState()
    }

    /// `chapter {index}`, `chapter.next`, `chapter.previous`: a seek decided by `ChapterNavigation`.
    func handleChapter(_ command: ClientCommand) async throws(CommandError) {
        guard state.episode != nil else { throw CommandError("nothing is playing") }
        let target: Double
        switch command {
        case .chapter(let index): target = try ChapterNavigation.start(of: index, in: state.chapters)
        case .chapterNext: target = try ChapterNavigation.next(from: state.position, in: state.chapters)
        case .chapterPrevious: target = try ChapterNavigation.previous(from: state.position, in: state.chapters)
        default: return
        }
        try await handle(.seek(to: target))
    }

    /// The cached list, else one fetch (kept when it validates). A failure leaves the other
    /// sources showing and is only logged: chapters are an extra, never a reason not to play.
    private func loadJSONChapters(episodeID: Int64, title: String, address: String, url: URL) async {
        var chapters: [Chapter]?
        do { chapters = try await store.cachedChapters(episodeID: episodeID, url: address) } catch {
            Log.warning("chapters", "could not read the cached chapters of \"\(title)\": \(String(reflecting: error))")
        }
        if chapters == nil {
            do {
                let fetched = try await Self.fetchChapters(url)
                chapters = fetched
                // A cache that cannot be written costs a fetch next time, nothing more.
                do { try await store.storeChapters(episodeID: episodeID, url: address, chapters: fetched) } catch {
                    Log.warning("chapters", "could not cache the chapters of \"\(title)\": \(String(reflecting: error))")
                }
            } catch {
                Log.info("chapters", "no chapters for \"\(title)\" from \(address): \(error)")
            }
        }
        guard !Task.isCancelled, current?.id == episodeID, let chapters else { return }
        chapterSources.json = chapters
        chaptersChanged()
    }

    /// Fetches and validates a chapters file, off the actor.
    private nonisolated static func fetchChapters(_ url: URL) async throws -> [Chapter] {
        let response = try await chapterFetcher.fetch(url)
        return try PodcastChaptersJSON(data: response.data).chapters
    }
}
