// swift-tools-version:6.0
import PackageDescription

/// Earshot: a podcast player for a machine with speakers, driven from any browser.
/// Layers point down only: earshot → Web → Playback, Library, Feeds → EarshotCore.
let package = Package(
    name: "Earshot",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "earshot", targets: ["earshot"]),
        .executable(name: "earshot-parse", targets: ["earshot-parse"]),
    ],
    targets: [
        // System libraries from Debian: a module map and a shim.h each, nothing else.
        // mpv.pc drags in SDL2 and -D_REENTRANT (a flag SwiftPM rejects); <mpv/client.h> needs no
        // include path, so CMPV links by name (Makefile installs libmpv-dev).
        .systemLibrary(name: "CMPV"),
        .systemLibrary(name: "CWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        .target(name: "EarshotCore"),
        .target(name: "Mustache"),
        .target(name: "Feeds", dependencies: ["EarshotCore", "CLibXML2"]),
        // HTTP fetching apart from the parser: URLSession's FoundationNetworking (libcurl and its TLS
        // stack) is then loaded only by what fetches, not by everything that parses.
        .target(name: "FeedFetching", dependencies: ["Feeds", "EarshotCore"]),
        .target(name: "Library", dependencies: ["EarshotCore", "CSQLite"]),
        .target(name: "Playback", dependencies: ["EarshotCore", "Library", "CMPV"]),
        .target(name: "Web", dependencies: ["EarshotCore", "Library", "Feeds", "FeedFetching", "Playback", "Mustache", "CWebSockets"]),
        .executableTarget(name: "earshot", dependencies: ["Web", "Playback", "Library", "Feeds", "FeedFetching", "EarshotCore"]),
        // The feed parser alone, for `make bench` (Sources/earshot-parse/main.swift says why).
        .executableTarget(name: "earshot-parse", dependencies: ["Feeds"]),
        .target(name: "TestSupport", dependencies: ["EarshotCore"]),

        .testTarget(name: "EarshotCoreTests", dependencies: ["EarshotCore", "TestSupport"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache", "TestSupport"]),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds", "EarshotCore", "TestSupport"]),
        .testTarget(name: "FeedFetchingTests", dependencies: ["FeedFetching", "Feeds", "EarshotCore", "TestSupport"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "EarshotCore", "TestSupport"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "Library", "EarshotCore", "TestSupport"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "Playback", "Library", "Feeds", "EarshotCore", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
