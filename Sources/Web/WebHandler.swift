import Foundation

/// A WebSocket client's identity for the life of its connection.
public typealias ClientID = UInt64

/// What the transport calls into. Implemented by `EarshotServer`; nothing here knows lws.
public protocol WebHandler: AnyObject, Sendable {
    /// Answers one HTTP request (runs concurrently with others).
    func respond(to request: HTTPRequest) async -> HTTPResponse
    /// Socket events arrive in order, one at a time, on one task.
    func socketOpened(_ client: ClientID) async
    func socketReceived(_ text: String, from client: ClientID) async
    /// A frame that could not be read as text (binary, oversize): tell the client why.
    func socketRejectedFrame(_ reason: String, from client: ClientID) async
    func socketClosed(_ client: ClientID) async
}
