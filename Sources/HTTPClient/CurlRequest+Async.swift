import Foundation

extension CurlRequest {
    /// Performs the request on a thread of its own (libcurl's easy interface blocks) and returns
    /// how it ended; cancelling the calling task stops the transfer within about a second
    /// (libcurl's progress callback polls `shouldStop`). `shouldStop` is replaced.
    ///
    /// The request must not be touched by anyone else until this returns.
    package func run() async -> Ending {
        let cancelled = CancelFlag()
        shouldStop = { cancelled.isSet }
        let box = UncheckedBox(self)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Ending, Never>) in
                let thread = Thread {
                    continuation.resume(returning: box.value.perform())
                }
                thread.name = "earshot.http"
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
    }
}

/// A flag one thread sets and another polls.
private final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Hands the request to its thread: the caller waits and does not touch it meanwhile.
private struct UncheckedBox: @unchecked Sendable {
    let value: CurlRequest
    init(_ value: CurlRequest) { self.value = value }
}
