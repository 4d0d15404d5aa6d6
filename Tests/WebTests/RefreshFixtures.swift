import EarshotCore
import Foundation
import Library
import TestSupport
@testable import Web

/// Feeds, a store, a refresher and a fixture server for the refresh tests.
enum RefreshFixtures {
    struct Item {
        var guid: String
        var url: String
        var title: String

        init(_ guid: String, url: String? = nil, title: String? = nil) {
            self.guid = guid
            self.url = url ?? "https://cdn.example.org/\(guid).mp3"
            self.title = title ?? "Episode \(guid)"
        }
    }

    /// An RSS feed; `padding` bytes of channel description make it big enough to arrive slowly.
    static func rss(_ title: String, _ items: [Item], newFeedURL: String? = nil, padding: Int = 0) -> Data {
        let entries = items.enumerated().map { index, item in
            """
            <item><title>\(item.title)</title><guid>\(item.guid)</guid>
            <pubDate>\(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][index % 7]), 0\(index % 9 + 1) Mar 2026 09:00:00 GMT</pubDate>
            <enclosure url="\(item.url)" length="1000" type="audio/mpeg"/></item>
            """
        }.joined(separator: "\n")
        let moved = newFeedURL.map { "<itunes:new-feed-url>\($0)</itunes:new-feed-url>" } ?? ""
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>\(title)</title>\(moved)
            <description>\(String(repeating: "x", count: padding))</description>
            \(entries)
            </channel></rss>
            """.utf8)
    }

    static func feedResponse(_ body: Data, headers: [String: String] = [:], chunkDelay: TimeInterval = 0) -> FixtureHTTPServer.Response {
        var all = headers
        all["Content-Type"] = "application/rss+xml"
        return FixtureHTTPServer.Response(status: 200, headers: all, body: body, chunkDelay: chunkDelay)
    }

    static func redirect(_ status: Int, to location: String) -> FixtureHTTPServer.Response {
        FixtureHTTPServer.Response(status: status, headers: ["Location": location])
    }

    /// A store in a temporary directory, a refresher on it (`timeout` per fetch) and a fixture server.
    /// `spoolingAbove`: the fetcher keeps bodies larger than that in a temporary file, and subscribing
    /// stores them as they are parsed (`Subscriptions`' large-feed path).
    static func with(concurrency: Int = 4, timeout: TimeInterval = 10, deadline: TimeInterval = 120,
                     spoolingAbove: Int? = nil,
                     _ body: (LibraryStore, FeedRefresher, FixtureHTTPServer) async throws -> Void) async throws {
        let directory = TemporaryDirectory(prefix: "earshot-refresh")
        defer { directory.remove() }
        let fixture = try FixtureHTTPServer()
        defer { fixture.stop() }
        let store = try LibraryStore(path: directory.file("library.sqlite").path)
        let refresher = FeedRefresher(store: store, fetcher: .init(timeout: timeout, spoolingAbove: spoolingAbove), concurrency: concurrency,
                                      deadline: deadline)
        try await body(store, refresher, fixture)
    }

    /// Subscribes through `Subscriptions` (as the API does) to `path` on the fixture.
    static func subscribe(_ path: String, _ fixture: FixtureHTTPServer, _ refresher: FeedRefresher,
                          _ store: LibraryStore) async throws -> Podcast {
        let (podcast, isNew) = try await Subscriptions(store: store, refresher: refresher).add(fixture.url(path).absoluteString)
        precondition(isNew, "\(path) was already subscribed")
        return podcast
    }

    /// gzip (RFC 1952) with stored deflate blocks: a real gzip stream any client must inflate,
    /// made without a compression library.
    static func gzip(_ data: Data) -> Data {
        var out = Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255])
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + count == bytes.count ? 1 : 0
            out.append(last) // BFINAL, BTYPE 00 (stored), aligned
            out.append(contentsOf: [UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8((~count >> 8) & 0xff)])
            out.append(contentsOf: bytes[offset..<(offset + count)])
            offset += count
        } while offset < bytes.count
        for value in [crc32(bytes), UInt32(truncatingIfNeeded: bytes.count)] {
            out.append(contentsOf: (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xff) })
        }
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
