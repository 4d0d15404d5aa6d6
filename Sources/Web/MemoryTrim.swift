import Foundation

/// Gives the heap's free pages back to the system after work that allocated a lot at once (a feed
/// of 60,000 episodes parsed and stored): glibc keeps freed memory for reuse, so a server that
/// subscribed one big feed would otherwise hold on to its peak for good (107 MB of Private_Dirty
/// after a 60,000-item subscription; `make bench`, bench/memory.py).
enum MemoryTrim {
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
}
