import EarshotCore
import HTTPClient

extension DownloadFailure {
    /// libcurl's failure as the listener reads it, transient or not.
    init(_ failure: CurlFailure) {
        let detail = failure.detail
        switch failure.kind {
        case .notHTTP: self.init("not an http(s) address (or redirected to one that is not): \(detail)", transient: false)
        case .tooManyRedirects: self.init("too many redirects", transient: false)
        case .certificateNotTrusted: self.init("certificate not trusted: \(detail)", transient: false)
        case .secureConnectionFailed: self.init("secure connection failed: \(detail)", transient: false)
        case .badEncoding: self.init("the server's compressed answer does not decode: \(detail)", transient: false)
        case .hostNotFound: self = .network("host not found (\(detail))")
        case .cannotConnect: self = .network("cannot connect (\(detail))")
        case .timedOut: self = .network("stalled or timed out (\(detail))")
        case .closedEarly: self = .network("the connection closed before the end (\(detail))")
        case .other: self = .network(detail)
        }
    }
}
