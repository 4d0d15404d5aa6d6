import Foundation

/// Where the shared, read-only conformance data lives: `<repo>/../shared/conformance`, found from this
/// file's path so the tests run from any working directory.
enum Conformance {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FeedsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repo
        .deletingLastPathComponent()
        .appendingPathComponent("shared/conformance", isDirectory: true)

    static func folder(_ name: String) -> URL { root.appendingPathComponent(name, isDirectory: true) }

    /// The files in `folder` with extension `ext`, sorted by name.
    static func files(in folder: URL, ext: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { folder.appendingPathComponent($0) }
    }
}
