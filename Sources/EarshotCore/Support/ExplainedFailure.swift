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
