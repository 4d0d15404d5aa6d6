import EarshotCore
import Foundation
@testable import Library
import Testing
import TestSupport

@Suite("Migrator")
struct MigratorTests {
    /// Two migrations; the second counts how many times it ran in a table of its own.
    func baseMigrator() -> Migrator {
        var migrator = Migrator()
        migrator.register("create-log") { db in
            try db.execute("CREATE TABLE log(entry TEXT NOT NULL)")
        }
        migrator.register("first-entry") { db in
            try db.run("INSERT INTO log(entry) VALUES(?)", ["first"])
        }
        return migrator
    }

    func log(_ db: Database) throws -> [String] {
        try db.fetchAll("SELECT entry FROM log ORDER BY rowid") { $0.string(at: 0) }
    }

    @Test("migrations run in order, are recorded by name and run once across re-opens")
    func appliedOnce() async throws {
        try await withDirectory { dir in
            let path = dir.file("m.sqlite").path
            do {
                let db = try Database(path: path)
                #expect(try baseMigrator().appliedMigrations(in: db) == [])
                #expect(try baseMigrator().migrate(db) == ["create-log", "first-entry"])
                #expect(try baseMigrator().migrate(db) == [])
            }
            let db = try Database(path: path)
            #expect(try baseMigrator().migrate(db) == [])
            #expect(try log(db) == ["first"])
            #expect(try baseMigrator().appliedMigrations(in: db) == ["create-log", "first-entry"])
            let stamps = try db.fetchAll("SELECT applied_at FROM migrations") { $0.double(at: 0) }
            #expect(stamps.count == 2 && stamps.allSatisfy { abs($0 - Date().timeIntervalSince1970) < 600 })
        }
    }

    @Test("a migration appended later runs on an old database, and only it")
    func appendedLater() async throws {
        try await withDirectory { dir in
            let path = dir.file("m.sqlite").path
            do {
                let db = try Database(path: path)
                try baseMigrator().migrate(db)
            }
            var newer = baseMigrator()
            newer.register("second-entry") { db in
                try db.run("INSERT INTO log(entry) VALUES(?)", ["second"])
            }
            let db = try Database(path: path)
            #expect(try newer.migrate(db) == ["second-entry"])
            #expect(try log(db) == ["first", "second"])
            #expect(try newer.migrate(db) == [])
            #expect(try newer.appliedMigrations(in: db) == ["create-log", "first-entry", "second-entry"])
        }
    }

    @Test("a failing migration leaves no trace, stops the later ones and runs once fixed")
    func failingMigration() async throws {
        struct Broken: Error {}
        try await withDirectory { dir in
            let db = try Database(path: dir.file("m.sqlite").path)
            var broken = baseMigrator()
            broken.register("half-done") { db in
                try db.run("INSERT INTO log(entry) VALUES(?)", ["half"])
                throw Broken()
            }
            broken.register("after") { db in
                try db.run("INSERT INTO log(entry) VALUES(?)", ["after"])
            }
            #expect(throws: Broken.self) { try broken.migrate(db) }
            #expect(try log(db) == ["first"])
            #expect(try broken.appliedMigrations(in: db) == ["create-log", "first-entry"])

            var fixed = baseMigrator()
            fixed.register("half-done") { db in try db.run("INSERT INTO log(entry) VALUES(?)", ["half"]) }
            fixed.register("after") { db in try db.run("INSERT INTO log(entry) VALUES(?)", ["after"]) }
            #expect(try fixed.migrate(db) == ["half-done", "after"])
            #expect(try log(db) == ["first", "half", "after"])
        }
    }

    @Test("the library's own schema migration is named, applied once, and later ones extend an old library")
    func librarySchema() async throws {
        try await withDirectory { dir in
            let path = dir.file("library.sqlite").path
            do {
                let store = try LibraryStore(path: path)
                try await store.subscribe(feedURL: "https://example.org/feed", content: feed("Show", items: 3))
            }
            do {
                // Re-opening must not re-run v1 (its CREATE TABLEs would fail) and keeps the data.
                let store = try LibraryStore(path: path)
                #expect(try await store.podcasts().map(\.episodeCount) == [3])
            }
            var newer = LibrarySchema.migrator
            newer.register("v2-test-bookmarks") { db in
                try db.execute("ALTER TABLE episodes ADD COLUMN bookmarked INTEGER NOT NULL DEFAULT 0")
            }
            let db = try Database(path: path)
            #expect(try newer.appliedMigrations(in: db) == ["v1-podcasts-episodes-settings", "v2-refresh-state-details-unsubscribe",
                                                          "v3-playlists", "v4-episode-chapters", "v5-downloads", "v6-devices",
                                                          "v7-search", "v8-transcripts", "v9-inbox-and-sorts", "v10-sync", "v11-loudness",
                                                          "v12-listening-log", "v13-episode-counts"])
            #expect(try newer.migrate(db) == ["v2-test-bookmarks"])
            #expect(try db.fetchOne("SELECT count(*) FROM episodes WHERE bookmarked = 0") { $0.int64(at: 0) } == 3)
        }
    }

    @Test("a database that records a migration this build does not know is refused before anything is written")
    func refusesTheFuture() async throws {
        try await withDirectory { dir in
            let path = dir.file("library.sqlite").path
            do {
                let db = try Database(path: path)
                var newer = LibrarySchema.migrator
                newer.register("v99-from-a-newer-earshot") { db in try db.execute("CREATE TABLE future(x)") }
                try newer.migrate(db)
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(throws: FutureMigrationError(path: path, migration: "v99-from-a-newer-earshot")) {
                _ = try LibraryStore(path: path)
            }
            let error = FutureMigrationError(path: path, migration: "v99-from-a-newer-earshot")
            #expect(error.description == #"library.sqlite was written by a newer Earshot (migration "v99-from-a-newer-earshot"); not touching it"#)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is byte for byte as it was")
        }
    }
}
