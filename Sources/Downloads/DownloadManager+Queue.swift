import EarshotCore
import Foundation

extension DownloadManager {
    /// Starts queued downloads (oldest first) while slots are free, and sets a timer for the
    /// earliest retry still waiting.
    func pump() {
        guard started else { return }
        let now = Date()
        let ready = items.values
            .filter { $0.isReady(at: now) && active[$0.episodeID] == nil && stopping[$0.episodeID] == nil }
            .sorted { ($0.queuedAt, $0.episodeID) < ($1.queuedAt, $1.episodeID) }
        for item in ready.prefix(max(0, settings.concurrency - active.count)) {
            begin(item.episodeID)
        }
        scheduleRetry(now: now)
    }

    private func scheduleRetry(now: Date) {
        retryTask?.cancel()
        retryTask = nil
        let waiting = items.values.filter { $0.state == .queued }.compactMap(\.retryAt).filter { $0 > now }
        guard let next = waiting.min() else { return }
        retryTask = Task { [weak self] in
            try? await Task.sleep(for: .seconds(next.timeIntervalSince(now) + 0.01))
            guard !Task.isCancelled else { return }
            await self?.pump()
        }
    }

    /// Starts one queued download: checks the disk first (a full disk fails it, keeping the partial file).
    private func begin(_ id: Int64) {
        guard var item = items[id] else { return }
        let part = partPath(item)
        let folder = URL(fileURLWithPath: part).deletingLastPathComponent()
        let onDisk = PartFile.size(atPath: part) ?? 0
        guard transition(&item, .start(bytes: onDisk)) else { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            Log.error("downloads", "could not make \(folder.path): \(error)")
            transition(&item, .fail(.disk("could not make the downloads folder"), bytes: onDisk))
            commit(item)
            return
        }
        let remaining = (item.expectedBytes ?? 0) - onDisk
        if let free = PartFile.freeSpace(folder.path),
           let full = DownloadChecks.diskSpace(free: free, remaining: remaining, reserve: configuration.reserveBytes) {
            transition(&item, .fail(full, bytes: onDisk))
            commit(item)
            return
        }
        let token = token()
        let sink = eventSink
        var job = Transfer.Job(url: item.url, partPath: part, etag: item.etag, lastModified: item.lastModified,
                               enclosureLength: item.enclosureLength)
        job.userAgent = configuration.userAgent
        job.connectTimeout = configuration.connectTimeout
        job.stallTimeout = configuration.stallTimeout
        let transfer = Transfer(job) { event in sink.yield((episode: id, token: token, event: event)) }
        active[id] = Running(token: token, transfer: transfer)
        commit(item)
        transfer.start(name: "download-\(id)")
    }

    /// Applies `event` to `item`; a refused one (a late report, a command that does not fit the
    /// state) changes nothing and is logged. True when it was applied.
    @discardableResult
    func transition(_ item: inout DownloadItem, _ event: DownloadEvent, now: Date = Date()) -> Bool {
        do {
            try item.apply(event, now: now, retry: configuration.retry)
            return true
        } catch {
            Log.warning("downloads", "episode \(item.episodeID): \(event.name) refused: \(error.message)")
            return false
        }
    }

    /// Keeps `item` (in memory at once, in the library soon after, in order) and tells clients.
    func commit(_ item: DownloadItem) {
        items[item.episodeID] = item
        batch.absorb(items.values)
        persist(.save(item))
        changed()
    }

    /// Applies one report of a transfer. Reports of a transfer that is no longer the episode's
    /// current one (cancelled, deleted) only release it.
    func receive(_ event: Transfer.Event, episode id: Int64, token: UInt64) {
        let isFinal: Bool
        switch event {
        case .verified, .failed, .stopped: isFinal = true
        case .accepted, .progress: isFinal = false
        }
        if stopping[id]?.token == token, isFinal {
            stopping[id] = nil
            // A cancelled transfer's last count is where `download` continues from.
            if case .stopped(let bytes) = event, var item = items[id], item.state == .paused,
               transition(&item, .stopped(bytes: bytes)) {
                commit(item)
            }
            pump()
            return
        }
        guard active[id]?.token == token, var item = items[id] else {
            if case .accepted(_, _, _, _, let stored) = event { stored.fire() } // nobody keeps it: go on
            return
        }
        let now = Date()
        switch event {
        case .accepted(let bytes, let total, let etag, let lastModified, let stored):
            guard transition(&item, .accepted(bytes: bytes, total: total, etag: etag, lastModified: lastModified), now: now) else {
                stored.fire()
                return
            }
            items[id] = item
            persist(.save(item)) // the validators: a crash from here on resumes
            persist(.afterward { stored.fire() }) // the transfer writes its first byte once they are in the library
            changed()
        case .progress(let bytes):
            guard transition(&item, .progress(bytes: bytes), now: now) else { return }
            items[id] = item
            if now.timeIntervalSince(lastProgressSave[id] ?? .distantPast) >= 2 {
                lastProgressSave[id] = now
                persist(.progress(episode: id, bytes: bytes))
            }
            changed()
        case .verified(let bytes):
            active[id] = nil
            do {
                try PartFile.moveIntoPlace(partPath(item), finalPath(item))
                transition(&item, .finish(bytes: bytes), now: now)
                localFiles.set(episode: id, path: finalPath(item), urls: [item.url, item.info.mediaURL])
                measureLater(id)
            } catch {
                transition(&item, .fail(.disk(error.description), bytes: bytes), now: now)
            }
            commit(item)
            pump()
        case .failed(let failure, let bytes):
            active[id] = nil
            transition(&item, .fail(failure, bytes: bytes), now: now)
            commit(item)
            pump()
        case .stopped(let bytes):
            active[id] = nil
            transition(&item, .stopped(bytes: bytes), now: now)
            commit(item)
            pump()
        }
    }

    /// Stops the running transfer of `id`, if any; it ends in the background (see `stopping`).
    func stopTransfer(_ id: Int64) {
        guard let running = active.removeValue(forKey: id) else { return }
        running.transfer.cancel()
        stopping[id] = running
    }
}
