import EarshotCore

/// An error SQLite reported: its result code, its message and the SQL that caused it.
///
/// The codes are SQLite's documented, stable result codes, so callers can test for them without
/// importing the C module (see the constants below).
public struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite's primary result code (the low byte of `extendedCode`), e.g. `DatabaseError.notADatabase`.
    public var code: Int32
    /// SQLite's extended result code, which says more (e.g. which constraint failed).
    public var extendedCode: Int32
    /// A human-readable explanation.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code & 0xff
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (while running: \(sql))" }
        return text
    }
}

extension DatabaseError {
    /// `SQLITE_ERROR`: a generic error, such as an SQL syntax error.
    public static let genericError: Int32 = 1
    /// `SQLITE_BUSY`: another connection held the lock longer than the busy timeout.
    public static let busy: Int32 = 5
    /// `SQLITE_READONLY`: the file cannot be written.
    public static let readOnly: Int32 = 8
    /// `SQLITE_CORRUPT`: the database file is damaged.
    public static let corrupt: Int32 = 11
    /// `SQLITE_FULL`: the disk (or the file system's quota) has no room for the database to grow.
    public static let full: Int32 = 13
    /// `SQLITE_CANTOPEN`: the file could not be opened (missing folder, a directory, no permission).
    public static let cannotOpen: Int32 = 14
    /// `SQLITE_CONSTRAINT`: a UNIQUE, NOT NULL, CHECK or FOREIGN KEY constraint failed.
    public static let constraint: Int32 = 19
    /// `SQLITE_MISUSE`: the library was used incorrectly (e.g. several statements where one was expected).
    public static let misuse: Int32 = 21
    /// `SQLITE_NOTADB`: the file exists but is not an SQLite database.
    public static let notADatabase: Int32 = 26
}

extension DatabaseError: ExplainedFailure {
    /// A full disk or a read-only file: what a listener can fix, said without SQL or paths.
    public var plainReason: String? {
        switch code {
        case Self.full: "the disk is full, so the library cannot grow; free some space"
        case Self.readOnly: "the library's file cannot be written (read-only)"
        default: nil
        }
    }
}
