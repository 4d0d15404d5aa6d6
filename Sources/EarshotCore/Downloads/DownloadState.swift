import FoundationEssentials

/// Where one episode's download stands (docs/protocol.md: Download).
public enum DownloadState: String, Sendable, Codable, CaseIterable {
    /// Waiting for a free slot (or, with `retryAt`, for the next attempt after a failure).
    case queued
    /// Bytes are arriving.
    case downloading
    /// Stopped by the listener (`download.cancel`): the partial file is kept for later.
    case paused
    /// The file is in the downloads folder, whole.
    case done
    /// Given up: `error` says why; the partial file (if any) is kept for a retry.
    case failed

    /// Queued or downloading: the manager still works on it.
    public var isRunning: Bool { self == .queued || self == .downloading }
}
