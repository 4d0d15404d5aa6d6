// swift-tools-version:6.0
import PackageDescription

/// Earshot: a podcast player for a machine with speakers, driven from any browser.
/// Layers point down only: earshot → MPRIS → Web → Playback, Downloads, Artwork, Library, FeedFetching → Feeds, Mustache, HTTPClient → EarshotCore
/// (and Playback → FeedFetching; earshot-parse → Feeds). ARCHITECTURE.md draws the same.
let package = Package(
    name: "Earshot",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "earshot", targets: ["earshot"]),
        .executable(name: "earshot-parse", targets: ["earshot-parse"]),
    ],
    targets: [
        // System libraries from Debian: a module map and a shim.h each, nothing else — but libmpv,
        // which is loaded with dlopen when the player starts (its 228 libraries cost every `earshot`
        // command 0.1 s of start-up): CMPV is a C target, <mpv/client.h>'s types and a loader
        // forwarding to libmpv's functions (include/shim.h). Makefile installs libmpv-dev.
        .target(name: "CMPV"),
        .systemLibrary(name: "CWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // Every HTTP fetch goes through libcurl directly (Sources/HTTPClient/CurlRequest.swift says why not URLSession).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Artwork resizing: gdk-pixbuf is the smallest well-kept decoder/scaler in Debian (libvips-dev
        // and MagickWand pull in dozens of libraries); linked by name (its shim.h says why, as CMPV);
        // only Sources/Artwork/ImageResizer.swift imports it (scripts/setup.sh installs it).
        .systemLibrary(name: "CGdkPixbuf"),
        // QR codes for pairing a phone (Debian's libqrencode; only Sources/Web/QRCode.swift imports it).
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // GDBus from GLib for MPRIS (its shim.h says why GDBus, and why linked by name as CGdkPixbuf);
        // only Sources/MPRIS/DBus*.swift import it.
        .systemLibrary(name: "CGio"),
        // The sync account's password hash: libxcrypt's yescrypt (libcrypt-dev, part of every C
        // toolchain's libc6-dev); only Sources/Web/Sync/PasswordHash.swift imports it.
        .systemLibrary(name: "CCrypt"),

        .target(name: "EarshotCore"),
        .target(name: "Mustache"),
        // Optimized in debug builds too: the tests parse hundreds of feeds, large and hostile ones among
        // them, under time limits that guard against blow-ups, and unoptimized the parser's byte loops and
        // generics run several times slower than what ships (100,000 items: 5 s, at its test's limit,
        // against 1.2 s optimized).
        .target(name: "Feeds", dependencies: ["EarshotCore", "CLibXML2"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // libcurl's one owner: GET requests with verified TLS (one process-wide CA setting), used by
        // feed fetching and downloads alike.
        .target(name: "HTTPClient", dependencies: ["EarshotCore", "CCurl"]),
        // HTTP fetching apart from the parser: libcurl and its TLS stack are then loaded only by what
        // fetches, not by everything that parses.
        .target(name: "FeedFetching", dependencies: ["Feeds", "EarshotCore", "HTTPClient"]),
        .target(name: "Library", dependencies: ["EarshotCore", "CSQLite"]),
        // FeedFetching: the engine fetches Podcasting 2.0 chapters files itself (PlaybackEngine+Chapters).
        .target(name: "Playback", dependencies: ["EarshotCore", "Library", "FeedFetching", "CMPV"]),
        // Artwork: fetched once, resized with gdk-pixbuf, kept on disk and served by Web.
        .target(name: "Artwork", dependencies: ["EarshotCore", "FeedFetching", "CGdkPixbuf"]),
        .target(name: "Web", dependencies: ["EarshotCore", "Library", "Feeds", "FeedFetching", "Playback", "Downloads", "Mustache", "CWebSockets", "Artwork", "CQRencode", "CCrypt", "Snapcast"]),
        .target(name: "Downloads", dependencies: ["EarshotCore", "Library", "HTTPClient"]),
        // Snapcast (multi-room): the JSON-RPC control link to a snapserver and the one Earshot starts.
        .target(name: "Snapcast", dependencies: ["EarshotCore"]),
        // Earshot as the desktop's media player on the session bus (MPRIS): above Web, whose
        // command path it drives.
        .target(name: "MPRIS", dependencies: ["EarshotCore", "Playback", "Web", "CGio"]),
        .executableTarget(name: "earshot", dependencies: ["Web", "Playback", "Downloads", "Library", "Feeds", "FeedFetching", "HTTPClient", "EarshotCore", "MPRIS", "Snapcast"]),
        // The feed parser alone, for `make bench` (Sources/earshot-parse/main.swift says why).
        .executableTarget(name: "earshot-parse", dependencies: ["Feeds", "EarshotCore"]),
        // Library search speed for `make bench` (Sources/earshot-bench/main.swift says what it measures).
        .executableTarget(name: "earshot-bench", dependencies: ["Library", "EarshotCore"]),
        .target(name: "TestSupport", dependencies: ["EarshotCore"]),

        .testTarget(name: "EarshotCoreTests", dependencies: ["EarshotCore", "TestSupport"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache", "TestSupport"]),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds", "EarshotCore", "TestSupport"]),
        .testTarget(name: "FeedFetchingTests", dependencies: ["FeedFetching", "Feeds", "HTTPClient", "EarshotCore", "TestSupport"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "EarshotCore", "TestSupport"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "Library", "EarshotCore", "TestSupport"]),
        .testTarget(name: "DownloadsTests", dependencies: ["Downloads", "Library", "EarshotCore", "TestSupport", "Playback"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "Playback", "Downloads", "Library", "Feeds", "EarshotCore", "Snapcast", "TestSupport"]),
        .testTarget(name: "ArtworkTests", dependencies: ["Artwork", "EarshotCore", "Library", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
