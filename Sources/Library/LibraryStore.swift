import EarshotCore
import Foundation

/// The podcast library on disk: podcasts, episodes, the listener's progress and settings.
///
/// An actor because it owns the one SQLite connection, which must be used by one caller at a time.
/// Every method is a short synchronous piece of SQL on that connection; lists come from indexes and
/// prepared statements are reused, so reads stay fast on large libraries.
public actor LibraryStore {
    /// The database file.
    public nonisolated let path: String
    let database: Database
    /// False only after `dropSearchIndexForBenchmark()`: `make bench` stores without the index.
    var indexesEpisodes = true
    /// Where the last offset page of each episode list ended (`episodes(_:)`).
    var pageEnds = OffsetPageEnds()

    /// Opens the library at `path`, creating the file (and its folder) when missing, and brings its
    /// schema up to date. A file that is not a readable database throws `DatabaseError` and is left as it is.
    public init(path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try Database(path: path)
        try LibrarySchema.migrator.migrate(database)
        self.path = path
        self.database = database
    }

    /// Runs `body` on the connection; for tests and diagnostics that need raw SQL.
    func withDatabase<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try body(database)
    }

    // MARK: Settings

    /// The stored value for `key`, or nil when it was never set.
    public func setting(_ key: String) throws -> String? {
        try database.fetchOne(LibrarySQL.setting, [key]) { $0.optionalString(at: 0) } ?? nil
    }

    /// Stores `value` under `key`; nil removes the key.
    public func setSetting(_ key: String, _ value: String?) throws {
        if let value {
            try database.run(LibrarySQL.setSetting, [key, value])
        } else {
            try database.run(LibrarySQL.deleteSetting, [key])
        }
    }
}

/// A library request about something that is not there.
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    case episodeNotFound(Int64)

    public var description: String {
        switch self {
        case .episodeNotFound(let id): "no episode with id \(id) in the library"
        }
    }
}
