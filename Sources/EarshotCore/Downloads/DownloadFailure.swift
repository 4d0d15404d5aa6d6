import FoundationEssentials

/// Why a download attempt failed, in words for the listener, and whether trying again later may help.
public struct DownloadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Network trouble and busy servers pass; a 404, a web page or a full disk do not fix themselves.
    public var isTransient: Bool

    public init(_ message: String, transient: Bool) {
        self.message = message
        self.isTransient = transient
    }

    public var description: String { message }

    /// The connection failed, stalled or broke off (what is on disk stays for the next attempt).
    public static func network(_ reason: String) -> DownloadFailure {
        DownloadFailure("network: \(reason)", transient: true)
    }

    /// The server answered with an error status. 408, 429 and 5xx are worth retrying.
    public static func status(_ code: Int) -> DownloadFailure {
        let transient = code == 408 || code == 429 || (500...599).contains(code)
        return DownloadFailure("the server answered \(code)\(reasonPhrase(code).map { " \($0)" } ?? "")", transient: transient)
    }

    /// A web page (a login wall, an error page, a parked domain) instead of the episode.
    public static let notAudio = DownloadFailure("the server sent a web page, not audio", transient: false)

    /// The whole body arrived but is not the size it should be.
    public static func size(got: Int64, expected: Int64, source: String) -> DownloadFailure {
        DownloadFailure("the file is \(ByteCount.text(got)) (\(got) bytes) but \(source) \(expected) bytes", transient: false)
    }

    /// An empty body: nothing to keep.
    public static let empty = DownloadFailure("the server sent an empty file", transient: false)

    /// Not enough room to finish; the partial file stays for when there is.
    public static func diskSpace(free: Int64, needed: Int64, reserve: Int64) -> DownloadFailure {
        DownloadFailure("not enough disk space: \(ByteCount.text(free)) free, \(ByteCount.text(needed)) more needed "
                        + "(and \(ByteCount.text(reserve)) is kept free); free some space and retry", transient: false)
    }

    /// The disk filled up while writing: the partial file was removed to give the space back.
    public static let diskFull = DownloadFailure(
        "disk full: the download did not fit, and its partial file was removed to give the space back; free some space and retry",
        transient: false)

    /// Writing the file failed (a permission changed, an I/O error).
    public static func disk(_ reason: String) -> DownloadFailure {
        DownloadFailure("cannot write the file: \(reason)", transient: false)
    }

    /// An address (or a redirect's) that is not http or https.
    public static func address(_ url: String) -> DownloadFailure {
        DownloadFailure("not an http(s) address: \(url.prefix(80))", transient: false)
    }

    static func reasonPhrase(_ code: Int) -> String? {
        switch code {
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: nil
        }
    }
}
