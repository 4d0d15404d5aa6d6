import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// A feed file read a chunk at a time into one reused buffer, so parsing a 30 MB file holds 1 MiB of
/// it, not 30 (the parser keeps nothing of the document's bytes once their events are handled).
///
/// Leading whitespace is skipped (libxml2 refuses a declaration that does not start the document) and
/// its lines counted, so warnings can give lines of the file; the first bytes after it are kept
/// (`head`) for what is decided on the document's start after the parse.
final class FeedFile {
    /// How many bytes of the document's start `head` keeps: enough for an XML declaration and for
    /// telling an HTML page from a feed.
    static let headSize = 1024

    let size: Int
    private(set) var head: [UInt8] = []
    private(set) var skippedLines = 0
    let descriptor: Int32
    /// The chunk buffer, allocated at the first `next` (a file read whole never needs its megabyte).
    private var buffer: UnsafeMutableRawBufferPointer?
    private var started = false

    /// The file could not be opened.
    struct OpenError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot open \(path): \(reason)" }
    }

    /// Opens `url` (a file URL).
    init(_ url: URL) throws {
        descriptor = url.withUnsafeFileSystemRepresentation { path in path.map { open($0, O_RDONLY | O_CLOEXEC) } ?? -1 }
        guard descriptor >= 0 else { throw OpenError(path: url.path, reason: String(cString: strerror(errno))) }
        var status = stat()
        size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    deinit {
        close(descriptor)
        buffer?.deallocate()
    }

    /// The whole document (leading whitespace skipped, as `next` skips it) read straight into a buffer
    /// of the caller's, which it deallocates, for `XMLFastScan`; nil when the file is empty, could not be
    /// read whole or grew meanwhile (the caller then reads it again with `next`, from a new `FeedFile`).
    /// With `split`, a file of two chunks and more is read on its other thread too (`SharedRead`).
    func readWhole(sharingWith split: SplitRead? = nil) -> (buffer: UnsafeMutableRawBufferPointer, document: UnsafeMutableRawBufferPointer)? {
        guard !started, size > 0 else {
            split?.shareRead(nil)
            return nil
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size + 1, alignment: 16)
        let shared = split != nil && size >= 2 * SharedRead.chunkBytes ? SharedRead(descriptor, size: size, into: buffer) : nil
        split?.shareRead(shared)
        let filled = if let shared { shared.readAll() && endsAtSize() ? size : -1 } else { readAlone(into: buffer) }
        guard filled == size else {  // a read error, or the file changed size: not this way
            buffer.deallocate()
            return nil
        }
        let whole = UnsafeRawBufferPointer(rebasing: buffer[..<filled])
        let start = whole.firstIndex { !isASCIIWhitespace($0) } ?? filled
        skippedLines = whole[..<start].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        started = true  // `head` stays empty: a document read whole is read again with `next` if libxml2 is to read it
        guard start < filled else {
            buffer.deallocate()
            return nil
        }
        return (buffer, UnsafeMutableRawBufferPointer(rebasing: buffer[start..<filled]))
    }

    /// Reads the file into `buffer` (which holds a byte more than `size`) on this thread; how many bytes
    /// it held.
    private func readAlone(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var filled = 0
        while filled <= size {
            let wanted = size + 1 - filled
            let count = read(descriptor, buffer.baseAddress! + filled, wanted)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
            // A regular file reads short only at its end: no second call to be told so.
            if count < wanted { break }
        }
        return filled
    }

    /// The next chunk (valid until the next call), or nil at the end of the file or on a read error
    /// (the parser then sees a truncated document, which it reports).
    func next() -> UnsafeRawBufferPointer? {
        let buffer = self.buffer ?? .allocate(byteCount: XMLEventStream.chunkSize, alignment: 16)
        self.buffer = buffer
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            var chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            if !started {
                let start = chunk.firstIndex { !isASCIIWhitespace($0) } ?? chunk.count
                skippedLines += chunk[..<start].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                chunk = UnsafeRawBufferPointer(rebasing: chunk[start...])
                guard !chunk.isEmpty else { continue }  // whitespace only so far
                started = true
                head = Array(chunk.prefix(Self.headSize))
            }
            return chunk
        }
    }
}
