import CSQLite
import Foundation

/// One prepared SQLite statement, finalized when the last reference goes away.
///
/// Not thread-safe: use it only from the owner of its `Database` (in Earshot, the `LibraryStore` actor).
/// Parameter and column indexes follow SQLite: parameters count from 1, columns from 0.
public final class Statement {
    /// The SQL text this statement was prepared from.
    public let sql: String
    let handle: OpaquePointer
    /// The connection, only to read error messages; `sqlite3_close_v2` keeps it alive until this
    /// statement is finalized, so it never dangles.
    private let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String, persistent: Bool) throws {
        var handle: OpaquePointer?
        var extraText = false
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, text, -1, flags, &handle, &tail)
            // Anything after the first statement would be silently ignored: refuse it instead.
            if let tail { extraText = String(cString: tail).contains { !$0.isWhitespace && $0 != ";" } }
            return code
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(handle)
            throw DatabaseError(code: code, extendedCode: sqlite3_extended_errcode(connection),
                                message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        guard let handle, !extraText else {
            sqlite3_finalize(handle)
            throw DatabaseError(code: DatabaseError.misuse,
                                message: "a prepared statement must hold exactly one SQL command", sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Running

    /// Advances to the next row: `true` when a row is ready to read, `false` when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw error(code)
        }
    }

    /// Rewinds the statement so it can run again and clears its parameters.
    ///
    /// Resetting also ends the read snapshot a half-read query holds, which in WAL mode would
    /// otherwise stop checkpoints from shrinking the log.
    public func reset() {
        // reset returns the last step's error again, which step already reported.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Binding

    /// Binds every value in order, to parameters 1, 2, 3, …
    public func bind(_ values: [any StatementBindable]) throws {
        for (offset, value) in values.enumerated() {
            try value.bind(to: self, at: Int32(offset + 1))
        }
    }

    public func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    public func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    public func bind(_ value: String, at index: Int32) throws {
        // TRANSIENT: SQLite copies the bytes, so the Swift string's buffer need not outlive the call.
        try check(sqlite3_bind_text(handle, index, value, Int32(value.utf8.count), earshot_sqlite_transient()))
    }

    public func bind(_ value: Bool, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value ? 1 : 0))
    }

    public func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    // MARK: Reading columns of the current row

    /// How many columns each row has.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column as an integer; NULL reads as 0.
    public func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column as a floating-point number; NULL reads as 0.
    public func double(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// The column as a Boolean (non-zero is true); NULL reads as false.
    public func bool(at column: Int32) -> Bool {
        sqlite3_column_int64(handle, column) != 0
    }

    /// The column as UTF-8 text; NULL reads as the empty string.
    public func string(at column: Int32) -> String {
        // column_text before column_bytes, as SQLite documents, so the length matches the UTF-8 form.
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    public func optionalString(at column: Int32) -> String? {
        isNull(at: column) ? nil : string(at: column)
    }

    public func optionalDouble(at column: Int32) -> Double? {
        isNull(at: column) ? nil : double(at: column)
    }

    public func optionalInt64(at column: Int32) -> Int64? {
        isNull(at: column) ? nil : int64(at: column)
    }

    /// A REAL column of Unix seconds as a date; NULL reads as nil.
    public func date(at column: Int32) -> Date? {
        isNull(at: column) ? nil : Date(timeIntervalSince1970: double(at: column))
    }

    // MARK: Errors

    private func check(_ code: Int32) throws {
        if code != SQLITE_OK { throw error(code) }
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(code: code, extendedCode: sqlite3_extended_errcode(connection),
                      message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
