import Foundation

/// A library some newer build migrated: it records a migration this build does not know, so
/// this build cannot tell what its tables mean and must not write to it.
public struct FutureMigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The first recorded migration this build does not know.
    public var migration: String

    public var description: String {
        "\(URL(fileURLWithPath: path).lastPathComponent) was written by a newer Earshot (migration \"\(migration)\"); not touching it"
    }
}

/// Ordered, named schema migrations, each applied at most once per database file.
///
/// Applied names are recorded in a `migrations(name, applied_at)` table. `migrate` runs every
/// registered migration whose name is not recorded yet, in registration order, each in its own
/// transaction together with its record, so a failure leaves neither half a migration nor a record
/// of it. Append new migrations at the end; never rename or edit one that has shipped.
public struct Migrator: Sendable {
    /// One migration: a unique name and the work it does.
    public struct Migration: Sendable {
        public let name: String
        let body: @Sendable (Database) throws -> Void
    }

    /// The registered migrations, in the order they run.
    public private(set) var migrations: [Migration] = []

    public init() {}

    /// Appends a migration. Names must be unique: a duplicate is a programming error.
    public mutating func register(_ name: String, _ body: @escaping @Sendable (Database) throws -> Void) {
        precondition(!migrations.contains { $0.name == name }, "migration \"\(name)\" is registered twice")
        migrations.append(Migration(name: name, body: body))
    }

    /// Applies the migrations `database` has not seen yet, returning their names in the order they ran.
    /// A database that records a migration this build does not know throws `FutureMigrationError`
    /// before anything is written.
    @discardableResult
    public func migrate(_ database: Database) throws -> [String] {
        let known = Set(migrations.map(\.name))
        if let unknown = try appliedMigrations(in: database).first(where: { !known.contains($0) }) {
            throw FutureMigrationError(path: database.path, migration: unknown)
        }
        try database.execute("""
            CREATE TABLE IF NOT EXISTS migrations(name TEXT PRIMARY KEY NOT NULL, applied_at REAL NOT NULL)
            """)
        let applied = Set(try appliedMigrations(in: database))
        var ran: [String] = []
        for migration in migrations where !applied.contains(migration.name) {
            try database.transaction {
                try migration.body(database)
                try database.run("INSERT INTO migrations(name, applied_at) VALUES(?, ?)",
                                 [migration.name, Date().timeIntervalSince1970])
            }
            ran.append(migration.name)
        }
        return ran
    }

    /// The names recorded as applied in `database`, oldest first (empty before the first `migrate`).
    public func appliedMigrations(in database: Database) throws -> [String] {
        let tableExists = try database.fetchOne(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'migrations'") { _ in true } ?? false
        guard tableExists else { return [] }
        return try database.fetchAll("SELECT name FROM migrations ORDER BY applied_at, rowid") { $0.string(at: 0) }
    }
}
