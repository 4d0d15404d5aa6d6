import FoundationEssentials

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
