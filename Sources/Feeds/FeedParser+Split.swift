import Dispatch
import EarshotCore
import FoundationEssentials
import Synchronization

extension FeedParser {
    /// Reads `document` in pieces on two threads (`SplitRead`): the rules run here over the first piece
    /// and whichever follow it this thread gets to first, over the others on a thread of their own; the
    /// handler ends with every piece's items. As `XMLFastScan.read`, false when the document is one
    /// for libxml2.
    static func splitRead(_ document: UnsafeMutableRawBufferPointer, at points: SplitRead.MeetingPoints,
                          into builder: FeedBuilder) -> (FeedEvents, Bool) {
        let handler = FeedEvents(builder: builder)
        let split = SplitRead(UnsafeRawBufferPointer(document), points: points)
        let meeting = XMLFastScan.Meeting(
            offset: points.offsets[0], name: points.name,
            first: { split.start(in: $0, scopes: handler.state.walk.scopes, builder: handler.state.builder) },
            reached: { split.arrive(in: $0, handler: handler) },
            passed: { split.callOff() })
        let read = XMLFastScan.read(document, handler: handler, meeting: meeting)
        split.callOff()  // the other thread reads the first piece's namespace names: done before they go
        return (handler, read)
    }
}

/// A feed read in pieces on two threads, each thread scanning its pieces and running their rules.
///
/// On two threads a `FeedTape` still leaves one thread every event's rules; here both scan and run rules,
/// each over pieces of the document. Pieces after the first start at an `<item` (or `<entry`), spread
/// evenly by bytes, and are read in the context — open elements, namespaces, the rules' scopes, the base
/// for links — the document had at its first item. The calling thread reads from the start, piece after
/// piece; the other thread, from the first item on, takes pieces from the end backwards, until the two
/// meet (pieces cost what their items cost, not what their bytes do: taking them one at a time keeps
/// both threads busy to the end). A piece read apart counts only when the document's context where it
/// starts, as the calling thread finds it, and where it ends, as the other thread does, is the one it
/// started in (`XMLFastScan.Meeting`); such a piece may hold only items: a channel field after them
/// (which one read would set on the podcast) stops it (`FeedWalk.strayed`). Whenever something does
/// not fit — a meeting point inside a CDATA section or comment, another context, a piece that strayed or
/// that the scan gave up on — every piece read apart is dropped and the calling thread reads on through
/// the document: the result is always the one read's.
///
/// The other thread reads copies of its pieces (the calling thread changes the document's bytes in
/// place, and reads on over them when pieces do not fit) and keeps their items until they are taken.
final class SplitRead: @unchecked Sendable {
    /// Tells the other thread to stop: the calling thread reads on without it.
    final class Cancellation: Sendable {
        private let flag = Atomic<Bool>(false)
        var isCancelled: Bool { flag.load(ordering: .relaxed) }
        func cancel() { flag.store(true, ordering: .relaxed) }
    }

    /// Where the pieces after the first start: at a start tag of `name` ("item" or "entry") each.
    struct MeetingPoints {
        var offsets: [Int]
        var name: [UInt8]
    }

    /// Bytes per piece, about, far from where the threads meet; nearer, pieces shrink to `smallestPiece`.
    static let pieceBytes = 128 << 10
    static let smallestPiece = 16 << 10
    static let maxPieces = 48

    /// Where pieces of a document of `count` bytes would start (ascending, after 0): from each end
    /// `pieceBytes` a piece, then each half of what is left to the middle, down to `smallestPiece`.
    ///
    /// The threads meet about the middle (each works from an end). Whichever finishes its last piece first
    /// waits for the other to finish its own: with even pieces of 128 KiB that wait was up to a piece
    /// (0.3 ms of freakshow's 1.8); pieces shrinking toward the middle leave at most a small one (in
    /// practice an item: pieces start at items). A larger document's pieces grow so that there are at
    /// most `maxPieces`.
    static func pieceStarts(count: Int) -> [Int] {
        let middle = count / 2
        /// Distances from an end at which pieces start, before the middle, pieces at most `large`.
        func steps(large: Int) -> [Int] {
            var steps: [Int] = []
            var at = 0
            while true {
                let left = middle - at
                let size = min(large, max(smallestPiece, left / 2))
                guard left - size >= smallestPiece / 2 else { return steps }
                at += size
                steps.append(at)
            }
        }
        var large = pieceBytes
        var half = steps(large: large)
        while 2 * (half.count + 1) > maxPieces {
            large += large / 4
            half = steps(large: large)
        }
        return half + [middle] + half.reversed().map { count - $0 }
    }

    /// Where `document`'s pieces would start: the first `<item` at or after each of `pieceStarts` (RSS),
    /// or else each such `<entry` (Atom); nil when it has neither after its first start.
    static func meetingPoints(_ document: UnsafeRawBufferPointer) -> MeetingPoints? {
        let starts = pieceStarts(count: document.count)
        for name in [Array("item".utf8), Array("entry".utf8)] {
            let tag = [UInt8(ascii: "<")] + name
            var offsets: [Int] = []
            search: for start in starts {
                var at = max(start, (offsets.last ?? 0) + 1)
                while let offset = CDATASection.find(tag, in: document, from: at) {
                    if XMLFastScan.isTag(name, in: document, at: offset) {
                        offsets.append(offset)
                        continue search
                    }
                    at = offset + 1
                }
                break  // none after this start: none after the later ones either
            }
            if !offsets.isEmpty { return MeetingPoints(offsets: offsets, name: name) }
        }
        return nil
    }

    private let document: UnsafeRawBufferPointer
    /// Piece `i` (1...offsets.count) starts at `offsets[i - 1]`; piece 0 is the document's start.
    private let offsets: [Int]
    private let queue = DispatchQueue(label: "earshot-feed-pieces")
    private let cancellation = Cancellation()
    private let done = DispatchSemaphore(value: 0)

    private struct Claims {
        /// The next piece the calling thread would take.
        var front = 1
        /// The next piece the other thread would take.
        var back: Int
    }
    private let claims: Mutex<Claims>

    // Set on the calling thread before the other thread starts; read by both after.
    private var started = false
    private var ended = false
    /// Whether the calling thread reads on alone: the other thread is not to start.
    private var closed = false
    private var context: XMLFastScan.Context?
    private var scopes: [FeedScope] = []
    private var baseURL: URL?
    private var keepsItemsWithoutEnclosure = false
    private var keepsSourceText = false
    /// The piece the calling thread is at the start of.
    private var arriving = 1
    /// Each piece's items, written by the other thread before `done`: nil for a piece that did not fit.
    private var results: [[FeedItem]?]

    init(_ document: UnsafeRawBufferPointer, points: MeetingPoints) {
        self.document = document
        offsets = points.offsets
        claims = Mutex(Claims(back: points.offsets.count))
        results = Array(repeating: nil, count: points.offsets.count + 1)
    }

    /// The calling thread is at the document's first item, in `context` and the rules' `scopes`: the
    /// other thread starts reading pieces in them, with builders like `builder`.
    func start(in context: XMLFastScan.Context, scopes: [FeedScope], builder: FeedBuilder) {
        // Past a meeting point already (no item before it): this thread reads everything, changing the
        // bytes the other would copy.
        guard !closed else { return }
        started = true
        self.context = context
        self.scopes = scopes
        baseURL = builder.baseURL
        keepsItemsWithoutEnclosure = builder.keepsItemsWithoutEnclosure
        keepsSourceText = builder.keepsSourceText
        queue.async { [self] in
            while let piece = claimBack() {
                guard let items = read(piece) else {
                    cancellation.cancel()  // one piece that does not fit: the calling thread reads on alone
                    break
                }
                results[piece] = items
            }
            done.signal()
        }
    }

    /// Reads piece `piece` on the other thread: its items, or nil when it does not fit.
    private func read(_ piece: Int) -> [FeedItem]? {
        guard let context, let baseURL else { return nil }
        var builder = FeedBuilder(baseURL: baseURL, keepsItemsWithoutEnclosure: keepsItemsWithoutEnclosure,
                                  keepsSourceText: keepsSourceText)
        builder.textIsValidUTF8 = true  // read by `XMLFastScan`
        let events = FeedEvents(builder: builder)
        events.state.walk = FeedWalk(pieceIn: scopes)
        events.cancellation = cancellation
        let isLast = piece == offsets.count
        let bytes = UnsafeRawBufferPointer(rebasing: document[offsets[piece - 1]..<(isLast ? document.count : offsets[piece])])
        let scopes = scopes
        let read = XMLFastScan.readPiece(bytes, in: context, handler: events, ends: isLast ? nil : { end in
            end.open == context.headerOpen && end.bindings == context.headerBindings
                && events.state.isBetweenItems(in: scopes, base: baseURL)
        })
        let walk = events.state.walk
        guard read, !cancellation.isCancelled, !walk.strayed, events.error == nil, events.state.builder.item == nil,
              !isLast || walk.scopes.count == 1 else { return nil }
        return events.state.builder.items
    }

    private func claimBack() -> Int? {
        claims.withLock { claims in
            guard claims.back >= claims.front, !cancellation.isCancelled else { return nil }
            defer { claims.back -= 1 }
            return claims.back
        }
    }

    private func claimFront() -> Bool {
        claims.withLock { claims in
            guard claims.front <= claims.back else { return false }
            claims.front += 1
            return true
        }
    }

    /// The calling thread is at the start of the next piece, in `context`: it reads on (through this
    /// piece, or through everything left when something does not fit), or stops with the pieces read
    /// apart appended to `handler`'s items.
    func arrive(in context: XMLFastScan.Context, handler: FeedEvents) -> XMLFastScan.Meeting.Arrival {
        guard started else {
            closed = true
            return .readOn(Int.max)
        }
        guard context == self.context, handler.state.isBetweenItems(in: scopes, base: baseURL) else {
            callOff()
            return .readOn(Int.max)
        }
        let piece = arriving
        if claimFront() {
            arriving += 1
            return .readOn(piece < offsets.count ? offsets[piece] : Int.max)
        }
        // The other thread took this piece and every one after it.
        waitForEnd()
        guard !cancellation.isCancelled, results[piece...].allSatisfy({ $0 != nil }) else { return .readOn(Int.max) }
        for items in results[piece...] { handler.state.builder.append(piece: items!) }
        handler.piecesReadApart = results.count - piece
        return .stop
    }

    /// The pieces read apart are not wanted (or all are read): the other thread stops, and has when this
    /// returns (the calling thread may read on over the bytes it read).
    func callOff() {
        closed = true
        guard started else { return }
        cancellation.cancel()
        waitForEnd()
    }

    private func waitForEnd() {
        guard !ended else { return }
        done.wait()
        ended = true
    }
}
