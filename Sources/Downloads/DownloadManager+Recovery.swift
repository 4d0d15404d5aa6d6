import EarshotCore
import Foundation

extension DownloadManager {
    /// Picks up where the last run stopped (a quit, a crash, a `kill -9`):
    /// - a download that was running is queued again and resumes from its partial file, whose
    ///   size on disk (not the last count stored) is where it continues;
    /// - a finished download whose file is gone is forgotten; one whose partial file was already
    ///   renamed into place (the process died before the library heard) is done;
    /// - a `.part` file no download claims (deleted, or left by a crash before the row was written)
    ///   is deleted.
    func recover() async {
        let stored: [DownloadItem]
        do { stored = try await store.downloads() } catch {
            // Nothing is deleted on this path: without the rows, no `.part` file counts as an orphan.
            Log.error("downloads", "could not read the downloads from the library; none resume this run: \(String(reflecting: error))")
            return
        }
        let now = Date()
        let measured = (try? await store.downloadLoudness()) ?? [:]
        var claimed: Set<String> = []
        for var item in stored {
            let id = item.episodeID
            let final = finalPath(item)
            if item.state == .done {
                guard let size = PartFile.size(atPath: final) else {
                    persist(.remove(episode: id))
                    continue
                }
                transition(&item, .recovered(bytes: size), now: now)
                items[id] = item
                localFiles.set(episode: id, path: final, urls: [item.url, item.info.mediaURL])
                // Measured in an earlier run, or now (downloads from before leveling existed too).
                if let loudness = measured[id] { localFiles.setLoudness(episode: id, loudness) } else { measureLater(id) }
                continue
            }
            claimed.insert(item.file + ".part")
            let partSize = PartFile.size(atPath: partPath(item))
            if partSize == nil, let size = PartFile.size(atPath: final), let expected = item.expectedBytes, size == expected {
                transition(&item, .recovered(bytes: size), now: now)
                localFiles.set(episode: id, path: final, urls: [item.url, item.info.mediaURL])
                measureLater(id)
            } else {
                transition(&item, .interrupted(partBytes: partSize), now: now)
            }
            items[id] = item
            persist(.save(item))
        }
        removeOrphans(keeping: claimed)
        batch.absorb(items.values)
    }

    /// Deletes the partial files in the downloads folder that no download claims.
    private func removeOrphans(keeping claimed: Set<String>) {
        let manager = FileManager.default
        let root = configuration.folder
        guard let folders = try? manager.contentsOfDirectory(atPath: root.path) else { return }
        for folder in folders {
            let names = (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            for name in names where name.hasSuffix(".part") && !claimed.contains("\(folder)/\(name)") {
                PartFile.remove(root.appendingPathComponent(folder).appendingPathComponent(name).path)
            }
        }
    }
}
