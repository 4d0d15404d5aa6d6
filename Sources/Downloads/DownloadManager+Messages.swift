import EarshotCore
import Foundation

/// The `downloads` messages: who hears them, what they say, and how often (at most every
/// `publishInterval`: `PublishThrottle` decides, one scheduled message carries every change meanwhile).
extension DownloadManager {
    /// Registers a listener; it hears of the next change (ask `message()` for now).
    @discardableResult
    public func addListener(_ listener: @escaping Listener) -> UUID { listeners.add(listener) }

    public func removeListener(_ id: UUID) { listeners.remove(id) }

    /// Hands the current message to `send` on the manager's own turn, so that every message published
    /// after it is queued after it (`PlaybackEngine.sendSnapshot` says why).
    public func sendMessage(_ send: @Sendable (DownloadsMessage) -> Void) {
        send(message())
    }

    /// The current state as a value (tests, the API).
    public func message() -> DownloadsMessage {
        batch.absorb(items.values)
        return DownloadsMessage(items: Array(items.values), summary: DownloadSummary(items.values, batch: batch),
                                settings: settings)
    }

    /// The download of one episode, if any.
    public func item(_ episodeID: Int64) -> DownloadItem? { items[episodeID] }

    /// Something clients see changed: a message goes out now, or when the throttle allows.
    func changed() {
        guard publishTask == nil else { return } // one is already scheduled: it will carry this change
        let now = Date()
        let at = throttle.sendTime(forChangeAt: now)
        if at <= now {
            publishNow()
            return
        }
        publishTask = Task { [weak self] in
            try? await Task.sleep(for: .seconds(at.timeIntervalSince(now)))
            await self?.publishScheduled()
        }
    }

    func publishScheduled() {
        publishTask = nil
        publishNow()
    }

    func publishNow() {
        throttle.sent(at: Date())
        let message = message()
        listeners.send(message)
    }
}
