#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// How the process's allocator (glibc's malloc) is set up, and when it gives memory back. Decided by
/// each binary's main, first thing, before threads allocate: `earshot` and `earshot-parse` set it up
/// alike, so the parser measured by `make bench` is the one the server runs.
///
/// Gives the heap's free pages back to the system after work that allocated a lot at once (a feed
/// of 60,000 episodes parsed and stored): glibc keeps freed memory for reuse, so a server that
/// subscribed one big feed would otherwise hold on to its peak for good (107 MB of Private_Dirty
/// after a 60,000-item subscription; `make bench`, bench/memory.py).
public enum MemoryTrim {
    // <malloc.h>'s mallopt parameters (Swift's Glibc module leaves that header out).
    private static let trimThresholdParameter: Int32 = -1  // M_TRIM_THRESHOLD
    private static let mmapThresholdParameter: Int32 = -3  // M_MMAP_THRESHOLD
    private static let arenaMaxParameter: Int32 = -8  // M_ARENA_MAX

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
    /// It gives back everything free, whatever `configure` set: that only stops `free` from
    /// trimming on its own.
    public static func giveBack() { _ = mallocTrim?(0) }

    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    private static let serverArenas = 1

    /// For a command that runs once and exits (`earshot parse`): a second arena, so the parse's second
    /// thread and the JSON encoder do not wait on the parsing thread's arena lock. Memory held after the
    /// work does not matter there, and `earshot parse --json` of the 60,000-item feed took 0.81 s with two
    /// arenas, 0.90 s with one (median of 8, measured when that thread sanitized notes, before `FeedTape`
    /// ran all the rules there; `make bench`'s budget for it is 1 s). Called before the work starts
    /// its threads; `earshot-parse` keeps the server's one arena, since it measures the server's parse.
    public static func configureForOneShotCommand() {
        _ = mallopt?(arenaMaxParameter, Int32(serverArenas + 1))
    }

    /// Sets the allocator up: each binary's main calls it first thing, before threads allocate.
    ///
    /// One malloc arena (glibc's `M_ARENA_MAX`; its default is 8 per core). Each thread that allocates
    /// gets an arena of its own while there are fewer than that, and an arena keeps what its threads
    /// freed, scattered between what they still hold: the server's dozen threads (the pool, the socket
    /// service, mpv's, each fetch and download) held 90 MB of Private_Dirty under the soak's 50 clients
    /// with the default, 40 MB with two arenas and 31 MB with one; with two, what a refresh of a big
    /// feed left behind in the second arena grew it by 8 MB over the hour's soak (a 900-item feed:
    /// 37–46 MB with two, 34 MB with one). The p99 latency is alike: small blocks come from each
    /// thread's own cache (glibc's tcache) without the arena's lock (`make bench`, bench/soak.py).
    ///
    /// Buffers of up to 4 MiB come from the heap, and up to 8 MiB free at its top stay there until
    /// `giveBack` (bounded: between refreshes the server's other work frees memory too). A feed parse
    /// holds a few megabytes at once (the file's 1 MiB chunk, libxml2's input buffer of twice that,
    /// the notes being sanitized) and frees them at its end; glibc's defaults mapped them afresh or
    /// trimmed the heap after every parse, so each parse faulted its ~4 MB in again: about 900 page
    /// faults a feed, 2 ms of the 5 ms libxml2 took to read giantbomb's 1.6 MB (`perf stat -e
    /// page-faults earshot-parse FILE --repeat 41`: 36,603 faults before, 1,495 after). A refresh of
    /// hundreds of subscriptions is that many parses in a row; the refresh gives the memory back when
    /// it ends (`giveBack`), so idle memory is unchanged.
    public static func configure() {
        _ = mallopt?(arenaMaxParameter, Int32(serverArenas))
        _ = mallopt?(mmapThresholdParameter, 4 << 20)
        _ = mallopt?(trimThresholdParameter, 8 << 20)
    }
}
