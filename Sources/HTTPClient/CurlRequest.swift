import CCurl
import EarshotCore
import Foundation

/// One HTTP GET by libcurl's easy interface, blocking the calling thread: the engine curl(1) runs
/// on, with its bytes handed straight to `onBody` in chunks of up to 512 KiB. (URLSession on Linux
/// wraps the same libcurl but delivers 16 KiB chunks through dispatch queues: it took 2.6× curl's CPU
/// per byte and reached 55 % of its loopback throughput, under this project's 80 % budget; and on
/// Linux it takes no CA file, so a private CA could not reach feeds.)
///
/// The only file that imports `CCurl`. Redirects are followed (at most 10, http and https only).
/// Certificates are always verified, against `HTTPTrust.caFile` (`--ca-file`) or else the system's
/// roots. Downloads send no `Accept-Encoding`, so the body is the file's bytes exactly.
package final class CurlRequest {
    package struct Options: Sendable {
        package var url: String
        /// Extra request headers, "Name: value".
        package var headers: [String] = []
        package var userAgent = Earshot.userAgent
        package var connectTimeout = 30
        /// Seconds under 1 byte/s before the transfer counts as stalled (a transient failure).
        package var stallTimeout = 60
        package var maxRedirects = 10
        /// libcurl's receive buffer; 512 KiB is its largest.
        package var bufferSize = 512 * 1024
        /// Seconds with no byte received (headers or body) before the request fails as timed out;
        /// nil: only `stallTimeout`. (libcurl's low-speed check averages over a window, so a burst
        /// followed by silence would take several times its limit to trip.)
        package var idleTimeout: TimeInterval?
        /// Ask for gzip/deflate/brotli and hand `onBody` the decoded bytes (feeds; not downloads).
        package var compressed = false

        package init(url: String) { self.url = url }
    }

    /// How a perform ended, in libcurl's terms.
    package enum Ending: Equatable, Sendable {
        case completed
        /// `onBody` or `shouldStop` asked to stop.
        case aborted
        case failed(CurlFailure)
    }

    package let options: Options
    /// Called with each piece of the final response's body and that response's headers; false stops.
    package var onBody: (UnsafeRawBufferPointer, DownloadResponse) -> Bool = { _, _ in true }
    /// Polled while bytes flow and while they do not (about once a second at least): true stops.
    package var shouldStop: () -> Bool = { false }

    /// The headers of the response being received (the last one, after redirects).
    package private(set) var response: DownloadResponse?
    /// The status of every response on the way, redirects first (the last is `response`'s).
    package private(set) var statuses: [Int] = []
    /// Where the last request went, after redirects (libcurl's effective URL).
    package private(set) var effectiveURL: String?
    private var stopRequested = false
    private var lastActivity = Date()
    private var idle = false

    private static let globalInit: Void = { _ = earshot_curl_global_init() }()

    package init(_ options: Options) { self.options = options }

    /// Runs the request to its end on this thread.
    package func perform() -> Ending {
        _ = Self.globalInit
        // Declared before the handle, so they outlive it (defers run last-in, first-out).
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in options.headers { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }
        guard let handle = curl_easy_init() else { return .failed(CurlFailure(.other, detail: "libcurl could not start")) }
        defer { curl_easy_cleanup(handle) }

        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = earshot_curl_set_string(handle, CURLOPT_URL, options.url)
        _ = earshot_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = earshot_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = earshot_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        _ = earshot_curl_set_long(handle, CURLOPT_MAXREDIRS, options.maxRedirects)
        _ = earshot_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = earshot_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, options.connectTimeout)
        _ = earshot_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = earshot_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, options.stallTimeout)
        _ = earshot_curl_set_long(handle, CURLOPT_BUFFERSIZE, options.bufferSize)
        _ = earshot_curl_set_string(handle, CURLOPT_USERAGENT, options.userAgent)
        // Certificates are always verified (libcurl's default, stated): a bad one fails the download.
        _ = earshot_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        _ = earshot_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = HTTPTrust.caFile { _ = earshot_curl_set_string(handle, CURLOPT_CAINFO, caFile) }
        // "": every encoding this libcurl decodes; the body handed on is decoded.
        if options.compressed { _ = earshot_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "") }
        _ = earshot_curl_set_list(handle, CURLOPT_HTTPHEADER, list)
        _ = earshot_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = earshot_curl_set_data_function(handle, CURLOPT_HEADERFUNCTION, curlHeader)
        _ = earshot_curl_set_pointer(handle, CURLOPT_HEADERDATA, me)
        _ = earshot_curl_set_data_function(handle, CURLOPT_WRITEFUNCTION, curlWrite)
        _ = earshot_curl_set_pointer(handle, CURLOPT_WRITEDATA, me)
        _ = earshot_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = earshot_curl_set_progress_function(handle, curlProgress)
        _ = earshot_curl_set_pointer(handle, CURLOPT_XFERINFODATA, me)

        lastActivity = Date()
        let code = curl_easy_perform(handle)
        var effective: UnsafeMutablePointer<CChar>?
        if earshot_curl_get_string(handle, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK, let effective {
            effectiveURL = String(cString: effective)
        }
        if idle {
            return .failed(CurlFailure(.timedOut, detail: "nothing received for \(Int(options.idleTimeout ?? 0)) s"))
        }
        if stopRequested { return .aborted }
        if code == CURLE_OK { return .completed }
        let detail = String(cString: errorBuffer)
        return .failed(CurlFailure(Self.kind(code), detail: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail))
    }

    private static func kind(_ code: CURLcode) -> CurlFailure.Kind {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: .notHTTP
        case CURLE_TOO_MANY_REDIRECTS: .tooManyRedirects
        case CURLE_PEER_FAILED_VERIFICATION: .certificateNotTrusted
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE: .secureConnectionFailed
        case CURLE_COULDNT_RESOLVE_HOST: .hostNotFound
        case CURLE_COULDNT_CONNECT: .cannotConnect
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_PARTIAL_FILE: .closedEarly
        case CURLE_BAD_CONTENT_ENCODING: .badEncoding
        default: .other
        }
    }

    // MARK: Callbacks (on the performing thread)

    fileprivate func header(_ line: String) {
        lastActivity = Date()
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect, the next hop's): start over.
            let parts = line.split(separator: " ", maxSplits: 2)
            let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            // 1xx interim answers (100 Continue) are not a response of their own.
            if (100...199).contains(status) { return }
            response = DownloadResponse(status: status)
            statuses.append(status)
            return
        }
        guard let colon = line.firstIndex(of: ":"), response != nil else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        switch name {
        case "content-length": response?.contentLength = Int64(value)
        case "content-range": response?.contentRange = value
        case "content-type": response?.contentType = value
        case "etag": response?.etag = value
        case "last-modified": response?.lastModified = value
        default: break
        }
    }

    fileprivate func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = Date()
        guard !stopRequested, let response else { return false }
        if shouldStop() || !onBody(bytes, response) {
            stopRequested = true
            return false
        }
        return true
    }

    fileprivate func progress() -> Bool {
        if !stopRequested, shouldStop() { stopRequested = true }
        if !stopRequested, let limit = options.idleTimeout, Date().timeIntervalSince(lastActivity) > limit {
            idle = true
            stopRequested = true
        }
        return !stopRequested
    }
}

private func curlHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let length = size * count
    let request = Unmanaged<CurlRequest>.fromOpaque(context).takeUnretainedValue()
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    request.header(line.trimmingCharacters(in: .newlines))
    return length
}

private func curlWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let length = size * count
    let request = Unmanaged<CurlRequest>.fromOpaque(context).takeUnretainedValue()
    // Returning anything but `length` makes libcurl stop with CURLE_WRITE_ERROR.
    return request.body(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func curlProgress(_ context: UnsafeMutableRawPointer?, _: curl_off_t, _: curl_off_t, _: curl_off_t, _: curl_off_t) -> Int32 {
    guard let context else { return 1 }
    return Unmanaged<CurlRequest>.fromOpaque(context).takeUnretainedValue().progress() ? 0 : 1
}
