import FoundationEssentials

/// The checks a finished body must pass before it becomes an episode file, and the one before a
/// download starts. Each returns the failure, or nil when all is well.
public enum DownloadChecks {
    /// The size on disk against what was promised: the server's length when it sent one; else the
    /// feed's enclosure length when it gives one. Only then, because feeds' lengths are often stale
    /// or rough (hosts insert ads per request), while a server's length describes these very bytes.
    public static func size(written: Int64, serverTotal: Int64?, enclosureLength: Int64) -> DownloadFailure? {
        if written == 0 { return .empty }
        if let serverTotal {
            return written == serverTotal ? nil : .size(got: written, expected: serverTotal, source: "the server said")
        }
        if enclosureLength > 0, written != enclosureLength {
            return .size(got: written, expected: enclosureLength, source: "the feed says")
        }
        return nil
    }

    /// Whether the first bytes of a file are an HTML document (after a byte-order mark and white
    /// space): `<!DOCTYPE` or `<html`, any case. No audio format starts like that.
    public static func looksLikeHTML<Bytes: Collection<UInt8>>(_ head: Bytes) -> Bool {
        var bytes = Array(head.prefix(1024))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let text = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            .prefix(9).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 } // ASCII lowercase
        return text.starts(with: Array("<!doctype".utf8)) || text.starts(with: Array("<html".utf8))
    }

    /// Room to finish: `free` bytes on the disk must cover the `remaining` bytes (what is not yet
    /// on disk; 0 while unknown) plus `reserve`, which is always left free for everything else.
    public static func diskSpace(free: Int64, remaining: Int64, reserve: Int64) -> DownloadFailure? {
        let needed = max(0, remaining)
        return free >= needed + reserve ? nil : .diskSpace(free: free, needed: needed, reserve: reserve)
    }
}

/// Where a download's file goes, relative to the downloads folder: `<podcast id>/<episode id>.<ext>`.
/// Numbers only, so nothing a feed says can steer the path; the extension tells mpv and people the format.
public enum DownloadFile {
    /// Extensions kept from the enclosure URL; anything else is named from the MIME type.
    static let mediaExtensions: Set<String> = [
        "mp3", "m4a", "m4b", "mp4", "aac", "ogg", "oga", "opus", "wav", "flac", "webm", "mka", "mkv", "mov", "m4v", "3gp",
    ]
    static let byMIMEType: [String: String] = [
        "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/mp4": "m4a", "audio/x-m4a": "m4a", "audio/m4a": "m4a",
        "audio/aac": "aac", "audio/ogg": "ogg", "audio/opus": "opus", "audio/wav": "wav", "audio/x-wav": "wav",
        "audio/flac": "flac", "audio/webm": "webm", "video/mp4": "mp4", "video/webm": "webm", "video/quicktime": "mov",
    ]

    /// "12/345.mp3".
    public static func relativePath(podcastID: Int64, episodeID: Int64, url: String, mimeType: String) -> String {
        "\(podcastID)/\(episodeID).\(fileExtension(url: url, mimeType: mimeType))"
    }

    /// The enclosure URL's extension when it is a media one, else the MIME type's, else "media".
    public static func fileExtension(url: String, mimeType: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "#").first ?? $0 } ?? ""
        let name = path.split(separator: "/").last ?? ""
        if let dot = name.lastIndex(of: ".") {
            let ext = name[name.index(after: dot)...].lowercased()
            if mediaExtensions.contains(ext) { return ext }
        }
        let type = mimeType.split(separator: ";").first.map { $0.lowercased().filter { !$0.isWhitespace } } ?? ""
        return byMIMEType[type] ?? "media"
    }
}
