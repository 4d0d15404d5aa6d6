import Foundation
import EarshotCore

/// `--ca-file`: mpv (ffmpeg's TLS) and libcurl each take one CA file that *replaces* the system's
/// roots, so the private CA is written after the system's bundle into one file under the data
/// folder (`tls/ca-bundle.pem`, rewritten at every start): both stay trusted.
enum TrustBundle {
    /// Debian's bundle of the system's roots (ca-certificates).
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Writes the bundle and returns its path.
    static func write(privateCA path: String, into folder: URL) throws -> String {
        let ca: String
        do { ca = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw Failure(description: "--ca-file: cannot read \(path): \(error.localizedDescription)")
        }
        guard ca.contains("-----BEGIN CERTIFICATE-----") else {
            throw Failure(description: "--ca-file: \(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        let system: String
        do { system = try String(contentsOfFile: systemBundle, encoding: .utf8) } catch {
            // Then only the private CA is trusted for streams and downloads: say so.
            Log.warning("tls", "cannot read the system's roots at \(systemBundle) (\(error.localizedDescription)): only \(path) is trusted")
            system = ""
        }
        let bundle = folder.appendingPathComponent("ca-bundle.pem")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try (system + "\n# --ca-file \(path)\n" + ca + "\n").write(to: bundle, atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "--ca-file: cannot write \(bundle.path): \(error.localizedDescription)")
        }
        return bundle.path
    }
}
