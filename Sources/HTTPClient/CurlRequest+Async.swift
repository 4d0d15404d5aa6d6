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
        let handoff = Handoff(self)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Ending, Never>) in
                let thread = Thread {
                    continuation.resume(returning: handoff.perform())
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

/// Hands the request to its thread: the caller waits and does not touch it meanwhile. The thread lets go
/// of the request before it resumes the caller: a thread's closure is freed some time after it returns,
/// and a request held that long keeps whatever its callbacks hold (a feed fetch and its body) alive
/// after `run()` returned (FeedFetcherTests.nothingOutlivesAFetch saw it about 1 run in 3).
private final class Handoff: @unchecked Sendable {
    private var request: CurlRequest?
    init(_ request: CurlRequest) { self.request = request }

    func perform() -> CurlRequest.Ending {
        guard let request else { return .aborted }
        self.request = nil
        return request.perform()
    }
}
