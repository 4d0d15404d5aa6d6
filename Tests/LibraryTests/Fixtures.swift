import EarshotCore
import Foundation
@testable import Library
import TestSupport

/// A store on a fresh file in a fresh temporary directory, removed after `body`.
func withStore<T>(_ body: (LibraryStore, TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = TemporaryDirectory(prefix: "earshot-library")
    defer { directory.remove() }
    let store = try LibraryStore(path: directory.file("library.sqlite").path)
    return try await body(store, directory)
}

/// A fresh temporary directory for tests that open files themselves, removed after `body`.
func withDirectory<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = TemporaryDirectory(prefix: "earshot-library")
    defer { directory.remove() }
    return try await body(directory)
}

/// Unix seconds as a date (whole and half seconds round-trip exactly through REAL).
func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

/// An item whose fields are all derived from `guid`, so tests can tell items apart field by field.
func item(_ guid: String, published: Date? = nil, title: String? = nil, artworkURL: String? = nil) -> FeedItem {
    FeedItem(guid: guid, title: title ?? "Title \(guid)", summary: "Notes for \(guid)",
             enclosureURL: "https://example.org/\(guid).mp3", enclosureType: "audio/mpeg",
             enclosureLength: 1_000 + Int64(guid.utf8.count), duration: 60.5, published: published,
             artworkURL: artworkURL, link: "https://example.org/\(guid)")
}

/// A feed with `count` dated items, item `i` published `i` hours after a fixed instant.
func feed(_ title: String, items count: Int, prefix: String = "ep") -> FeedContent {
    FeedContent(title: title, author: "Author of \(title)", summary: "About \(title)",
                artworkURL: "https://example.org/\(title).jpg", link: "https://example.org/\(title)",
                items: (0..<count).map { item("\(prefix)\($0)", published: date(1_700_000_000 + Double($0) * 3_600)) })
}

/// The raw bytes of a file, for checking that a failed open left it untouched.
func bytes(of url: URL) throws -> Data { try Data(contentsOf: url) }

/// A library file at `path` migrated by every migration but `skipped`: a library from before it (the
/// store opening it then runs it).
func libraryWithout(_ skipped: String, at path: String) throws -> Database {
    var old = Migrator()
    for migration in LibrarySchema.migrator.migrations where migration.name != skipped {
        old.register(migration.name, migration.body)
    }
    let db = try Database(path: path)
    try old.migrate(db)
    return db
}
