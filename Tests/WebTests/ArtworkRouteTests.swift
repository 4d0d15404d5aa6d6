import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Web

/// `/artwork/{key}/{size}.jpg` on a real server: the artwork of a subscribed podcast, fetched
/// from a real loopback HTTP server once, resized with gdk-pixbuf, served for a year.
@Suite(.serialized) struct ArtworkRouteTests {
    @Test func artworkIsServedInSizesWithLongLivedCaching() async throws {
        let images = try FixtureHTTPServer()
        defer { images.stop() }
        images.set("/cover.bmp", .init(headers: ["Content-Type": "image/bmp"], body: GeneratedImage.bmp(width: 800, height: 800)))
        let cover = images.url("/cover.bmp").absoluteString
        let broken = images.url("/gone.jpg").absoluteString
        try await ServerHarness.with { h in
            let audio = h.episodes[0].mediaURL
            _ = try await h.store.subscribe(feedURL: "http://127.0.0.1/art.xml", content: FeedContent(
                title: "Art", artworkURL: cover,
                items: [FeedItem(guid: "x", title: "Own art", enclosureURL: audio, artworkURL: broken)]))
            let key = try #require(ArtworkAddress.key(for: cover))
            let gone = try #require(ArtworkAddress.key(for: broken))
            // The fetches happen first through the server's own cache (ArtworkCacheTests covers
            // them): under a loaded parallel test run a first fetch can outlast the raw HTTP
            // client's 5 s read timeout, and this test is about the route.
            #expect(await h.server.artwork.image(key: key, size: 96) == .image(h.server.artwork.file(key, 96)))
            #expect(await h.server.artwork.image(key: gone, size: 96) == .original(broken))
            for size in ArtworkAddress.sizes {
                let response = try await h.http("/artwork/\(key)/\(size).jpg")
                #expect(response.status == 200, "\(size): \(response.status) \(response.text)")
                #expect(response.headers["content-type"] == "image/jpeg")
                #expect(response.headers["cache-control"] == "public, max-age=31536000, immutable")
                #expect(response.body.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG")
            }
            #expect(images.requests.filter { $0.target == "/cover.bmp" }.count == 1, "fetched once for every size")
            #expect(FileManager.default.fileExists(atPath: h.directory.file("artwork/\(key)/96.jpg").path),
                    "kept under the data folder")

            // Artwork that cannot be fetched: a redirect to the feed's own address, not cached.
            let redirect = try await h.http("/artwork/\(gone)/256.jpg")
            #expect(redirect.status == 302)
            #expect(redirect.headers["location"] == broken)
            #expect(redirect.headers["cache-control"] == "no-store")

            // Keys the library does not have, sizes not kept, malformed paths: 404.
            for path in ["/artwork/0123456789abcdef/96.jpg", "/artwork/\(key)/100.jpg", "/artwork/\(key)/96.png",
                         "/artwork/\(key)", "/artwork/XYZ/96.jpg", "/artwork/\(key)/96.jpg/more"] {
                #expect(try await h.http(path).status == 404, "\(path)")
            }
            #expect(images.requests.count == 2, "only the two known addresses were ever fetched")

            // The first paint names the kept copies.
            let page = try await h.http("/")
            #expect(page.text.contains("/artwork/\(key)/256.jpg"), "podcast tiles use the cache")
        }
    }
}
