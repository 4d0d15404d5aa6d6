import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A file read whole by two threads at once: the calling thread takes chunks from the front, the other
/// thread of a split read (`SplitRead`), once it runs, from the back, each with `pread` into its place
/// in the one buffer.
///
/// Copying a feed out of the page cache is the one part of a split read nothing else can overlap: every
/// later step reads the document. On this machine it took 80 µs of freakshow's 960 (1.25 MB), while the
/// other thread, started before the read (`SplitRead.init`), waited for it from about the 35th
/// microsecond on.
final class SharedRead: @unchecked Sendable {
    /// Bytes a chunk: a dozen system calls for a megabyte, and the other thread's last chunk is short
    /// to wait for.
    static let chunkBytes = 128 << 10

    private let descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private let size: Int
    private let chunks: Int
    /// The chunks not yet taken, from the front and from the back.
    private let claims: Mutex<TwoEndedClaims>
    /// Chunks read or failed: the calling thread waits for all of them before it uses the buffer.
    private let finished = Atomic<Int>(0)
    private let failed = Atomic<Bool>(false)

    /// Reads the first `size` bytes of `descriptor`'s file into `buffer` (which holds them).
    init(_ descriptor: Int32, size: Int, into buffer: UnsafeMutableRawBufferPointer) {
        self.descriptor = descriptor
        self.buffer = buffer
        self.size = size
        chunks = (size + Self.chunkBytes - 1) / Self.chunkBytes
        claims = Mutex(TwoEndedClaims(front: 0, back: chunks - 1))
    }

    /// Reads chunks from the back while any is left (the other thread); how many it read.
    @discardableResult
    func help() -> Int {
        var count = 0
        while let chunk = claims.withLock({ $0.takeBack() }) {
            read(chunk)
            count += 1
        }
        return count
    }

    /// Reads chunks from the front while any is left, then waits for the ones the other thread is
    /// reading (a chunk's read at most); true when every chunk was read whole.
    func readAll() -> Bool {
        while let chunk = claims.withLock({ $0.takeFront() }) { read(chunk) }
        while finished.load(ordering: .acquiring) < chunks { sched_yield() }
        return !failed.load(ordering: .relaxed)
    }

    private func read(_ chunk: Int) {
        let end = min(size, (chunk + 1) * Self.chunkBytes)
        var at = chunk * Self.chunkBytes
        while at < end {
            let count = pread(descriptor, buffer.baseAddress! + at, end - at, off_t(at))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {  // a read error, or the file is shorter than it was
                failed.store(true, ordering: .relaxed)
                break
            }
            at += count
        }
        finished.add(1, ordering: .releasing)  // after the bytes and `failed`: the waiter sees both
    }
}

extension FeedFile {
    /// Whether the file ends where `size` says (it did not grow since it was opened): one byte asked for
    /// there, none read.
    func endsAtSize() -> Bool {
        var byte: UInt8 = 0
        while true {
            let count = pread(descriptor, &byte, 1, off_t(size))
            if count < 0, errno == EINTR { continue }
            return count == 0
        }
    }
}
