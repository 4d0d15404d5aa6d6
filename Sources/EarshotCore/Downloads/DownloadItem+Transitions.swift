import FoundationEssentials

extension DownloadItem {
    /// Applies `event` at `now`. Transitions:
    /// - request: paused/failed → queued (attempts reset); a queued retry starts waiting no longer;
    ///   queued/downloading stay; done is refused.
    /// - start: queued → downloading. accepted/progress: only while downloading.
    /// - finish: downloading → done.
    /// - fail: downloading → queued with `retryAt` while `retry` allows, else failed.
    /// - stopped: the bytes on disk, in any state but done; the state stays.
    /// - cancel: queued/downloading → paused; paused stays; done/failed are refused.
    /// - interrupted: downloading → queued, the bytes on disk in any state but done (done is refused).
    /// - recovered: any → done (a done one keeps its finishing time). described: any state.
    /// Events from a transfer that is no longer current (a late report after a cancel) are refused
    /// too, so they change nothing.
    public mutating func apply(_ event: DownloadEvent, now: Date, retry: DownloadRetry = .standard) throws(DownloadRefusal) {
        switch (event, state) {
        case (.request, .done):
            throw DownloadRefusal("already downloaded")
        case (.request, .downloading):
            return
        case (.request, _):
            // Asked for by hand (or again): a fresh series of attempts, starting now.
            state = .queued
            attempts = 0
            retryAt = nil
            error = nil
        case (.start(let bytes), .queued):
            state = .downloading
            self.bytes = bytes
            retryAt = nil
        case (.accepted(let bytes, let total, let etag, let lastModified), .downloading):
            self.bytes = bytes
            self.total = total
            self.etag = etag
            self.lastModified = lastModified
        case (.progress(let bytes), .downloading):
            self.bytes = bytes
        case (.finish(let bytes), .downloading):
            state = .done
            self.bytes = bytes
            total = bytes
            error = nil
            attempts = 0
            finishedAt = now
        case (.fail(let failure, let bytes), .downloading):
            self.bytes = bytes
            if bytes == 0 { etag = nil; lastModified = nil } // nothing left to resume
            attempts += 1
            error = failure.message
            if let delay = retry.delay(afterFailures: attempts, failure) {
                state = .queued
                retryAt = now.addingTimeInterval(delay)
            } else {
                state = .failed
                retryAt = nil
            }
        case (.cancel, .queued), (.cancel, .downloading):
            state = .paused
            retryAt = nil
        case (.cancel, .paused):
            return
        case (.stopped(let bytes), let current) where current != .done:
            self.bytes = bytes
        case (.interrupted(let partBytes), let current) where current != .done:
            bytes = partBytes ?? 0
            if partBytes == nil { etag = nil; lastModified = nil }
            if current == .downloading { state = .queued }
        case (.recovered(let bytes), .done):
            self.bytes = bytes
            total = bytes
        case (.recovered(let bytes), _):
            state = .done
            self.bytes = bytes
            total = bytes
            error = nil
            retryAt = nil
            attempts = 0
            finishedAt = now
        case (.described(let info), _):
            self.info = info
        case (.cancel, .done):
            throw DownloadRefusal("already downloaded: delete it instead")
        case (.cancel, .failed):
            throw DownloadRefusal("not downloading")
        default:
            throw DownloadRefusal("cannot \(event.name) a download that is \(state.rawValue)")
        }
    }

    /// Enclosure lengths below this are placeholders ("0", "1", "12345" are common in feeds): ignored.
    public static let minimumEnclosureLength: Int64 = 10_000

    /// A new download of an episode, queued.
    public static func queued(episodeID: Int64, url: String, enclosureLength: Int64, file: String,
                              automatic: Bool = false, now: Date, info: Info = Info()) -> DownloadItem {
        DownloadItem(episodeID: episodeID, url: url, total: nil,
                     enclosureLength: enclosureLength >= minimumEnclosureLength ? enclosureLength : 0, file: file,
                     automatic: automatic, queuedAt: now, info: info)
    }

    /// Whether a queued download may start at `now` (a retry waits for its time).
    public func isReady(at now: Date) -> Bool {
        state == .queued && (retryAt.map { $0 <= now } ?? true)
    }
}
