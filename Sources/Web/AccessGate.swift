import EarshotCore
import Foundation

/// What the transport knows of a request when it decides whether to read it: no lws types.
struct AdmissionRequest: Sendable {
    var method: String
    var path: String
    /// The peer's address as libwebsockets prints it ("10.0.0.7", "127.0.0.1").
    var peer: String
    var cookie: String?
    /// Whether a proxy says it forwarded the request (`Forwarded`, `X-Forwarded-For`, `X-Real-IP`).
    var forwarded: Bool
}

/// The answer: who asks, and what they may get.
struct Admission: Sendable, Equatable {
    var requester: Requester
    var verdict: AccessVerdict

    var device: Int64? {
        if case .device(let id) = requester { return id }
        return nil
    }
}

/// Asked by the transport on its service thread, before a request is read or a socket opened;
/// must answer at once (no waiting on SQLite). `EarshotServer` is the one gate.
protocol AccessGate: AnyObject, Sendable {
    func admit(_ request: AdmissionRequest) -> Admission
    /// Whether a device is still paired: a revoked device's frames still in flight are dropped.
    func isPaired(_ device: Int64) -> Bool
}
