import EarshotCore
import Foundation

extension LWSServer {
    /// Everything the server knows about one lws connection. Service thread only.
    final class Connection {
        let id: ClientID
        var isSocket = false
        /// Who is on the other end (LWSServer+Access): the peer's address, and what the gate made of
        /// the last request's cookie. `device` marks a paired device's connections for revocation.
        var peer = ""
        var requester: Requester = .host
        var device: Int64?
        /// Revoked: closing, nothing more is read from it.
        var kicked = false

        // The HTTP request being read.
        var method = "GET"
        var path = "/"
        var query: [String: String] = [:]
        var headers: [String: String] = [:]
        var body = Data()
        var bodyTooLarge = false
        /// A `Transfer-Encoding: chunked` body being decoded (nil: read by its Content-Length).
        var chunked: ChunkedBody?

        // The HTTP response being written.
        var response: HTTPResponse?
        var headersSent = false
        var offset = 0
        /// Close the connection once the response is out (refusals).
        var closeAfterResponse = false
        /// Refused at the door: its body is read and dropped, and it is never dispatched.
        var refused = false
        /// Handed to Swift already: lws may still report a (zero-length) body's completion.
        var dispatched = false

        // WebSocket.
        var outbox = SocketOutbox()
        var rx = Data()
        var rxTooLarge = false
        var rxBinary = false

        init(id: ClientID) { self.id = id }

        func resetRequest() {
            method = "GET"; path = "/"; query = [:]; headers = [:]; body = Data(); bodyTooLarge = false; chunked = nil; refused = false; dispatched = false
        }

        var request: HTTPRequest {
            HTTPRequest(method: method, path: path, query: query, headers: headers, body: body,
                        peer: peer, requester: requester)
        }
    }
}
