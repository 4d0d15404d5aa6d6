import FoundationEssentials

/// A command that makes no sense for a download in its state.
public struct DownloadRefusal: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
