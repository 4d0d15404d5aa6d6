import Foundation

/// Serves files under one folder (`Public/`), and nothing outside it.
public struct StaticFiles: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root.standardizedFileURL.resolvingSymlinksInPath() }

    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "xml": "application/xml; charset=utf-8", "txt": "text/plain; charset=utf-8",
        "md": "text/plain; charset=utf-8", "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "webp": "image/webp", "ico": "image/x-icon", "gif": "image/gif",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "ogg": "audio/ogg", "opus": "audio/ogg", "wav": "audio/wav",
        "webmanifest": "application/manifest+json", "woff2": "font/woff2",
    ]

    /// The MIME type for a file name; unknown types download rather than render.
    public static func contentType(for path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return types[ext] ?? "application/octet-stream"
    }

    /// The file a URL path names, or nil when it does not exist or would leave the root.
    public func file(for path: String) -> URL? {
        // lws has already percent-decoded the path; refuse anything that still climbs or hides.
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") || $0.contains("\\") || $0.contains("\0") })
        else { return nil }
        let candidate = parts.reduce(root) { $0.appendingPathComponent(String($1)) }.resolvingSymlinksInPath()
        guard candidate.path.hasPrefix(root.path + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { return nil }
        return candidate
    }

    /// A response for a GET: 200 with ETag, 304 when the client's copy is current, nil when not found.
    public func respond(to request: HTTPRequest) -> HTTPResponse? {
        guard let url = file(for: request.path),
              let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              let size = attributes[.size] as? Int,
              let modified = attributes[.modificationDate] as? Date
        else { return nil }
        let etag = "\"\(String(size, radix: 16))-\(String(Int(modified.timeIntervalSince1970 * 1000), radix: 16))\""
        // no-cache means "revalidate every time": edits show up at once, unchanged files cost a 304.
        let headers = [("etag", etag), ("cache-control", "no-cache")]
        if request.headers["if-none-match"] == etag {
            return HTTPResponse(status: 304, contentType: Self.contentType(for: url.path), headers: headers)
        }
        guard let body = try? Data(contentsOf: url) else { return nil }
        return HTTPResponse(status: 200, contentType: Self.contentType(for: url.path), headers: headers, body: body)
    }
}
