import FoundationEssentials

/// A frame that could not become a command, with what to tell the client.
public struct CommandError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }

    /// A failure of the library or the system behind a command: the detail goes to the log, the
    /// client is told `what` failed (never an error's description, SQL or a path).
    public static func internalFailure(_ what: String, _ error: any Error) -> CommandError {
        CommandError(reportedFailure(what, error, area: "command"))
    }
}
