import FoundationEssentials

/// A refresh interval that could not be read.
public struct RefreshScheduleError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}
