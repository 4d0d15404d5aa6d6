import EarshotCore
import Foundation

extension DownloadManager {
    /// Feeds were refreshed, subscribed or marked: titles and addresses may have changed, new
    /// episodes may be due for auto-download, played ones for cleanup.
    public func libraryChanged() async {
        if let fresh = try? await store.downloads() {
            for stored in fresh {
                guard var item = items[stored.episodeID], item.info != stored.info,
                      transition(&item, .described(stored.info)) else { continue }
                items[item.episodeID] = item
                if item.state == .done {
                    localFiles.set(episode: item.episodeID, path: finalPath(item), urls: [item.url, item.info.mediaURL])
                }
            }
        }
        await applyPolicies()
        changed()
    }

    func applyPolicies() async {
        for (podcast, count) in settings.autoDownload.sorted(by: { $0.key < $1.key }) {
            await autoDownload(podcast: podcast, count: count)
        }
        await cleanUp()
    }

    /// Queues the newest `count` episodes of a podcast that are neither played nor downloaded
    /// before (`DownloadPolicy.autoDownload`).
    func autoDownload(podcast: Int64, count: Int) async {
        guard let candidates = try? await store.autoDownloadCandidates(podcastID: podcast, limit: count) else { return }
        for id in DownloadPolicy.autoDownload(newest: candidates, count: count) where items[id] == nil {
            do throws(CommandError) { try await request(id, automatic: true) } catch {
                Log.warning("downloads", "auto-download of episode \(id) not queued: \(error.message)")
            }
        }
    }

    /// Deletes the downloads of episodes played at least `deletePlayedAfterDays` days ago.
    func cleanUp() async {
        guard let days = settings.deletePlayedAfterDays, let played = try? await store.playedDownloads() else { return }
        for id in DownloadPolicy.expired(played, days: days, now: Date()) where items[id]?.state == .done {
            delete(id)
        }
    }
}
