import Artwork
import EarshotCore
import Foundation
import TestSupport
import Testing

/// The artwork cache against a real loopback HTTP server, with real gdk-pixbuf decoding and
/// JPEG writing. Images come from `GeneratedImage` (a BMP written by hand), so nothing here
/// uses the code under test to make its fixtures.
@Suite(.serialized) struct ArtworkCacheTests {
    /// A cache whose library knows exactly `urls`; also counts lookups.
    private func cache(_ directory: TemporaryDirectory, knows urls: [String]) -> ArtworkCache {
        ArtworkCache(directory: directory.file("artwork")) { key in
            urls.first { ArtworkAddress.key(for: $0) == key }
        }
    }

    @Test func fetchesOnceAndKeepsEverySize() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/cover.bmp", .init(headers: ["Content-Type": "image/bmp"], body: GeneratedImage.bmp(width: 1400, height: 1400)))
        let url = server.url("/cover.bmp").absoluteString
        let key = try #require(ArtworkAddress.key(for: url))
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let artwork = cache(directory, knows: [url])

        // Several clients asking at once share one fetch.
        let answers = await withTaskGroup(of: ArtworkCache.Answer.self) { group in
            for size in ArtworkAddress.sizes + ArtworkAddress.sizes { group.addTask { await artwork.image(key: key, size: size) } }
            return await group.reduce(into: [ArtworkCache.Answer]()) { $0.append($1) }
        }
        #expect(answers.allSatisfy { if case .image = $0 { true } else { false } }, "\(answers)")
        #expect(server.requests.count == 1, "fetched once, not \(server.requests.count) times")
        for size in ArtworkAddress.sizes {
            let data = try Data(contentsOf: artwork.file(key, size))
            let (width, height) = try #require(JPEG.size(data), "\(size).jpg is a JPEG")
            #expect(width == size && height == size, "\(size): \(width)×\(height)")
            // The picture survived: left red, right blue (JPEG is lossy; the colours are clear).
            #expect(data.count > 500)
        }
        // Later requests come from disk: still one fetch.
        #expect(await artwork.image(key: key, size: 96) == .image(artwork.file(key, 96)))
        #expect(server.requests.count == 1)
        // A new cache on the same folder (a restart) fetches nothing either.
        let again = cache(directory, knows: [url])
        #expect(await again.image(key: key, size: 512) == .image(again.file(key, 512)))
        #expect(server.requests.count == 1)
    }

    @Test func smallAndOblongImagesAreNeverEnlargedAndKeepTheirShape() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/wide.bmp", .init(headers: ["Content-Type": "image/bmp"], body: GeneratedImage.bmp(width: 300, height: 150)))
        let url = server.url("/wide.bmp").absoluteString
        let key = try #require(ArtworkAddress.key(for: url))
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let artwork = cache(directory, knows: [url])
        _ = await artwork.image(key: key, size: 96)
        func size(_ kept: Int) throws -> [Int] {
            try JPEG.size(Data(contentsOf: artwork.file(key, kept))).map { [$0.0, $0.1] } ?? []
        }
        #expect(try size(96) == [96, 48])
        #expect(try size(256) == [256, 128])
        #expect(try size(512) == [300, 150], "not enlarged")
    }

    @Test func whatCannotBeFetchedOrReadAnswersTheOriginalAndIsNotRetriedAtOnce() async throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        server.set("/page.jpg", .init(text: "<html>not an image</html>", contentType: "text/html"))
        server.set("/drawing.svg", .init(text: #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#,
                                         contentType: "image/svg+xml"))
        let urls = ["/missing.jpg", "/page.jpg", "/drawing.svg"].map { server.url($0).absoluteString }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let artwork = cache(directory, knows: urls)
        for url in urls {
            let key = try #require(ArtworkAddress.key(for: url))
            #expect(await artwork.image(key: key, size: 256) == .original(url), "\(url)")
            #expect(!FileManager.default.fileExists(atPath: artwork.file(key, 256).path))
        }
        let fetched = server.requests.count
        #expect(fetched == 3)
        for url in urls { _ = await artwork.image(key: ArtworkAddress.key(for: url)!, size: 96) }
        #expect(server.requests.count == fetched, "a failure is remembered, not refetched on every request")
    }

    @Test func unknownKeysAndSizesAreRefused() async throws {
        let directory = TemporaryDirectory(), other = TemporaryDirectory()
        defer { directory.remove(); other.remove() }
        let artwork = cache(directory, knows: [])
        #expect(await artwork.image(key: "0123456789abcdef", size: 96) == .unknown)
        #expect(await artwork.image(key: "../../etc/passwd", size: 96) == .unknown)
        let known = cache(other, knows: ["http://127.0.0.1:9/a.jpg"])
        #expect(await known.image(key: ArtworkAddress.key(for: "http://127.0.0.1:9/a.jpg")!, size: 100) == .unknown)
    }
}

/// Reads a JPEG's dimensions from its start-of-frame marker.
enum JPEG {
    static func size(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
                let width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                return (width, height)
            }
            i += 2 + length
        }
        return nil
    }
}
