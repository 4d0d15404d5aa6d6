import Artwork
import EarshotCore
import Foundation
import Library

extension EarshotServer {
    /// The cache lives beside the library file (the data folder), in `artwork/`. A key names the
    /// artwork of something in the library or of a recent directory result; no other address can
    /// be fetched through it.
    static func makeArtworkCache(store: LibraryStore, directory: DirectoryDesk) -> ArtworkCache {
        let folder = URL(fileURLWithPath: store.path).deletingLastPathComponent().appendingPathComponent("artwork", isDirectory: true)
        return ArtworkCache(directory: folder) { [store, directory] key in
            if let url = (try? await store.artworkURL(forKey: key)) ?? nil { return url }
            return await directory.artworkURL(forKey: key)
        }
    }

    /// `GET /artwork/{key}/{size}.jpg`: the kept JPEG, cached by browsers for a year (the address
    /// names one picture for good: new artwork has a new address, hence a new key). When the
    /// artwork cannot be fetched or read, a redirect to the feed's own address (not cached); a
    /// key the library does not know is 404.
    func artworkImage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let missing = HTTPError.notFound("no such artwork: \(request.path)")
        guard let key = request.parameters["key"], let file = request.parameters["file"],
              ArtworkAddress.isKey(Substring(key)), file.hasSuffix(".jpg"),
              let size = Int(file.dropLast(4)), ArtworkAddress.sizes.contains(size) else { throw missing }
        switch await artwork.image(key: key, size: size) {
        case .image(let file):
            let data: Data
            do { data = try Data(contentsOf: file) } catch {
                Log.warning("artwork", "could not read \(file.path): \(error)")
                throw missing
            }
            return HTTPResponse(status: 200, contentType: "image/jpeg",
                                headers: [("cache-control", "public, max-age=31536000, immutable")], body: data)
        case .original(let url):
            return HTTPResponse(status: 302, headers: [("location", url), ("cache-control", "no-store")])
        case .unknown:
            throw missing
        }
    }

    /// A file under `Public/` (the rows of the table say which folders), 304 when the client's copy is current.
    func staticFile(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let response = files.respond(to: request) else { throw HTTPError.notFound("no such file: \(request.path)") }
        return response
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
