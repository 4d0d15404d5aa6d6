import Foundation

/// Runs this suite's CPU-heavy work (megabytes of feeds, hostile documents) one job at a time on a thread
/// of its own, at the lowest scheduling priority: off Swift's cooperative pool, whose two threads other
/// suites' servers need, and behind everything else for the CPU, so those servers answer in time while
/// these tests run (2 cores).
enum HeavyWork {
    private struct Box<T>: @unchecked Sendable { let value: T }

    private final class Worker: @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs: [() -> Void] = []  // guarded by `condition`

        init() {
            let thread = Thread { [self] in
                // Linux keeps a nice value per thread: this one yields to every other thread.
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
                while true { nextJob()() }
            }
            thread.name = "feeds-tests-heavy"
            thread.start()
        }

        func add(_ job: @escaping () -> Void) {
            condition.withLock {
                jobs.append(job)
                condition.signal()
            }
        }

        private func nextJob() -> () -> Void {
            condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
        }
    }

    private static let worker = Worker()

    static func run<T>(_ body: @escaping () throws -> T) async throws -> T {
        let work = Box(value: body)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Box<T>, Error>) in
            worker.add {
                do { continuation.resume(returning: Box(value: try work.value())) } catch { continuation.resume(throwing: error) }
            }
        }.value
    }
}
