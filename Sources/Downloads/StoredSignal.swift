import Foundation

/// Fired once a write is in the library; a transfer's thread waits on it (bounded).
final class StoredSignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func fire() { semaphore.signal() }

    /// Waits until fired, or `seconds` pass.
    func wait(seconds: Double) { _ = semaphore.wait(timeout: .now() + seconds) }
}
