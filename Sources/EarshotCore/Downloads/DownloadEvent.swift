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
