import EarshotCore
import Foundation

/// Finished downloads are measured (EBU R128, `Configuration.measure`) one at a time, so leveling
/// can play them at a fixed gain. A file that cannot be measured is left as it is: it plays
/// through the live leveling filter instead.
extension DownloadManager {
    /// Queues episode `id`'s finished file for measuring.
    func measureLater(_ id: Int64) {
        guard configuration.measure != nil, !toMeasure.contains(id) else { return }
        toMeasure.append(id)
        guard measuring == nil else { return }
        measuring = Task { [weak self] in await self?.measureQueued() }
    }

    private func measureQueued() async {
        while !toMeasure.isEmpty, let measure = configuration.measure {
            let id = toMeasure.removeFirst()
            guard let item = items[id], item.state == .done else { continue }
            let path = finalPath(item)
            let loudness = await measure(path)
            // Deleted (or downloaded again) while it was measured: that file is not this one.
            guard let loudness, items[id]?.state == .done, finalPath(items[id]!) == path else { continue }
            localFiles.setLoudness(episode: id, loudness)
            persist(.loudness(episode: id, loudness))
        }
        measuring = nil
    }

    /// Waits until every finished download queued for measuring is measured and what was found is in
    /// the library (for tests: the library's writes are queued, `persist`, and a test that read it
    /// right after the measuring once found nothing there yet).
    public func measured() async {
        while let task = measuring { await task.value }
        await flush()
    }
}
