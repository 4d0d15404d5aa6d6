import Artwork
import EarshotCore
import Foundation
import Library

extension EarshotServer {
    /// The cache lives beside the library file (the data folder), in `artwork/`.
    static func makeArtworkCache(store: LibraryStore) -> ArtworkCache {
        let folder = URL(fileURLWithPath: store.path).deletingLastPathComponent().appendingPathComponent("artwork", isDirectory: true)
        return ArtworkCache(directory: folder) { [store] key in (try? await store.artworkURL(forKey: key)) ?? nil }
    }

    /// `GET /artwork/{key}/{size}.jpg`: the kept JPEG, cached by browsers for a year (the address
    /// names one picture for good: new artwork has a new address, hence a new key). When the
    /// artwork cannot be fetched or read, a redirect to the feed's own address (not cached); a
    /// key the library does not know is 404. Nil for any other path.
    func artworkResponse(_ request: HTTPRequest) async -> HTTPResponse? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "artwork" else { return nil }
        guard ArtworkAddress.isKey(parts[2]), parts[3].hasSuffix(".jpg"),
              let size = Int(parts[3].dropLast(4)), ArtworkAddress.sizes.contains(size) else {
            return .error(404, "no such artwork: \(request.path)")
        }
        switch await artwork.image(key: String(parts[2]), size: size) {
        case .image(let file):
            guard let data = try? Data(contentsOf: file) else { return .error(404, "no such artwork: \(request.path)") }
            return HTTPResponse(status: 200, contentType: "image/jpeg",
                                headers: [("cache-control", "public, max-age=31536000, immutable")], body: data)
        case .original(let url):
            return HTTPResponse(status: 302, headers: [("location", url), ("cache-control", "no-store")])
        case .unknown:
            return .error(404, "no such artwork: \(request.path)")
        }
    }
}

extension EarshotServer {
    /// What an `<img>` loads for artwork at `size`: the kept copy for http(s) artwork (made on
    /// the first request), the address itself for our own files ("/demo/…"). The web client
    /// derives the same (Public/js/core/artwork-url.js).
    static func artworkSource(_ url: String?, size: Int) -> String? {
        guard let url else { return nil }
        return ArtworkAddress.path(for: url).map { "\($0)/\(ArtworkAddress.size(atLeast: size)).jpg" } ?? url
    }
}
