import CSQLite
import Foundation

/// One SQLite connection, closed when the last reference goes away.
///
/// Opening configures the connection the way Earshot relies on: WAL journal, `synchronous=NORMAL`,
/// foreign keys enforced, a 5 s busy timeout. A file that cannot be opened, or that is not a database,
/// is reported with a `DatabaseError` and never deleted or recreated: it may hold someone's library.
///
/// Not thread-safe: exactly one owner (the `LibraryStore` actor) uses it at a time.
public final class Database {
    /// The file this connection opened.
    public let path: String
    let handle: OpaquePointer
    /// Statements prepared once and reused, keyed by their SQL text.
    private var statementCache: [String: Statement] = [:]

    /// How long a statement waits for another connection's lock before failing with `DatabaseError.busy`.
    public static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Opens (creating when missing) the database file at `path` and configures the connection.
    /// The parent folder must exist.
    public init(path: String) throws {
        var handle: OpaquePointer?
        // NOMUTEX: one owner uses the connection at a time, so SQLite's own per-call mutex is waste.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw Self.openError(path: path, DatabaseError(code: code, message: message))
        }
        self.path = path
        self.handle = handle
        // From here on deinit closes the handle if configuring throws.
        do {
            try configure()
        } catch let error as DatabaseError {
            throw Self.openError(path: path, error)
        }
    }

    deinit {
        // Finalize cached statements first; close_v2 would otherwise wait for them as a zombie.
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    private func configure() throws {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        // Read the schema before anything that could write: a file that is not a database (or is
        // damaged) fails here, untouched, instead of half-way through a pragma.
        try execute("SELECT count(*) FROM sqlite_schema")
        _ = try fetchOne("PRAGMA journal_mode=WAL") { $0.string(at: 0) }
        try execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
    }

    /// Rewrites a low-level failure into one that names the file and says it was left alone.
    private static func openError(path: String, _ error: DatabaseError) -> DatabaseError {
        DatabaseError(code: error.code, extendedCode: error.extendedCode,
                      message: "cannot open the library database at \(path): \(error.message). "
                          + "The file was left as it is; move it aside or restore a backup to start afresh.",
                      sql: error.sql)
    }

    // MARK: Running SQL

    /// Runs one or more `;`-separated statements that return no rows the caller needs (schema, pragmas).
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            throw DatabaseError(code: code, extendedCode: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Prepares a new statement that belongs to the caller.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: handle, sql: sql, persistent: false)
    }

    /// A statement prepared once per connection and reused, reset and ready to bind.
    ///
    /// Reset it (as `run`, `fetchAll` and `fetchOne` do) when done, so it does not hold a read snapshot.
    /// If the cached one is still being stepped (a nested use of the same SQL), a fresh one is returned.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            if sqlite3_stmt_busy(statement.handle) == 0 { return statement }
            return try prepare(sql)
        }
        let statement = try Statement(connection: handle, sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Rows inserted, updated or deleted on this connection since it opened: it only grows, so an
    /// unchanged count means this connection wrote nothing in between.
    public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    ///
    /// The outermost level is `BEGIN IMMEDIATE`, which takes the write lock up front so a busy
    /// database fails (after the busy timeout) before any work rather than at commit. Nested calls use
    /// savepoints, so an inner failure undoes only the inner work.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let nested = isInTransaction
        try execute(nested ? "SAVEPOINT earshot_nested" : "BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute(nested ? "RELEASE earshot_nested" : "COMMIT")
            return result
        } catch {
            // The rollback's own failure (e.g. SQLite already rolled back) would hide the real cause.
            try? execute(nested ? "ROLLBACK TO earshot_nested; RELEASE earshot_nested" : "ROLLBACK")
            throw error
        }
    }
}
