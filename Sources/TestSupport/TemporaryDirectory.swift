import Foundation

/// A fresh, empty directory under the system's temporary folder, unique to one test.
///
/// Create one per test and call `remove()` when done (typically in a `defer`), so tests running
/// in parallel never see each other's files.
public struct TemporaryDirectory: Sendable {
    /// The directory itself; it exists once `init` returns.
    public let url: URL

    /// The directory's file-system path.
    public var path: String { url.path }

    /// Creates a new directory named `<prefix>-<UUID>` in the temporary folder.
    ///
    /// Crashes if the temporary folder is not writable: no test can run meaningfully then.
    public init(prefix: String = "earshot-test") {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create temporary directory \(url.path): \(error)")
        }
        self.url = url
    }

    /// The URL of `name` inside this directory (which may contain `/` for nested paths); nothing is created.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Deletes the directory and everything in it; a directory already gone is not an error.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
