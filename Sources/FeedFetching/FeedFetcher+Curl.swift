import EarshotCore
import Feeds
import Foundation
import HTTPClient

/// One fetch through libcurl (`CurlRequest`, on a thread of its own): the body streams in and is cut
/// off as soon as it passes the limit; an error status stops it at its headers.
///
/// Certificates are verified against `HTTPTrust.caFile` (`--ca-file`: the system's roots and the
/// private CA) or the system's roots.
final class FetchTask: @unchecked Sendable {
    private let url: URL
    private let options: CurlRequest.Options
    private let maximumBytes: Int
    private let spoolThreshold: Int?
    // Written only on the request's thread while it runs; read after `run()` returns.
    private var body = Data()
    private var received = 0
    private var spooled: (body: SpooledBody, descriptor: Int32)?
    /// Set once making or writing a spool file failed: the rest stays in memory.
    private var spoolRefused = false
    private var failure: FeedError?

    init(url: URL, options: CurlRequest.Options, maximumBytes: Int, spoolThreshold: Int?) {
        self.url = url
        self.options = options
        self.maximumBytes = maximumBytes
        self.spoolThreshold = spoolThreshold
    }

    deinit {
        if let spooled { close(spooled.descriptor) }
    }

    func run() async throws -> FeedFetcher.Response {
        let request = CurlRequest(options)
        // Unowned: the request holds this closure (a strong capture would keep both, and the body, for good).
        request.onBody = { [self, unowned request] bytes, response in accept(bytes, response, at: request.effectiveURL) }
        let ending = await request.run()
        let file = closeSpool()
        try Task.checkCancellation()
        if let failure { throw failure }
        let finalURL = request.effectiveURL.flatMap(URL.init(string:)) ?? url
        switch ending {
        case .aborted:
            throw FeedError.network(url: url.absoluteString, reason: "cancelled")
        case .failed(let curl):
            if curl.kind == .notHTTP { throw FeedError.invalidURL(request.effectiveURL ?? url.absoluteString) }
            throw FeedError.network(url: url.absoluteString, reason: Self.describe(curl))
        case .completed:
            break
        }
        guard let response = request.response else {
            throw FeedError.network(url: url.absoluteString, reason: "no response")
        }
        let status = response.status
        if status >= 400 || (300...399).contains(status) && status != 304 {
            throw FeedError.httpStatus(status, url: finalURL.absoluteString)
        }
        if let length = response.contentLength, length > maximumBytes {
            throw FeedError.tooLarge(url: finalURL.absoluteString, limit: maximumBytes)
        }
        let hops = request.statuses.dropLast()
        let permanent = !hops.isEmpty && hops.allSatisfy { $0 == 301 || $0 == 308 }
        let notModified = status == 304
        return FeedFetcher.Response(
            data: notModified ? Data() : body,
            spooled: notModified ? nil : file,
            finalURL: finalURL,
            etag: response.etag,
            lastModified: response.lastModified,
            notModified: notModified,
            permanentURL: permanent ? finalURL : nil)
    }

    /// Each piece of the final response's body; false stops the transfer.
    private func accept(_ bytes: UnsafeRawBufferPointer, _ response: DownloadResponse, at effectiveURL: String?) -> Bool {
        let location = effectiveURL ?? url.absoluteString
        if response.status >= 400 {
            failure = .httpStatus(response.status, url: location)
            return false
        }
        if let length = response.contentLength, length > maximumBytes {
            failure = .tooLarge(url: location, limit: maximumBytes)
            return false
        }
        received += bytes.count
        if received > maximumBytes {
            failure = .tooLarge(url: location, limit: maximumBytes)
            body = Data()
            return false
        }
        if let spooled {
            if SpooledBody.write(bytes, to: spooled.descriptor) { return true }
            guard unspool(keeping: received - bytes.count) else {
                failure = .network(url: location, reason: "the temporary copy of the feed could not be written or read back")
                return false
            }
        } else if let spoolThreshold, !spoolRefused, received > spoolThreshold {
            if let (file, descriptor) = SpooledBody.create() {
                spooled = (file, descriptor)
                let moved = body.withUnsafeBytes { SpooledBody.write($0, to: descriptor) }
                if moved, SpooledBody.write(bytes, to: descriptor) {
                    body = Data()
                    return true
                }
                // The temporary folder is full: what it took is still in `body`.
                close(descriptor)
                self.spooled = nil
            }
            spoolRefused = true
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Writing the spool file failed part-way (a full disk): its bytes come back to memory and the
    /// rest stays there; the chunk that failed is appended by the caller. False when they cannot be
    /// read back (the fetch then fails rather than hand on a feed with a hole in it).
    private func unspool(keeping count: Int) -> Bool {
        guard let spooled else { return true }
        close(spooled.descriptor)
        self.spooled = nil
        spoolRefused = true
        // A short write may have left part of the failed chunk: only the `count` bytes before it count.
        do {
            let written = try spooled.body.contents()
            guard written.count >= count else { return false }
            body = written.prefix(count)
            return true
        } catch {
            Log.error("fetch", "could not read back the temporary copy of \(url.absoluteString): \(error)")
            return false
        }
    }

    /// The spool file once the transfer is over (closed for writing), or nil when the body is in memory.
    private func closeSpool() -> SpooledBody? {
        guard let spooled else { return nil }
        close(spooled.descriptor)
        self.spooled = nil
        return spooled.body
    }

    /// libcurl's failure in the words a listener reads after "Could not reach URL: ".
    static func describe(_ failure: CurlFailure) -> String {
        switch failure.kind {
        case .timedOut: "timed out"
        case .cannotConnect: "connection refused"
        case .hostNotFound: "host not found"
        case .certificateNotTrusted: "certificate not trusted (\(failure.detail))"
        case .secureConnectionFailed: "secure connection failed (\(failure.detail))"
        case .tooManyRedirects: "too many redirects"
        case .closedEarly: "the connection closed before the end"
        case .badEncoding: "the compressed answer does not decode (\(failure.detail))"
        case .notHTTP, .other: failure.detail
        }
    }
}
