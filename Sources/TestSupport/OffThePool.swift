import Foundation

/// Carries a non-Sendable value across one hand-off whose sides never touch it at the same time.
struct Handoff<T>: @unchecked Sendable { let value: T }

/// Runs blocking work (socket reads) on a GCD thread, not on Swift's cooperative pool: a test
/// that blocked a pool thread would starve the very server tasks it waits for (2 cores = 2 threads).
public func offThePool<T>(_ body: @escaping () throws -> T) async throws -> T {
    let work = Handoff(value: body)
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Handoff<T>, Error>) in
        DispatchQueue.global().async {
            do { continuation.resume(returning: Handoff(value: try work.value())) } catch { continuation.resume(throwing: error) }
        }
    }.value
}
