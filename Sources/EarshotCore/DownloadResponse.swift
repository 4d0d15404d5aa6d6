import FoundationEssentials

/// What a server answered to a download request, as far as deciding what to do with the body goes.
public struct DownloadResponse: Sendable, Equatable {
    public var status: Int
    /// `Content-Length` of this response's body.
    public var contentLength: Int64?
    public var contentRange: String?
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?

    public init(status: Int, contentLength: Int64? = nil, contentRange: String? = nil, contentType: String? = nil,
                etag: String? = nil, lastModified: String? = nil) {
        self.status = status; self.contentLength = contentLength; self.contentRange = contentRange
        self.contentType = contentType; self.etag = etag; self.lastModified = lastModified
    }

    /// What to do with the body (see `DownloadResponse.plan`).
    public enum Plan: Sendable, Equatable {
        /// 206 from the requested offset: keep the partial file and write after it. `total`: the whole size.
        case append(total: Int64?)
        /// 200: this is the whole file from byte 0; the partial file (if any) is dropped.
        case replace(total: Int64?)
        /// 416 and the partial file is already the whole file.
        case complete(total: Int64)
        /// The range did not fit (416, or a 206 from elsewhere): drop the partial file and ask for all of it.
        case restart
        case fail(DownloadFailure)
    }

    /// Decides what to do with this response to a request that asked for bytes from `offset` on
    /// (0: no `Range` sent). A changed file on the server comes back as 200 (its `If-Range` did
    /// not match): it replaces the partial file, so two versions are never spliced together.
    public func plan(requestedOffset offset: Int64) -> Plan {
        switch status {
        case 200:
            if isHTML { return .fail(.notAudio) }
            return .replace(total: contentLength)
        case 206:
            if isHTML { return .fail(.notAudio) }
            guard let range = ContentRange(contentRange), range.first == offset else { return .restart }
            return .append(total: range.total ?? contentLength.map { offset + $0 })
        case 416:
            if offset > 0, let total = ContentRange(contentRange)?.total, total == offset { return .complete(total: total) }
            return offset > 0 ? .restart : .fail(.status(416))
        default:
            return .fail(.status(status))
        }
    }

    /// `text/html` or XHTML by its content type: a page, not an episode.
    public var isHTML: Bool {
        guard let type = contentType?.split(separator: ";").first?.lowercased() else { return false }
        let bare = type.filter { !$0.isWhitespace }
        return bare == "text/html" || bare == "application/xhtml+xml"
    }
}

/// `Content-Range: bytes first-last/total` (total may be `*`), or `bytes */total` on a 416.
public struct ContentRange: Sendable, Equatable {
    public var first: Int64?
    public var last: Int64?
    public var total: Int64?

    public init?(_ header: String?) {
        guard let header else { return nil }
        let text = header.lowercased().filter { !$0.isWhitespace }
        guard text.hasPrefix("bytes") else { return nil }
        let spec = text.dropFirst(5)
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        if halves[1] != "*" {
            guard let total = Int64(halves[1]), total >= 0 else { return nil }
            self.total = total
        }
        if halves[0] == "*" { return }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else { return nil }
        self.first = first
        self.last = last
    }
}

/// Whether a partial file may be continued: only against a strong validator, sent as `If-Range`, so
/// a server whose file changed answers 200 with the new file instead of bytes of it to splice onto
/// the old one. A weak ETag (`W/"…"`) cannot be used in `If-Range` (RFC 9110 §13.1.5).
public enum DownloadValidator {
    /// The `If-Range` value: a strong ETag, else the Last-Modified date; nil when there is neither.
    public static func ifRange(etag: String?, lastModified: String?) -> String? {
        if let etag = etag?.trimmed, !etag.isEmpty, !etag.hasPrefix("W/"), !etag.hasPrefix("w/") { return etag }
        if let date = lastModified?.trimmed, !date.isEmpty { return date }
        return nil
    }

    /// Where the next request starts: after the partial file when it can be resumed, else 0.
    public static func resumeOffset(partialBytes: Int64, etag: String?, lastModified: String?) -> Int64 {
        partialBytes > 0 && ifRange(etag: etag, lastModified: lastModified) != nil ? partialBytes : 0
    }
}

fileprivate extension String {
    /// Without leading and trailing spaces and tabs (no CharacterSet: EarshotCore stays on FoundationEssentials).
    var trimmed: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
