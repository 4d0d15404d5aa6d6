import Foundation
import Library
import Testing
import TestSupport

@Suite("Database")
struct DatabaseTests {
    @Test("a new connection is in WAL mode with foreign keys on and synchronous NORMAL")
    func configuration() async throws {
        try await withDirectory { dir in
            let db = try Database(path: dir.file("a.sqlite").path)
            #expect(try db.fetchOne("PRAGMA journal_mode") { $0.string(at: 0) } == "wal")
            #expect(try db.fetchOne("PRAGMA foreign_keys") { $0.int64(at: 0) } == 1)
            #expect(try db.fetchOne("PRAGMA synchronous") { $0.int64(at: 0) } == 1) // 1 = NORMAL
            #expect(FileManager.default.fileExists(atPath: dir.file("a.sqlite").path))
        }
    }

    @Test("binds and reads Int64, Double, String, nil and Bool by index")
    func bindingRoundTrip() async throws {
        try await withDirectory { dir in
            let db = try Database(path: dir.file("a.sqlite").path)
            try db.execute("CREATE TABLE t(i INTEGER, r REAL, s TEXT, n TEXT, b INTEGER)")
            let text = "Grüße 🎧 日本語 \u{0}after-nul"
            let insert = try db.prepare("INSERT INTO t VALUES(?, ?, ?, ?, ?)")
            try insert.bind(Int64.min, at: 1)
            try insert.bind(-1.25e-3, at: 2)
            try insert.bind(text, at: 3)
            try insert.bindNull(at: 4)
            try insert.bind(true, at: 5)
            #expect(try insert.step() == false)
            insert.reset()
            try insert.bind([Int64.max, 2.5, "", String?.none, false])
            try insert.step()

            let rows = try db.fetchAll("SELECT i, r, s, n, b FROM t ORDER BY rowid") { row in
                (row.int64(at: 0), row.double(at: 1), row.string(at: 2), row.optionalString(at: 3),
                 row.bool(at: 4), row.isNull(at: 3), row.columnCount)
            }
            #expect(rows.count == 2)
            #expect(rows[0].0 == Int64.min && rows[0].1 == -1.25e-3 && rows[0].2 == text)
            #expect(rows[0].3 == nil && rows[0].4 == true && rows[0].5 && rows[0].6 == 5)
            #expect(rows[1].0 == Int64.max && rows[1].1 == 2.5 && rows[1].2 == "" && rows[1].4 == false)
            // Every byte was stored, including those after the NUL.
            #expect(try db.fetchOne("SELECT length(CAST(s AS BLOB)) FROM t WHERE rowid = 1") { $0.int64(at: 0) }
                    == Int64(text.utf8.count))
        }
    }

    @Test("a transaction commits when its body returns and rolls back when it throws")
    func transactions() async throws {
        struct Boom: Error {}
        try await withDirectory { dir in
            let db = try Database(path: dir.file("a.sqlite").path)
            try db.execute("CREATE TABLE t(x INTEGER)")
            let count = { try db.fetchOne("SELECT count(*) FROM t") { $0.int64(at: 0) } ?? -1 }

            let value = try db.transaction {
                try db.run("INSERT INTO t VALUES(?)", [1])
                return 42
            }
            #expect(value == 42)
            #expect(try count() == 1)

            #expect(throws: Boom.self) {
                try db.transaction {
                    try db.run("INSERT INTO t VALUES(?)", [2])
                    throw Boom()
                }
            }
            #expect(try count() == 1)
            #expect(!db.isInTransaction)

            // A failing inner transaction undoes only its own work.
            try db.transaction {
                try db.run("INSERT INTO t VALUES(?)", [3])
                #expect(db.isInTransaction)
                try? db.transaction {
                    try db.run("INSERT INTO t VALUES(?)", [4])
                    throw Boom()
                }
            }
            #expect(try db.fetchAll("SELECT x FROM t ORDER BY x") { $0.int64(at: 0) } == [1, 3])
        }
    }

    @Test("errors carry SQLite's code, its message and the SQL")
    func errors() async throws {
        try await withDirectory { dir in
            let db = try Database(path: dir.file("a.sqlite").path)
            let syntax = #expect(throws: DatabaseError.self) { try db.execute("SELEC 1") }
            #expect(syntax?.code == DatabaseError.genericError)
            #expect(syntax?.sql == "SELEC 1")
            #expect(syntax?.message.contains("syntax error") == true)

            try db.execute("CREATE TABLE t(x INTEGER PRIMARY KEY)")
            try db.run("INSERT INTO t VALUES(1)")
            let duplicate = #expect(throws: DatabaseError.self) { try db.run("INSERT INTO t VALUES(1)") }
            #expect(duplicate?.code == DatabaseError.constraint)
            #expect(duplicate?.extendedCode != DatabaseError.constraint) // extended: PRIMARYKEY
            #expect(duplicate?.description.contains("INSERT INTO t VALUES(1)") == true)

            let two = #expect(throws: DatabaseError.self) { _ = try db.prepare("SELECT 1; SELECT 2") }
            #expect(two?.code == DatabaseError.misuse)
        }
    }

    @Test("a file that is not a database fails clearly and keeps every byte")
    func junkFile() async throws {
        try await withDirectory { dir in
            let url = dir.file("library.sqlite")
            let junk = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try junk.write(to: url)

            let error = #expect(throws: DatabaseError.self) { _ = try Database(path: url.path) }
            #expect(error?.code == DatabaseError.notADatabase)
            #expect(error?.message.contains(url.path) == true)
            #expect(error?.message.contains("not a database") == true)
            #expect(error?.message.contains("left as it is") == true)

            // The store fails the same way rather than replacing the file with an empty library.
            #expect(throws: DatabaseError.self) { _ = try LibraryStore(path: url.path) }

            #expect(try bytes(of: url) == junk)
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left == ["library.sqlite"])
        }
    }

    @Test("a damaged database fails clearly and its file keeps every byte")
    func damagedFile() async throws {
        try await withDirectory { dir in
            let url = dir.file("library.sqlite")
            do {
                let store = try LibraryStore(path: url.path)
                try await store.subscribe(feedURL: "https://example.org/f", content: feed("Show", items: 3))
            } // closing the last connection checkpoints the WAL into the main file
            var damaged = try bytes(of: url)
            // Keep the 100-byte header (so it still looks like SQLite) and wreck the schema page after it.
            damaged.replaceSubrange(100..<1_000, with: Data(repeating: 0xA5, count: 900))
            try damaged.write(to: url)

            let error = #expect(throws: DatabaseError.self) { _ = try LibraryStore(path: url.path) }
            #expect(error?.code == DatabaseError.corrupt || error?.code == DatabaseError.notADatabase)
            #expect(error?.message.contains(url.path) == true)
            #expect(try bytes(of: url) == damaged)
        }
    }

    @Test("a path that is a directory fails with cannot-open and the directory stays")
    func directoryPath() async throws {
        try await withDirectory { dir in
            let folder = dir.file("folder.sqlite")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            let error = #expect(throws: DatabaseError.self) { _ = try Database(path: folder.path) }
            #expect(error?.code == DatabaseError.cannotOpen)
            #expect(error?.message.contains(folder.path) == true)
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        }
    }

    @Test("a cached statement reused inside its own row loop gets a fresh statement")
    func nestedCachedStatement() async throws {
        try await withDirectory { dir in
            let db = try Database(path: dir.file("a.sqlite").path)
            try db.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES(1), (2), (3)")
            let sql = "SELECT x FROM t WHERE x >= ? ORDER BY x"
            let pairs = try db.fetchAll(sql, [1]) { row in
                let x = row.int64(at: 0)
                return (x, try db.fetchAll(sql, [x]) { $0.int64(at: 0) })
            }
            #expect(pairs.map(\.0) == [1, 2, 3])
            #expect(pairs.map(\.1) == [[1, 2, 3], [2, 3], [3]])
        }
    }
}
