/// Why a libcurl transfer failed, sorted into what its callers tell the listener apart.
package struct CurlFailure: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Not http(s), or redirected to something that is not.
        case notHTTP
        case tooManyRedirects
        /// The certificate failed verification: unknown issuer, expired, another host's.
        case certificateNotTrusted
        /// The TLS handshake failed for another reason, or the CA file is unusable.
        case secureConnectionFailed
        case hostNotFound
        case cannotConnect
        /// Connecting took too long, or the transfer stalled under 1 byte/s.
        case timedOut
        /// The connection closed before the announced end.
        case closedEarly
        /// A compressed body that does not decode.
        case badEncoding
        case other
    }

    package var kind: Kind
    /// libcurl's own words (its error buffer).
    package var detail: String

    package init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }
}
