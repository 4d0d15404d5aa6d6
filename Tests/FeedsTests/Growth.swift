import Foundation

/// How the time a piece of work takes grows with its input, for tests that hold a parser to linear
/// work without a time budget (speed is `make bench`'s to measure; a bound in seconds fails on a busy
/// machine and passes a quadratic pass on a fast one).
///
/// The work runs at `scale` 1 and at `scale` `factor`, in turns, `runs` times each, as `HeavyWork`, and
/// the least CPU time of each is compared: linear work gives about `factor` (less when a fixed cost
/// weighs on the small one), quadratic work `factor²`. CPU time, the thread's own: wall time counts the
/// time the thread waits for a core, and a longer run waits more (other suites run beside these, and
/// `HeavyWork` yields to all of them).
enum Growth {
    /// The least CPU time at `factor` over the least at 1.
    static func ratio(factor: Int = 8, runs: Int = 3, _ work: @escaping @Sendable (_ scale: Int) -> Void) async throws -> Double {
        try await HeavyWork.run {
            var small = Double.infinity, large = Double.infinity
            for _ in 0..<runs {
                small = min(small, cpuSeconds { work(1) })
                large = min(large, cpuSeconds { work(factor) })
            }
            return large / max(small, 1e-9)
        }
    }

    /// The CPU time this thread spent in `body`, in seconds.
    static func cpuSeconds(_ body: () -> Void) -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = now()
        body()
        return now() - start
    }

    /// The largest ratio a linear pass may show at `factor`: three times linear, far below quadratic.
    static func linearLimit(_ factor: Int = 8) -> Double { Double(3 * factor) }
}
