import EarshotCore
import Foundation

/// An episode's audio from a file of ours (a finished download, the bundled demo) for a browser's
/// `<audio>` (a phone taking the episode along): `Range` requests answered `206` a piece at a
/// time, so the phone can start anywhere and seek, and the server never reads a whole episode into
/// memory for one answer.
enum MediaFile {
    /// The most one answer carries: a browser asks again for what follows.
    static let maxPiece = 2 << 20

    /// The first range of a `Range: bytes=…` header, resolved against `size`: nil for none or one
    /// this server ignores (another unit, malformed: the whole file is answered), `.unsatisfiable`
    /// for one that starts past the end.
    enum Requested: Equatable {
        case range(ClosedRange<Int>)
        case unsatisfiable
    }

    static func requested(_ header: String?, size: Int) -> Requested? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), header.lowercased().hasPrefix("bytes=") else { return nil }
        let first = header.dropFirst(6).split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let parts = first.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            // "-N": the last N bytes.
            guard let suffix = Int(parts[1]), suffix > 0 else { return nil }
            guard size > 0 else { return .unsatisfiable }
            return .range(max(0, size - suffix)...(size - 1))
        }
        guard let start = Int(parts[0]), start >= 0 else { return nil }
        let end: Int
        if parts[1].isEmpty { end = size - 1 } else {
            guard let last = Int(parts[1]), last >= start else { return nil }
            end = min(last, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .range(start...end)
    }

    /// The answer for `path` with the request's `Range` header.
    static func response(path: String, contentType: String, range header: String?) throws -> HTTPResponse {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        let size = data.count
        var headers: [(String, String)] = [("accept-ranges", "bytes"), ("cache-control", "no-store")]
        switch requested(header, size: size) {
        case .unsatisfiable?:
            headers.append(("content-range", "bytes */\(size)"))
            return HTTPResponse(status: 416, contentType: contentType, headers: headers)
        case .range(let range)?:
            let end = min(range.upperBound, range.lowerBound + maxPiece - 1)
            headers.append(("content-range", "bytes \(range.lowerBound)-\(end)/\(size)"))
            return HTTPResponse(status: 206, contentType: contentType, headers: headers, body: data.subdata(in: range.lowerBound..<(end + 1)))
        case nil:
            // Mapped: the pages come from the file as the transport sends them, not from the heap.
            return HTTPResponse(status: 200, contentType: contentType, headers: headers, body: data)
        }
    }
}

extension EarshotServer {
    /// `GET /api/episodes/{id}/listen`: the episode's audio for a phone's own player — our copy
    /// (a finished download, the bundled demo) with `Range`, else `302` to the feed's address.
    func listenToEpisode(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.id()
        guard let episode = try await store.episode(id: id) else { throw HTTPError.notFound("no episode \(id)") }
        let url = episode.mediaURL
        let local = downloads?.localFiles.path(forMediaURL: url) ?? (url.hasPrefix("/") && !url.hasPrefix("//") ? files.file(for: url)?.path : nil)
        if let local {
            let type = episode.mediaType.hasPrefix("audio/") || episode.mediaType.hasPrefix("video/")
                ? episode.mediaType : StaticFiles.contentType(for: local)
            return try MediaFile.response(path: local, contentType: type, range: request.headers["range"])
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw HTTPError.notFound("this episode has no audio a browser can play")
        }
        return HTTPResponse(status: 302, headers: [("location", url), ("cache-control", "no-store")])
    }
}
