import FoundationEssentials

/// The `download` / `download.*` commands (docs/protocol.md), decoded.
public enum DownloadCommand: Sendable, Equatable {
    /// Queue the episode's download (resumes a paused one, retries a failed one).
    case download(episode: Int64)
    /// Stop it and keep the partial file (state `paused`); `download` continues from there.
    case cancel(episode: Int64)
    /// Try a failed (or paused) download again now.
    case retry(episode: Int64)
    /// Stop it if running and delete its file or partial file.
    case delete(episode: Int64)
    case settings(DownloadSettings.Change)
    /// Auto-download a podcast's newest `newest` episodes (nil: off).
    case auto(podcast: Int64, newest: Int?)
}
