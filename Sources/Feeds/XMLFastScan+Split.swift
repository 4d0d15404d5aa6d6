#if canImport(Glibc)
import Glibc
#endif

/// A document read in pieces at once (`SplitRead`): the first from its start, the others from an
/// `<item` each, in the context — open elements, namespaces — the first had at its first `<item`. The
/// first piece's scan tells a `Meeting` when it takes that context, when it gets to where the next
/// piece starts (or passes that inside a CDATA section or comment); there its context must be the one
/// the next piece started in, or the pieces read elsewhere are thrown away and it reads on.
extension XMLFastScan {
    /// Where the pieces meet, and who is told as the first piece's scan goes.
    final class Meeting {
        /// The `<` the next piece starts at.
        let offset: Int
        /// The tag name the pieces start with, whose first start tag gives the context.
        let name: [UInt8]
        let first: (Context) -> Void
        let reached: (Context) -> Arrival
        let passed: () -> Void

        /// What the scan does at a meeting point.
        enum Arrival {
            /// Stops: the rest was read elsewhere.
            case stop
            /// Reads on, to the next meeting point (`Int.max`: none).
            case readOn(Int)
        }

        /// `first`: at the first start tag of `name`, before it is read. `reached`: at `offset` (and then
        /// at each next one it gives), the text before it handed over. `passed`: a meeting point lay
        /// inside markup that was read whole; nothing after it was changed yet.
        init(offset: Int, name: [UInt8], first: @escaping (Context) -> Void, reached: @escaping (Context) -> Arrival,
             passed: @escaping () -> Void) {
            self.offset = offset
            self.name = name
            self.first = first
            self.reached = reached
            self.passed = passed
        }
    }

    /// The scan's state between two tags: what a piece read elsewhere needs to start in, and what the
    /// first piece's state at a meeting point is compared against.
    struct Context: Equatable {
        var open: [Open]
        var bindings: [Binding]
        /// The open elements' and bindings' names copied, and the two stacks over those copies: the
        /// other pieces' buffers start with them (a piece compares names on its own bytes). Empty when
        /// not asked for.
        var header: [UInt8] = []
        var headerOpen: [Open] = []
        var headerBindings: [Binding] = []

        static func == (a: Context, b: Context) -> Bool { a.open == b.open && a.bindings == b.bindings }
    }

    /// The context now; `withHeader`, with the names copied for the other pieces.
    func context(withHeader: Bool) -> Context {
        var context = Context(open: Array(UnsafeBufferPointer(start: open, count: depth)), bindings: bindings)
        guard withHeader else { return context }
        func copy(_ range: Range<Int>) -> Range<Int> {
            let start = context.header.count
            context.header.append(contentsOf: UnsafeBufferPointer(start: bytes + range.lowerBound, count: range.count))
            context.header.append(0)
            return start..<start + range.count
        }
        for element in context.open {
            var copied = element
            copied.prefix = element.prefix.map(copy)
            copied.local = copy(element.local)
            context.headerOpen.append(copied)
        }
        for binding in bindings {
            var copied = binding
            copied.prefix = binding.prefix.isEmpty ? context.header.count..<context.header.count : copy(binding.prefix)
            context.headerBindings.append(copied)
        }
        return context
    }

    /// Whether a start tag of `name` (unprefixed) is at `at`.
    func isTag(_ name: [UInt8], at: Int) -> Bool {
        Self.isTag(name, in: UnsafeRawBufferPointer(document), at: at)
    }

    /// Whether a start tag of `name` (unprefixed) is at `at` of `bytes`: `<`, the name, then a space,
    /// `>` or `/` (what also finds a split read's meeting points).
    static func isTag(_ name: [UInt8], in bytes: UnsafeRawBufferPointer, at: Int) -> Bool {
        let end = at + 1 + name.count
        guard end < bytes.count, bytes[at] == UInt8(ascii: "<") else { return false }
        guard name.withUnsafeBytes({ memcmp(bytes.baseAddress! + at + 1, $0.baseAddress!, name.count) }) == 0 else { return false }
        let after = bytes[end]
        return byteClasses[Int(after)] & spaceClass != 0 || after == UInt8(ascii: ">") || after == UInt8(ascii: "/")
    }

    /// A piece of a split read: `piece` (the document from a meeting point on, to the next or to its
    /// end; copied), read in `context` as the scan would read on from there. True when read to the end
    /// of the document, or, when `ends` is given, to the end of the piece in a context `ends` accepts.
    /// The context's namespace names point into the first piece's bytes, which must outlive this.
    static func readPiece(_ piece: UnsafeRawBufferPointer, in context: Context, handler: XMLEventHandler,
                          ends: ((Context) -> Bool)?) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: context.header.count + piece.count, alignment: 16)
        defer { buffer.deallocate() }
        context.header.withUnsafeBytes { buffer.copyMemory(from: $0) }
        UnsafeMutableRawBufferPointer(rebasing: buffer[context.header.count...]).copyMemory(from: piece)
        let stream = XMLEventStream.scanning(handler: handler)
        var scan = XMLFastScan(buffer, stream: stream)
        defer { scan.deallocate() }
        for element in context.headerOpen {
            (scan.open + scan.depth).initialize(to: element)
            scan.depth += 1
        }
        scan.bindings = context.headerBindings
        scan.index = context.header.count
        scan.validated = context.header.count  // names the first piece read and checked
        var endFits = false
        if let ends {
            // The piece ends where the next begins: a meeting point at its end.
            scan.meetAt = buffer.count
            scan.meeting = Meeting(offset: buffer.count, name: [], first: { _ in }, reached: {
                endFits = ends($0)
                return .stop
            }, passed: {})
        }
        do {
            guard scan.depth > 0 else { return false }
            try scan.readToEnd()
            return ends == nil || scan.stoppedAtMeeting && endFits
        } catch {
            return false
        }
    }
}
