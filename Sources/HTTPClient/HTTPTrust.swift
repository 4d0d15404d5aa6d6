import Foundation

/// The PEM bundle every HTTPS fetch of this process verifies against (feeds, artwork, directory,
/// transcripts, downloads): set once at start from `--ca-file` (the system's roots with the private
/// CA after them); nil: libcurl's default, the system's roots.
package enum HTTPTrust {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var bundle: String?

    package static var caFile: String? {
        get { lock.withLock { bundle } }
        set { lock.withLock { bundle = newValue } }
    }
}
