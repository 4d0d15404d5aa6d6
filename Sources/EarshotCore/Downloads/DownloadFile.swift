import FoundationEssentials

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
