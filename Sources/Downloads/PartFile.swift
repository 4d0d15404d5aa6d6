import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls a download needs: a partial file written in place, flushed to the disk, renamed
/// atomically into its final name, and the folder flushed so the rename itself survives a power cut.
enum PartFile {
    /// A failed system call, with errno's text.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String {
            code == ENOSPC ? "the disk is full" : "\(call): \(String(cString: strerror(code)))"
        }
    }

    /// Opens (creating) `path` for reading and writing.
    static func open(_ path: String) throws(Failure) -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(call: "open", code: errno) }
        return fd
    }

    static func size(_ fd: Int32) -> Int64 {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// The size of the file at `path`, or nil when there is none.
    static func size(atPath path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// Cuts the file to `length` bytes and puts the write position there.
    static func truncate(_ fd: Int32, to length: Int64) throws(Failure) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw Failure(call: "ftruncate", code: errno) }
        guard lseek(fd, off_t(length), SEEK_SET) >= 0 else { throw Failure(call: "lseek", code: errno) }
    }

    /// Writes all of `bytes` at the current position.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(call: "write", code: errno)
            }
            offset += written
        }
    }

    /// Asks the kernel to start writing bytes `from..<to` to the disk, without waiting for it
    /// (Linux's sync_file_range; elsewhere nothing: the final `sync` does it all).
    static func startWriteback(_ fd: Int32, from: Int64, to: Int64) {
        _ = syncFileRange?(fd, from, to - from, 2) // 2: SYNC_FILE_RANGE_WRITE
    }

    /// Reserves disk blocks for bytes `from..<to` without changing the file's size (its length is what a
    /// resumed download trusts), so the disk is not chosen piecemeal while the bytes are written back.
    /// Best effort: a file system without it is left alone. Returns false only when the disk has
    /// no room for them (ENOSPC): the download cannot finish, and need not start writing.
    @discardableResult
    static func reserve(_ fd: Int32, from: Int64, to: Int64) -> Bool {
        guard to > from, let fallocate64 else { return true }
        return fallocate64(fd, 1, from, to - from) == 0 || errno != ENOSPC // 1: FALLOC_FL_KEEP_SIZE
    }

    /// Gives back blocks reserved past the end of the file (a failed or stopped transfer's
    /// reservation; ext4 keeps them otherwise): truncates the file to its own size.
    static func releaseReservation(_ fd: Int32) {
        _ = ftruncate(fd, off_t(size(fd)))
    }

    private static let fallocate64: (@convention(c) (Int32, Int32, Int64, Int64) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate64") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, Int64, Int64) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// glibc's sync_file_range, looked up at run time: Swift's Glibc module leaves out the
    /// _GNU_SOURCE declarations that name it.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Waits until the file's bytes are on the disk.
    static func sync(_ fd: Int32) throws(Failure) {
        guard fsync(fd) == 0 else { throw Failure(call: "fsync", code: errno) }
    }

    /// Up to `count` bytes from the start of the file.
    static func head(_ fd: Int32, count: Int = 1024) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        return Array(buffer.prefix(max(0, read)))
    }

    /// Renames `from` to `to` (replacing it) and flushes their folder, so the new name is durable.
    static func moveIntoPlace(_ from: String, _ to: String) throws(Failure) {
        guard rename(from, to) == 0 else { throw Failure(call: "rename", code: errno) }
        try syncDirectory(URL(fileURLWithPath: to).deletingLastPathComponent().path)
    }

    static func syncDirectory(_ path: String) throws(Failure) {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(call: "open folder", code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Failure(call: "fsync folder", code: errno) }
    }

    /// Bytes an unprivileged process may still write on the file system holding `path`.
    static func freeSpace(_ path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Deletes the file at `path`; a file already gone is not an error.
    @discardableResult
    static func remove(_ path: String) -> Bool {
        unlink(path) == 0 || errno == ENOENT
    }
}
