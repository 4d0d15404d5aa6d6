/// An error that can say why it happened in words fit for every client — no SQL, no paths — when
/// the reason is one a listener can act on (a full disk). Errors without such a reason keep their
/// detail for the log.
public protocol ExplainedFailure: Error {
    /// The reason in words ("the disk holding the library is full; free some space"), or nil.
    var plainReason: String? { get }
}

/// `error`'s plain reason when it has one (see `ExplainedFailure`).
public func plainReason(of error: any Error) -> String? {
    (error as? any ExplainedFailure)?.plainReason
}

/// What a client is told when the work behind `what` ("could not save the played mark") failed:
/// `what` and the error's plain reason when it has one, else that the server's log says why. The
/// error's detail (SQL, paths) goes to the log under `area`, never to a client.
public func reportedFailure(_ what: String, _ error: any Error, area: String) -> String {
    Log.error(area, "\(what): \(String(reflecting: error))")
    return plainReason(of: error).map { "\(what): \($0)" } ?? "\(what) (the server's log says why)"
}
