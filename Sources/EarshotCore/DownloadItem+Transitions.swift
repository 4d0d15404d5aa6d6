import FoundationEssentials

/// Something that happens to a download: asked for by a listener or a policy, or reported by its transfer.
public enum DownloadEvent: Sendable, Equatable {
    /// `download` / `download.retry` / the auto-download policy: queue it (again).
    case request
    /// A slot is free and the manager starts the transfer; the partial file holds `bytes` already.
    case start(bytes: Int64)
    /// The server accepted the request: the partial file now holds `bytes` (0 after a restart),
    /// `total` is the size the server announced, the validators are its.
    case accepted(bytes: Int64, total: Int64?, etag: String?, lastModified: String?)
    /// More bytes are on disk.
    case progress(bytes: Int64)
    /// The file is whole, checked and in place.
    case finish(bytes: Int64)
    /// The attempt failed; `bytes` stay on disk (0: nothing to resume, so the validators go too).
    case fail(DownloadFailure, bytes: Int64)
    /// A transfer that was stopped (a cancel, a delete, the manager shutting down) ended with `bytes` on disk.
    case stopped(bytes: Int64)
    /// `download.cancel`: stop, keep the partial file.
    case cancel
    /// At start, after the process stopped (quit, crash): the partial file holds `partBytes` (nil:
    /// there is none, so the validators go). A download that was running is queued to resume.
    case interrupted(partBytes: Int64?)
    /// At start, the whole file was found in place (renamed, then the process died before the
    /// library heard of it), or a finished file found where it should be: it is done, `bytes` long.
    case recovered(bytes: Int64)
    /// The episode's title, podcast or address changed in the library (display only; any state).
    case described(DownloadItem.Info)
}

/// A command that makes no sense for a download in its state.
public struct DownloadRefusal: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

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

extension DownloadEvent {
    public var name: String {
        switch self {
        case .request: "queue"
        case .start: "start"
        case .stopped: "stop"
        case .described: "describe"
        case .accepted, .progress: "update"
        case .finish: "finish"
        case .fail: "fail"
        case .cancel: "cancel"
        case .interrupted: "interrupt"
        case .recovered: "recover"
        }
    }
}
