import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fetched body kept in a temporary file rather than in memory (`FeedFetcher.spoolingAbove`): a
/// 40 MB feed is then parsed a chunk at a time from the page cache, and never held whole while
/// its episodes are stored. The file goes when the last reference does.
public final class SpooledBody: Sendable, Equatable {
    /// The temporary file.
    public let url: URL

    private init(url: URL) {
        self.url = url
    }

    deinit {
        unlink(url.path)
    }

    public static func == (a: SpooledBody, b: SpooledBody) -> Bool { a === b }

    /// A new, empty, private file in the temporary folder (`TMPDIR`), open for writing; nil when
    /// none can be made (the body then stays in memory).
    static func create() -> (SpooledBody, Int32)? {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("earshot-feed-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        // (mkostemp, which sets it at once, is a GNU extension Glibc's module does not show.)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (SpooledBody(url: URL(fileURLWithPath: path)), descriptor)
    }

    /// Writes all of `bytes` to `descriptor`; false on a failure (a full disk).
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// The whole file, for going back to memory when the disk refuses more.
    func contents() throws -> Data {
        try Data(contentsOf: url)
    }
}
