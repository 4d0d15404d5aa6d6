import FoundationEssentials

/// `Content-Range: bytes first-last/total` (total may be `*`), or `bytes */total` on a 416.
public struct ContentRange: Sendable, Equatable {
    public var first: Int64?
    public var last: Int64?
    public var total: Int64?

    public init?(_ header: String?) {
        guard let header else { return nil }
        let text = header.lowercased().filter { !$0.isWhitespace }
        guard text.hasPrefix("bytes") else { return nil }
        let spec = text.dropFirst(5)
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        if halves[1] != "*" {
            guard let total = Int64(halves[1]), total >= 0 else { return nil }
            self.total = total
        }
        if halves[0] == "*" { return }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else { return nil }
        self.first = first
        self.last = last
    }
}
