import Feeds
import Foundation
import Library
import Web

/// `earshot import FILE` and `earshot export`: OPML with no server running.
enum OPMLCommand {
    /// Imports every feed of an OPML file; a file that is not OPML imports nothing.
    static func importFile(_ path: String, store: LibraryStore) async -> Int32 {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            ParseCommand.printError("cannot read \(path): \(error.localizedDescription)")
            return 1
        }
        let importer = OPMLImport(subscriptions: Subscriptions(store: store), store: store)
        do {
            let report = try await importer.run(data) { outcome in
                switch outcome {
                case .added(let podcast): print("added   \(podcast.title)")
                case .existing(let url): print("have    \(url)")
                case .failed(let failure): print("failed  \(failure.url): \(failure.error)")
                }
            }
            print("\(report.found) found, \(report.added.count) added, \(report.existing) already subscribed, \(report.failed.count) failed")
            return report.failed.isEmpty ? 0 : 3
        } catch {
            ParseCommand.printError("\(path): \(error) — nothing was imported")
            return 1
        }
    }

    /// Writes the subscriptions as OPML 2.0 to standard output.
    static func export(store: LibraryStore, webRoot: URL) async -> Int32 {
        do {
            print(try await OPMLExport.library(store, templatesDirectory: webRoot.appendingPathComponent("Templates")), terminator: "")
            return 0
        } catch {
            ParseCommand.printError("cannot export: \(error)")
            return 1
        }
    }
}
