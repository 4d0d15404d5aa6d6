import Feeds
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One fetch: a session of its own whose delegate streams the body in, so an oversized body is cut off
/// as soon as it passes the limit instead of after it has all arrived.
///
/// Delegate callbacks arrive on the session's serial queue; the lock guards the state against the
/// starting thread as well.
final class FetchTask: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let request: URLRequest
    private let maximumBytes: Int
    private let lock = NSLock()
    private var body = Data()
    private var response: HTTPURLResponse?
    private var failure: FeedError?
    private var allRedirectsPermanent = true
    private var redirected = false
    private var continuation: CheckedContinuation<FeedFetcher.Response, any Error>?

    init(request: URLRequest, maximumBytes: Int) {
        self.request = request
        self.maximumBytes = maximumBytes
    }

    private var urlString: String { request.url?.absoluteString ?? "" }

    func run() async throws -> FeedFetcher.Response {
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.withLock { self.continuation = continuation }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let disposition: URLSession.ResponseDisposition = lock.withLock {
            guard let http = response as? HTTPURLResponse else {
                failure = .network(url: urlString, reason: "not an HTTP response")
                return .cancel
            }
            self.response = http
            let location = http.url?.absoluteString ?? urlString
            if http.statusCode >= 400 {
                failure = .httpStatus(http.statusCode, url: location)
                return .cancel
            }
            if http.expectedContentLength > Int64(maximumBytes) {
                failure = .tooLarge(url: location, limit: maximumBytes)
                return .cancel
            }
            return .allow
        }
        completionHandler(disposition)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge: Bool = lock.withLock {
            guard failure == nil else { return false }
            body.append(data)
            if body.count > maximumBytes {
                failure = .tooLarge(url: response?.url?.absoluteString ?? urlString, limit: maximumBytes)
                body = Data()
                return true
            }
            return false
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let allowed: Bool = lock.withLock {
            redirected = true
            if response.statusCode != 301 && response.statusCode != 308 { allRedirectsPermanent = false }
            guard let target = request.url, FeedFetcher.isFetchable(target) else {
                failure = .invalidURL(request.url?.absoluteString ?? "(redirect without a location)")
                return false
            }
            return true
        }
        if allowed {
            completionHandler(request)
        } else {
            completionHandler(nil)
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = lock.withLock { () -> (CheckedContinuation<FeedFetcher.Response, any Error>?, Result<FeedFetcher.Response, any Error>) in
            defer { self.continuation = nil }
            return (self.continuation, outcome(error: error))
        }
        continuation?.resume(with: result)
    }

    /// Called under the lock once the task is over.
    private func outcome(error: (any Error)?) -> Result<FeedFetcher.Response, any Error> {
        if let failure { return .failure(failure) }
        if let error {
            let reason = (error as? URLError).map(Self.describe) ?? error.localizedDescription
            return .failure(FeedError.network(url: urlString, reason: reason))
        }
        guard let response, let finalURL = response.url ?? request.url else {
            return .failure(FeedError.network(url: urlString, reason: "no response"))
        }
        let notModified = response.statusCode == 304
        return .success(FeedFetcher.Response(
            data: notModified ? Data() : body,
            finalURL: finalURL,
            etag: response.value(forHTTPHeaderField: "ETag"),
            lastModified: response.value(forHTTPHeaderField: "Last-Modified"),
            notModified: notModified,
            permanentURL: redirected && allRedirectsPermanent ? finalURL : nil))
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "connection refused"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .notConnectedToInternet, .networkConnectionLost: return "network unavailable"
        case .cancelled: return "cancelled"
        // FoundationNetworking's libcurl verifies against the system's roots: one that fails
        // (unknown issuer, expired, another host's) comes back as one of these.
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid:
            return "certificate not trusted (\(error.localizedDescription))"
        default:
            // libcurl's own words reach us under other codes too (an unknown issuer, an expired
            // certificate, one for another host).
            let text = error.localizedDescription
            let certificate = ["SSL certificate problem", "no alternative certificate subject name", "SSL peer certificate"]
            return certificate.contains(where: text.contains) ? "certificate not trusted (\(text))" : text
        }
    }
}
