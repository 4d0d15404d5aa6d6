import Dispatch
import EarshotCore
import FoundationEssentials
import Synchronization

extension FeedParser {
    /// Reads `document` in pieces on two threads (`SplitRead`): the rules run here over the first piece
    /// and whichever follow it this thread gets to first, over the others on a thread of their own; the
    /// handler ends with every piece's items. As `XMLFastScan.read`, false when the document is one
    /// for libxml2.
    static func splitRead(_ document: UnsafeMutableRawBufferPointer, at first: SplitRead.FirstPoint,
                          with split: SplitRead = SplitRead(), into recipe: FeedBuilder.Recipe) -> (FeedEvents, Bool) {
        let handler = FeedEvents(builder: FeedBuilder(recipe))
        split.begin(UnsafeRawBufferPointer(document), first: first)
        guard split.referencesAreReadable() else {
            split.callOff()
            return (handler, false)
        }
        let meeting = XMLFastScan.Meeting(
            offset: first.offset, name: first.name,
            first: { split.start(in: $0, scopes: handler.state.walk.scopes, builder: handler.state.builder) },
            reached: { split.arrive(in: $0, handler: handler) },
            passed: { split.callOff() })
        let read = XMLFastScan.read(document, handler: handler, meeting: meeting, referencesChecked: true)
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

    /// Where the second piece starts, and the name all but the first start with.
    struct FirstPoint {
        var offset: Int
        var name: [UInt8]
    }

    /// The second piece's start: the first `<item` at or after the first of `pieceStarts` (RSS), or
    /// else the first such `<entry` (Atom); nil when there is neither. (The other pieces' starts are
    /// found on the other thread, while this one reads the channel up to its first item.)
    static func firstPoint(_ document: UnsafeRawBufferPointer) -> FirstPoint? {
        guard let start = pieceStarts(count: document.count).first else { return nil }
        for name in [Array("item".utf8), Array("entry".utf8)] {
            if let offset = nextTag(name, in: document, from: start) { return FirstPoint(offset: offset, name: name) }
        }
        return nil
    }

    /// Where all pieces after the first start: `first.offset`, then the first start tag of `first.name`
    /// at or after each later one of `pieceStarts` (pieces start at distinct tags; where one has no tag
    /// after it, the later ones have none either).
    static func laterPoints(_ document: UnsafeRawBufferPointer, after first: FirstPoint) -> [Int] {
        var offsets = [first.offset]
        for start in pieceStarts(count: document.count).dropFirst() {
            guard let offset = nextTag(first.name, in: document, from: max(start, offsets[offsets.count - 1] + 1)) else { break }
            offsets.append(offset)
        }
        return offsets
    }

    /// The first start tag of `name` at or after `from`: sixteen bytes a step, looking for `<` followed
    /// by the name's first letter (a `memchr` for each `<` was slow in notes, where one stands every few
    /// dozen bytes: 90 µs for freakshow's pieces, longer than this thread takes to read the channel).
    static func nextTag(_ name: [UInt8], in document: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let initial = name.first else { return nil }
        let count = document.count
        var at = from
        let less = SIMD16<UInt8>(repeating: UInt8(ascii: "<")), letter = SIMD16<UInt8>(repeating: initial)
        while at + 17 <= count {
            let here = document.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
            let next = document.loadUnaligned(fromByteOffset: at + 1, as: SIMD16<UInt8>.self)
            let hits = (here .== less) .& (next .== letter)
            if any(hits) {
                for lane in 0..<16 where hits[lane] && XMLFastScan.isTag(name, in: document, at: at + lane) { return at + lane }
            }
            at += 16
        }
        while at < count {
            if document[at] == UInt8(ascii: "<"), XMLFastScan.isTag(name, in: document, at: at) { return at }
            at += 1
        }
        return nil
    }

    // Set on the calling thread before `documentRead`; read by both after.
    private var document = UnsafeRawBufferPointer(start: nil, count: 0)
    private var first = FirstPoint(offset: 0, name: [])
    /// Where the other thread's half of the reference check starts (a `<`, so no reference is cut in two).
    private var checkHalf = 0
    /// The other thread's verdict on its half (written before `checked`).
    private var laterHalfReadable = false
    /// Piece `i` (1...offsets.count) starts at `offsets[i - 1]`; piece 0 is the document's start. Found
    /// by the other thread (`points`).
    private var offsets: [Int] = []
    private let queue = DispatchQueue(label: "earshot-feed-pieces")
    /// The file the calling thread reads with this thread's help, or nil: it reads alone. Set before
    /// `readShared`.
    private var sharedRead: SharedRead?
    /// The calling thread began reading the file (`shareRead`), or called the other thread off.
    private let readShared = Handoff()
    private let cancellation = Cancellation()
    /// The calling thread has the document, and where its second piece starts (`begin`), or called the
    /// other thread off.
    private let documentRead = Handoff()
    /// The other thread checked the references of its half (`laterHalfReadable`).
    private let checked = Handoff()
    /// The other thread found `offsets` (and set `claims.back`, `results`).
    private let points = Handoff()
    /// The calling thread reached the first item and set the context (`start`), or called the other off.
    private let go = Handoff()
    /// The other thread is done with the document (its pieces' items are in `results`). A `Handoff`, not
    /// a semaphore: the calling thread waits for the last piece it does not read, a few dozen
    /// microseconds, and a sleeping thread took 25–30 µs more to wake (freakshow's parse is 1.1 ms).
    private let done = Handoff()

    /// The pieces not yet taken: the calling thread's next at the front, the other thread's at the back
    /// (set when the pieces are found).
    private let claims = Mutex(TwoEndedClaims(front: 1, back: 0))

    // Set on the calling thread before `go`; read by both after.
    private var started = false
    private var ended = false
    /// Whether the calling thread reads on alone: the other thread is not to read pieces.
    private var closed = false
    private var context: XMLFastScan.Context?
    private var scopes: [FeedScope] = []
    /// What the pieces' builders are made from (`FeedBuilder.pieceRecipe`, taken at the first item).
    private var recipe: FeedBuilder.Recipe?
    /// The piece the calling thread is at the start of.
    private var arriving = 1
    /// Each piece's items, written by the other thread before `done`: nil for a piece that did not fit.
    private var results: [[FeedItem]?] = []

    /// Starts the other thread at once, before the document is read (a thread woken when it is needed
    /// took 40–70 µs to start). Given the document (`begin`), while this thread reads the channel up to
    /// its first item, it finds where the pieces start — reading only bytes after the first point,
    /// which this thread does not change before it takes the piece there (after `points`) or calls the
    /// other thread off and waits for it — and then waits for the context (`start`).
    init() {
        queue.async { [self] in
            readShared.wait()
            sharedRead?.help()
            documentRead.wait()
            // Called off (before or after `begin`): `cancellation`, not `closed`, which this thread does
            // not read (the calling thread may set it while this one looks).
            if !cancellation.isCancelled {
                laterHalfReadable = XMLFastScan.referencesReadable(document, from: checkHalf, to: document.count) != nil
                checked.give()
                offsets = Self.laterPoints(document, after: first)
                claims.withLock { $0.back = offsets.count }
                results = Array(repeating: nil, count: offsets.count + 1)
                points.give()
                go.wait()
                while started, let piece = claimBack() {
                    guard let items = read(piece) else {
                        cancellation.cancel()  // one piece that does not fit: the calling thread reads on alone
                        break
                    }
                    results[piece] = items
                }
            }
            done.give()
        }
    }

    /// The calling thread reads the file with this thread's help (`read`), or alone (nil).
    func shareRead(_ read: SharedRead?) {
        sharedRead = read
        readShared.give()
    }

    /// The document is read (and will not move before `callOff`); its second piece starts at `first`.
    func begin(_ document: UnsafeRawBufferPointer, first: FirstPoint) {
        self.document = document
        self.first = first
        // At an item's start tag: rarely inside a CDATA section, as a `<` in the middle of notes is.
        checkHalf = Self.nextTag(first.name, in: document, from: document.count / 2) ?? document.count
        readShared.give()  // a document not read from a file (`FeedParser.parse(_:)`) was read by nobody's help
        documentRead.give()
    }

    /// Whether the document's references can all be read (`XMLFastScan.referencesAreReadable`), checked
    /// on both threads at once, a half each: the check is a pass over the whole document (one `memchr`
    /// for each `&` and each `!`: 0.2 ms of giantbomb's 1.6 MB) that the other thread would otherwise
    /// wait through before it has anything to read. Halves meet at a `<`, never inside a reference; a
    /// CDATA section or comment the halves cut is read as text from there by the later half, whose
    /// verdict is then not to be trusted: this thread, which finds that section, checks on from its end.
    func referencesAreReadable() -> Bool {
        let resume = XMLFastScan.referencesReadable(document, from: 0, to: checkHalf)
        if resume != nil { checked.wait() }
        return XMLFastScan.referencesAreReadable(document, halvesAt: checkHalf, earlier: resume, later: laterHalfReadable)
    }

    /// The calling thread is at the document's first item, in `context` and the rules' `scopes`: the
    /// other thread starts reading pieces in them, with builders like `builder`.
    func start(in context: XMLFastScan.Context, scopes: [FeedScope], builder: FeedBuilder) {
        // Past a meeting point already (no item before it): this thread reads everything.
        guard !closed else { return }
        started = true
        self.context = context
        self.scopes = scopes
        recipe = builder.pieceRecipe
        go.give()
    }

    /// Reads piece `piece` on the other thread: its items, or nil when it does not fit.
    private func read(_ piece: Int) -> [FeedItem]? {
        guard let context, let recipe else { return nil }
        let baseURL = recipe.baseURL
        let events = FeedEvents(builder: FeedBuilder(recipe))
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
            guard !cancellation.isCancelled else { return nil }
            return claims.takeBack()
        }
    }

    private func claimFront() -> Bool {
        claims.withLock { $0.takeFront() != nil }
    }

    /// The calling thread is at the start of the next piece, in `context`: it reads on (through this
    /// piece, or through everything left when something does not fit), or stops with the pieces read
    /// apart appended to `handler`'s items.
    func arrive(in context: XMLFastScan.Context, handler: FeedEvents) -> XMLFastScan.Meeting.Arrival {
        guard started, context == self.context, handler.state.isBetweenItems(in: scopes, base: recipe?.baseURL) else {
            callOff()
            return .readOn(Int.max)
        }
        points.wait()
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
        cancellation.cancel()
        readShared.give()
        documentRead.give()
        go.give()
        waitForEnd()
    }

    private func waitForEnd() {
        guard !ended else { return }
        done.wait()
        ended = true
    }
}
