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
