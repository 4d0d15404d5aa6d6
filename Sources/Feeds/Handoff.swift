import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A signal one thread gives once and another waits for. The waiter spins, yielding its core, for up to
/// `spinning` — what it waits for comes within a few tens of microseconds, sooner than a sleeping
/// thread is woken (40–70 µs here) — and then sleeps until it is given.
final class Handoff: Sendable {
    /// 0: not given, nobody asleep; 1: given; 2: the waiter sleeps on `semaphore`.
    private let state = Atomic<Int>(0)
    private let semaphore = DispatchSemaphore(value: 0)
    static let spinning: UInt64 = 1_000_000  // nanoseconds

    /// Gives the signal (again: nothing).
    func give() {
        if state.exchange(1, ordering: .acquiringAndReleasing) == 2 { semaphore.signal() }
    }

    var isGiven: Bool { state.load(ordering: .acquiring) == 1 }

    /// Returns once the signal is given (at once when it was). One thread waits, any number of times.
    func wait() {
        guard !isGiven else { return }
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.spinning
        var turns = 0
        while DispatchTime.now().uptimeNanoseconds < deadline || turns < 16 {
            for _ in 0..<16 {
                if isGiven { return }
                sched_yield()
            }
            turns += 1
        }
        if state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged {
            semaphore.wait()
        }
    }
}
