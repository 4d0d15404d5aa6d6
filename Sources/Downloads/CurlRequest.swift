import CCurl
import EarshotCore
import Foundation

/// One HTTP GET by libcurl's easy interface, blocking the calling thread: the engine curl(1) runs
/// on, with its bytes handed straight to `onBody` in chunks of up to 512 KiB. (URLSession on Linux
/// wraps the same libcurl but delivers 16 KiB chunks through dispatch queues: it took 2.6× curl's CPU
/// per byte and reached 55 % of its loopback throughput, under this project's 80 % budget.)
///
/// The only file that imports `CCurl`. Redirects are followed (at most 10, http and https only);
/// no `Accept-Encoding` is sent, so the body is the file's bytes exactly.
final class CurlRequest {
    struct Options {
        var url: String
        /// Extra request headers, "Name: value".
        var headers: [String] = []
        var userAgent = Earshot.userAgent
        var connectTimeout = 30
        /// Seconds under 1 byte/s before the transfer counts as stalled (a transient failure).
        var stallTimeout = 60
        var maxRedirects = 10
        /// libcurl's receive buffer; 512 KiB is its largest.
        var bufferSize = 512 * 1024
        /// Verify HTTPS against this PEM bundle rather than libcurl's default (the system's).
        var caFile: String?
    }

    /// How a perform ended, in libcurl's terms.
    enum Ending: Equatable {
        case completed
        /// `onBody` or `shouldStop` asked to stop.
        case aborted
        case failed(DownloadFailure)
    }

    let options: Options
    /// Called with each piece of the final response's body and that response's headers; false stops.
    var onBody: (UnsafeRawBufferPointer, DownloadResponse) -> Bool = { _, _ in true }
    /// Polled while bytes flow and while they do not (about once a second at least): true stops.
    var shouldStop: () -> Bool = { false }

    /// The headers of the response being received (the last one, after redirects).
    private(set) var response: DownloadResponse?
    private var stopRequested = false

    private static let globalInit: Void = { _ = earshot_curl_global_init() }()

    init(_ options: Options) { self.options = options }

    /// Runs the request to its end on this thread.
    func perform() -> Ending {
        _ = Self.globalInit
        // Declared before the handle, so they outlive it (defers run last-in, first-out).
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in options.headers { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }
        guard let handle = curl_easy_init() else { return .failed(.network("libcurl could not start")) }
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
        if let caFile = options.caFile { _ = earshot_curl_set_string(handle, CURLOPT_CAINFO, caFile) }
        _ = earshot_curl_set_list(handle, CURLOPT_HTTPHEADER, list)
        _ = earshot_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = earshot_curl_set_data_function(handle, CURLOPT_HEADERFUNCTION, curlHeader)
        _ = earshot_curl_set_pointer(handle, CURLOPT_HEADERDATA, me)
        _ = earshot_curl_set_data_function(handle, CURLOPT_WRITEFUNCTION, curlWrite)
        _ = earshot_curl_set_pointer(handle, CURLOPT_WRITEDATA, me)
        _ = earshot_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = earshot_curl_set_progress_function(handle, curlProgress)
        _ = earshot_curl_set_pointer(handle, CURLOPT_XFERINFODATA, me)

        let code = curl_easy_perform(handle)
        if stopRequested { return .aborted }
        if code == CURLE_OK { return .completed }
        let detail = String(cString: errorBuffer)
        return .failed(Self.failure(code, detail: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail))
    }

    /// libcurl's error as the listener reads it, transient or not.
    private static func failure(_ code: CURLcode, detail: String) -> DownloadFailure {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return DownloadFailure("not an http(s) address (or redirected to one that is not): \(detail)", transient: false)
        case CURLE_TOO_MANY_REDIRECTS:
            return DownloadFailure("too many redirects", transient: false)
        case CURLE_PEER_FAILED_VERIFICATION:
            return DownloadFailure("certificate not trusted: \(detail)", transient: false)
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
            return DownloadFailure("secure connection failed: \(detail)", transient: false)
        case CURLE_COULDNT_RESOLVE_HOST: return .network("host not found (\(detail))")
        case CURLE_COULDNT_CONNECT: return .network("cannot connect (\(detail))")
        case CURLE_OPERATION_TIMEDOUT: return .network("stalled or timed out (\(detail))")
        case CURLE_PARTIAL_FILE: return .network("the connection closed before the end (\(detail))")
        default: return .network(detail)
        }
    }

    // MARK: Callbacks (on the performing thread)

    fileprivate func header(_ line: String) {
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect, the next hop's): start over.
            let parts = line.split(separator: " ", maxSplits: 2)
            response = DownloadResponse(status: parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
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
        guard !stopRequested, let response else { return false }
        if shouldStop() || !onBody(bytes, response) {
            stopRequested = true
            return false
        }
        return true
    }

    fileprivate func progress() -> Bool {
        if !stopRequested, shouldStop() { stopRequested = true }
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
