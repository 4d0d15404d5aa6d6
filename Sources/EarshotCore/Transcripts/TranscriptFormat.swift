import FoundationEssentials

/// The file formats a Podcasting 2.0 `podcast:transcript` links to.
public enum TranscriptFormat: String, Sendable {
    /// WebVTT (`text/vtt`).
    case webvtt
    /// SubRip (`application/x-subrip`).
    case srt
    /// The Podcasting 2.0 JSON transcript (`application/json`).
    case json
    /// The namespace's HTML transcript (`text/html`).
    case html
    /// Plain text (`text/plain`).
    case text

    /// The format of a transcript file: by its MIME type (parameters such as `;charset=` ignored),
    /// else by its address's extension (query and fragment ignored), else by its first bytes.
    ///
    /// The feed's `type` attribute or the server's `Content-Type` is the usual `mimeType`; an
    /// unknown or generic one (`application/octet-stream`) falls through to the next clue.
    public static func detect(mimeType: String?, url: String?, data: Data) -> TranscriptFormat {
        if let mimeType, let format = byMIMEType[essence(ofMIMEType: mimeType)] { return format }
        if let url, let format = byExtension[fileExtension(of: url)] { return format }
        return sniff(data)
    }

    static let byMIMEType: [String: TranscriptFormat] = [
        "text/vtt": .webvtt,
        "application/x-subrip": .srt, "application/srt": .srt, "text/srt": .srt,
        "application/json": .json,
        "text/html": .html,
        "text/plain": .text,
    ]

    static let byExtension: [String: TranscriptFormat] = [
        "vtt": .webvtt, "srt": .srt, "json": .json, "html": .html, "htm": .html, "txt": .text,
    ]

    /// `Text/VTT; charset=utf-8` → `text/vtt`.
    static func essence(ofMIMEType type: String) -> String {
        let essence = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(essence.filter { $0 != " " && $0 != "\t" }).lowercased()
    }

    /// The lowercased extension of the address's last path segment, "" when it has none.
    static func fileExtension(of url: String) -> String {
        let path = url.prefix { $0 != "?" && $0 != "#" }
        // The segment after the last "/", so "https://example.com" (no path) has no extension.
        let afterScheme = path.firstRange(of: "://").map { path[$0.upperBound...] } ?? path[...]
        guard let slash = afterScheme.lastIndex(of: "/") else { return "" }
        let segment = afterScheme[afterScheme.index(after: slash)...]
        guard let dot = segment.lastIndex(of: ".") else { return "" }
        return String(segment[segment.index(after: dot)...]).lowercased()
    }

    /// The format the first bytes look like: a `WEBVTT` header (after an optional byte order
    /// mark), JSON's `{`, markup's `<`, an SRT cue number followed by its timing line; else text.
    static func sniff(_ data: Data) -> TranscriptFormat {
        // 4 KB is plenty for a header, a cue number and a timing line.
        var head = String(decoding: data.prefix(4096), as: UTF8.self)
        if head.hasPrefix("\u{FEFF}") { head.removeFirst() }
        if head.hasPrefix("WEBVTT") {
            let after = head.unicodeScalars.dropFirst(6).first
            if after == nil || after == " " || after == "\t" || after == "\n" || after == "\r" { return .webvtt }
        }
        switch head.unicodeScalars.first(where: { !$0.properties.isWhitespace }) {
        case "{": return .json
        case "<": return .html
        default: break
        }
        // Lines split on the scalars: String's Characters would join "\r\n" into one.
        let lines = head.unicodeScalars.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" }
            .map { String(String.UnicodeScalarView($0)).trimmed }
            .filter { !$0.isEmpty }
        if lines.count >= 2, lines[0].allSatisfy(\.isASCIIDigit), lines[1].contains("-->") { return .srt }
        return .text
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
