import Foundation

/// Gives the heap's free pages back to the system after work that allocated a lot at once (a feed
/// of 60,000 episodes parsed and stored): glibc keeps freed memory for reuse, so a server that
/// subscribed one big feed would otherwise hold on to its peak for good (107 MB of Private_Dirty
/// after a 60,000-item subscription; `make bench`, bench/memory.py).
public enum MemoryTrim {
    /// glibc's malloc_trim, looked up at run time (Swift's Glibc module leaves <malloc.h> out).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Returns free heap pages to the system (a few milliseconds; after big subscriptions and refreshes).
    static func giveBack() { _ = mallocTrim?(0) }

    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// At most `count` malloc arenas (glibc's `M_ARENA_MAX`; its default is 8 per core). Each thread that
    /// allocates gets an arena of its own while there are fewer than that, and an arena keeps what
    /// its threads freed: the server's dozen threads (the pool, the socket service, each fetch and
    /// download) held 90 MB of Private_Dirty under the soak's 50 clients, 40 MB with two arenas, at
    /// the same latency (`make bench`, bench/soak.py). Called first thing, before threads allocate.
    public static func limitArenas(to count: Int32) {
        let arenaMax: Int32 = -8  // M_ARENA_MAX in <malloc.h>, which Swift's Glibc module leaves out
        _ = mallopt?(arenaMax, count)
    }
}
