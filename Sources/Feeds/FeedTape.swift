import Dispatch
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Splits a larger document's parse over two threads: libxml2's SAX pass on the parsing thread, the
/// rules (`FeedEvents`: the walk, the builder, the items) on a thread of the tape's own. (A document
/// `XMLFastScan` reads is read in pieces instead, each thread scanning and running the rules over its
/// own: `SplitRead`.)
///
/// The parsing thread only classifies each element's name (`NameCache`, pointer-cached) and copies the
/// event — name, attributes, text — onto a tape, a segment at a time; the rules' thread replays each
/// segment in order into the same `FeedEvents` a small document's parse calls directly, so both give the
/// same result. On real feeds the rules cost about as much as libxml2's pass itself (giantbomb's 730
/// items: 41 M instructions against its 52 M), and on one thread a parse of `make bench`'s larger real
/// feeds took 1.1–2.5× the pass alone; on two, 0.8–1.9× (it replaced a second thread that only
/// sanitized the notes of documents ≥ 1 MiB). At most `maxQueued` segments wait (half a megabyte).
///
/// Items with long notes are finished through a `FinishingLine`, which either thread may take from:
/// while the rules are behind the tape, such an item waits there and the parsing thread finishes a few
/// at each segment, any while the tape is full, and what is left once the document is read
/// (LinuxUnplugged 1.46→1.26× the pass, freakshow 1.34→0.97×). Short ones stay on the rules' thread:
/// handing every item of the 60,000-item feed over took 577 ms against 400.
///
/// When the rules stop the parse (the root is no feed's, or the item sink failed), the parsing thread
/// sees it at its next element and stops libxml2; the rest of the tape is not replayed, as the direct
/// parse would have delivered no more events.
final class FeedTape: XMLEventHandler, @unchecked Sendable {
    /// Documents from this size on are parsed on two threads.
    static let threshold = 128 << 10
    /// A segment goes over once it holds this many bytes.
    static let segmentBytes = 64 << 10
    /// Segments handed over and not yet replayed, at most.
    static let maxQueued = 8
    /// Items the parsing thread finishes for the rules, at most, each time it hands a segment over
    /// while they are behind.
    static let helpPerSegment = 3

    private enum Op: UInt8 { case start = 1, end, text }

    private let rules: FeedEvents
    /// Items with long notes waiting to be finished, which either thread may do.
    private let line: FinishingLine
    private let queue = DispatchQueue(label: "earshot-feed-rules")
    private let room = DispatchSemaphore(value: FeedTape.maxQueued)
    private let stopped = Atomic<Bool>(false)
    // Used only on the parsing thread, once per event: unchecked, as `FeedEvents.state` is.
    @exclusivity(unchecked) private var segment = TapeWriter(capacity: FeedTape.segmentBytes + 4096)
    private var sentRoot = false
    /// The sanitizer's buffers for the items the parsing thread finishes.
    private var scratch = HTMLSanitizer.Scratch()

    /// `handingOverAll` (tests): the line takes every item with long notes, as if the rules were always behind.
    init(replayingInto rules: FeedEvents, handingOverAll: Bool = false) {
        self.rules = rules
        line = FinishingLine(keepingItemsWithoutEnclosure: rules.state.builder.keepsItemsWithoutEnclosure,
                             alwaysBehind: handingOverAll)
        rules.state.builder.line = line
    }

    deinit { segment.release() }

    // MARK: Recording (the parsing thread)

    func startElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) {
        if stopped.load(ordering: .relaxed) {
            stream.stop()
            return
        }
        segment.append(Op.start.rawValue)
        segment.append(stream.feedElement(element).rawValue)
        element.record(into: &segment, withAttributes: true)
        // The root goes over at once: a document that is no feed stops before libxml2 reads on.
        if !sentRoot {
            sentRoot = true
            send()
        } else if segment.count >= Self.segmentBytes {
            send()
        }
    }

    func endElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) {
        segment.append(Op.end.rawValue)
        element.record(into: &segment, withAttributes: false)
        if segment.count >= Self.segmentBytes { send() }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        segment.appendText(op: Op.text.rawValue, text)
        if segment.count >= Self.segmentBytes { send() }
    }

    /// Replays what is left and waits for the rules to have seen every event, finishing waiting items
    /// meanwhile; every item is finished when it returns.
    func finish() {
        send()
        let replayed = DispatchSemaphore(value: 0)
        queue.async { [self] in
            // Every segment is replayed: both threads finish what waits.
            while !stopped.load(ordering: .relaxed), rules.finishWaiting() {}
            replayed.signal()
        }
        while replayed.wait(timeout: .now()) == .timedOut {
            if stopped.load(ordering: .relaxed) || !line.finishOldest(scratch: &scratch) {
                // Nothing to take now: the rules' thread is replaying, or finishing its last item.
                if replayed.wait(timeout: .now() + .microseconds(100)) == .success { break }
            }
        }
        queue.sync {}
    }

    private func send() {
        guard segment.count > 0 else { return }
        let full = segment.take()
        // The rules are behind: finish their waiting items rather than wait for room on the tape.
        while room.wait(timeout: .now()) == .timedOut {
            guard !stopped.load(ordering: .relaxed), line.finishOldest(scratch: &scratch) else {
                room.wait()
                break
            }
        }
        line.segmentsWaiting.add(1, ordering: .relaxed)
        queue.async { [self] in
            if !stopped.load(ordering: .relaxed), !replay(full) { stopped.store(true, ordering: .relaxed) }
            room.signal()
            // Nothing more to replay yet: finish waiting items, one at a time, until a segment comes.
            guard line.segmentsWaiting.subtract(1, ordering: .relaxed).newValue == 0 else { return }
            while !line.isBehind, !stopped.load(ordering: .relaxed), rules.finishWaiting() {}
        }
        // The rules are behind: the parsing thread finishes a few of the items they left.
        var helped = 0
        while helped < Self.helpPerSegment, line.isBehind, !stopped.load(ordering: .relaxed),
              line.finishOldest(scratch: &scratch) {
            helped += 1
        }
    }

    // MARK: Replaying (the rules' thread)

    /// Replays one segment into the rules; false once they stopped the parse.
    private func replay(_ segment: TapeSegment) -> Bool {
        segment.withBytes { tape in
            var at = 0
            while at < tape.count {
                let op = Op(rawValue: tape[at])
                at += 1
                switch op {
                case .start:
                    let element = FeedElement(rawValue: tape[at]) ?? .unknown
                    at += 1
                    let source = TapeElement(tape: tape, at: &at, withAttributes: true)
                    guard rules.start(element, source: source) else { return false }
                case .end:
                    let source = TapeElement(tape: tape, at: &at, withAttributes: false)
                    guard rules.end(source) else { return false }
                case .text:
                    let length = TapeElement.length(tape, at: &at)
                    rules.characters(UnsafeBufferPointer(rebasing: tape[at..<at + length]))
                    at += length
                case nil:
                    preconditionFailure("a feed tape out of step")
                }
            }
            return true
        }
    }
}

/// The segment being recorded, on the parsing thread: a struct over memory of its own, appended to once
/// per event with no reference counting (`[UInt8]`'s generic appends and uniqueness checks, and then a
/// class's retains, cost more than the SAX pass they recorded).
struct TapeWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    @inline(__always) private mutating func reserve(_ more: Int) {
        if count + more > capacity { grow(more) }
    }

    private mutating func grow(_ more: Int) {
        let grown = max(capacity * 2, count + more)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// A field: its four-byte length (plus one when `marked`: an optional field that is there, 0
    /// standing for one that is not), then its bytes.
    @inline(__always) mutating func appendField(_ bytes: UnsafePointer<UInt8>, count length: Int, marked: Bool = false) {
        reserve(4 + length)
        setLength(marked ? length + 1 : length, at: count)
        Self.copy(bytes, to: base + count + 4, count: length)
        count += 4 + length
    }

    /// A text event: its op, length and bytes.
    @inline(__always) mutating func appendText(op: UInt8, _ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(5 + bytes.count)
        base[count] = op
        setLength(bytes.count, at: count + 1)
        if let source = bytes.baseAddress { Self.copy(source, to: base + count + 5, count: bytes.count) }
        count += 5 + bytes.count
    }

    /// Four bytes, little-endian (no name, value or text run reaches 4 GB: libxml2 caps them lower).
    @inline(__always) mutating func appendLength(_ length: Int) {
        reserve(4)
        setLength(length, at: count)
        count += 4
    }

    /// Names and most values are a few bytes: a loop beats a call to memmove there.
    @inline(__always) private static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        if count <= 16 {
            for index in 0..<count { target[index] = source[index] }
        } else {
            target.update(from: source, count: count)
        }
    }

    /// Writes a four-byte length at `offset` (a count known only after what it counts).
    @inline(__always) mutating func setLength(_ length: Int, at offset: Int) {
        UnsafeMutableRawPointer(base + offset).storeBytes(of: UInt32(truncatingIfNeeded: length).littleEndian, as: UInt32.self)
    }

    /// What was recorded, as a segment to hand over; the writer starts a new one.
    mutating func take() -> TapeSegment {
        let segment = TapeSegment(base: base, count: count)
        base = .allocate(capacity: capacity)
        count = 0
        return segment
    }

    /// Frees the segment being recorded (at the end of the parse, after `take`).
    func release() { base.deallocate() }
}

/// A recorded segment, handed to the rules' thread whole; it owns its bytes.
final class TapeSegment: @unchecked Sendable {
    private let base: UnsafeMutablePointer<UInt8>
    let count: Int

    init(base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { base.deallocate() }

    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base, count: count))
    }
}

/// An element as the tape holds it: its name and, for a start, its attributes — the same answers as the
/// `XMLEventStream.Element` it was recorded from. Valid while its segment is.
struct TapeElement: FeedElementSource {
    private let tape: UnsafeBufferPointer<UInt8>
    private let prefix: Range<Int>?
    private let localName: Range<Int>
    /// Where the attributes start, and how many there are.
    private let attributesAt: Int
    private let attributeCount: Int

    /// Reads the element at `at` and moves `at` past it.
    init(tape: UnsafeBufferPointer<UInt8>, at: inout Int, withAttributes: Bool) {
        self.tape = tape
        prefix = Self.optionalField(tape, at: &at)
        localName = Self.field(tape, at: &at)
        attributeCount = withAttributes ? Self.length(tape, at: &at) : 0
        attributesAt = at
        for _ in 0..<attributeCount {
            _ = Self.optionalField(tape, at: &at)
            _ = Self.field(tape, at: &at)
            _ = Self.field(tape, at: &at)
        }
    }

    static func length(_ tape: UnsafeBufferPointer<UInt8>, at: inout Int) -> Int {
        let value = UInt32(tape[at]) | UInt32(tape[at + 1]) << 8 | UInt32(tape[at + 2]) << 16 | UInt32(tape[at + 3]) << 24
        at += 4
        return Int(value)
    }

    private static func field(_ tape: UnsafeBufferPointer<UInt8>, at: inout Int) -> Range<Int> {
        let length = length(tape, at: &at)
        defer { at += length }
        return at..<at + length
    }

    /// A prefix: recorded with its length plus one, 0 standing for none.
    private static func optionalField(_ tape: UnsafeBufferPointer<UInt8>, at: inout Int) -> Range<Int>? {
        let stored = length(tape, at: &at)
        guard stored > 0 else { return nil }
        defer { at += stored - 1 }
        return at..<at + stored - 1
    }

    private func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: tape[range])
    }

    func attribute(_ name: StaticString) -> String? {
        guard attributeCount > 0 else { return nil }
        return WantedAttribute.with(name) { wanted -> String? in
            var at = attributesAt
            for _ in 0..<attributeCount {
                let prefix = Self.optionalField(tape, at: &at)
                let local = Self.field(tape, at: &at)
                let value = Self.field(tape, at: &at)
                if wanted.matches(localName: local, prefix: prefix, spells: same) {
                    return XMLEventStream.Element.attributeValue(bytes(value))
                }
            }
            return nil
        }
    }

    func forEachUnprefixedAttribute(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        var at = attributesAt
        for _ in 0..<attributeCount {
            let prefix = Self.optionalField(tape, at: &at)
            let local = Self.field(tape, at: &at)
            let value = Self.field(tape, at: &at)
            if prefix == nil { body(bytes(local), bytes(value)) }
        }
    }

    /// Whether the tape's bytes in `range` spell `wanted`.
    @inline(__always) private func same(_ range: Range<Int>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard range.count == wanted.count else { return false }
        guard let tapeBase = tape.baseAddress, let wantedBase = wanted.baseAddress, !range.isEmpty else { return true }
        return memcmp(tapeBase + range.lowerBound, wantedBase, range.count) == 0
    }

    var qualifiedName: String {
        let local = String(decoding: bytes(localName), as: UTF8.self)
        return prefix.map { String(decoding: bytes($0), as: UTF8.self) + ":" + local } ?? local
    }

    func appendLocalName(to buffer: inout [UInt8]) {
        buffer.append(contentsOf: bytes(localName))
    }
}
