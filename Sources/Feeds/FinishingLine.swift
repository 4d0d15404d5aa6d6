import EarshotCore
import FoundationEssentials
import Synchronization

/// Items read to their end and not yet finished (show notes sanitized, summaries made plain text),
/// shared by a taped parse's two threads (`FeedTape`): finishing is most of the rules' work on a feed
/// with long notes, and either thread may do it, while replaying the tape is the rules' thread's alone.
///
/// The rules' thread finishes an item itself as it ends, unless it is behind the tape and the item's
/// notes are long (`shareableBytes`), or others wait here: then it adds the draft, and finishes waiting
/// drafts when no segment waits for it or when more than `maxWaitingBytes` of notes wait (the bound on
/// what a parse holds). The parsing thread finishes the oldest waiting draft when it can spare the
/// time (`FeedTape`). Finished items come out in document order (`takeReady`).
final class FinishingLine: @unchecked Sendable {
    /// Notes waiting to be finished, at most (about what the segments on the tape may hold).
    static let maxWaitingBytes = 1 << 20
    /// Notes from this size on are worth handing to the other thread: shorter ones cost about as much
    /// to hand over as to finish (the 60,000-item feed's 650-byte items, all handed over, took 577 ms
    /// against 400 on the rules' thread alone).
    static let shareableBytes = 8 << 10

    /// Whether `draft`'s notes are long enough to be finished by the other thread.
    static func isWorthSharing(_ draft: ItemDraft) -> Bool {
        bytes(draft) - 512 >= shareableBytes
    }
    /// A finished draft's note buffers kept for the next drafts, at most.
    static let maxSpares = 8

    private enum Slot: Sendable {
        case waiting(ItemDraft, baseURL: URL)
        /// Being finished by one of the threads.
        case taken
        /// Finished: nil when the draft made no item (nothing to play).
        case done(FeedItem?)
    }

    private struct State: Sendable {
        /// The drafts added and not yet taken out, in document order; `slots[i]` is draft `base + i`.
        var slots: [Slot] = []
        var base = 0
        /// Slots before `front` are taken out (kept until the array is compacted).
        var front = 0
        /// No draft waits before `scan`.
        var scan = 0
        var waitingBytes = 0
        var spares: [ItemDraft.NotesBuffers] = []
    }

    private let state = Mutex(State())
    private let keepsItemsWithoutEnclosure: Bool
    /// Segments of the tape handed over and not yet replayed (`FeedTape` keeps the count).
    let segmentsWaiting = Atomic<Int>(0)

    /// Tests: the rules count as behind whatever the tape holds.
    private let alwaysBehind: Bool

    init(keepingItemsWithoutEnclosure: Bool, alwaysBehind: Bool = false) {
        keepsItemsWithoutEnclosure = keepingItemsWithoutEnclosure
        self.alwaysBehind = alwaysBehind
    }

    /// Whether the rules' thread has segments to replay: it is behind the parsing thread.
    var isBehind: Bool { alwaysBehind || segmentsWaiting.load(ordering: .relaxed) > 0 }

    /// Whether every draft added is finished and taken out: an item finished now comes after them all.
    var isEmpty: Bool { state.withLock { $0.front == $0.slots.count } }

    /// Whether more notes wait than a parse may hold.
    var isFull: Bool { state.withLock { $0.waitingBytes > Self.maxWaitingBytes } }

    private static func bytes(_ draft: ItemDraft) -> Int {
        draft.notes.plain.count + draft.notes.html.count + draft.notes.atomSummary.count + 512
    }

    /// Adds a draft read to its end (the rules' thread, in document order).
    func add(_ draft: ItemDraft, baseURL: URL) {
        // Only a taped parse has a line, and a tape copies the text it replays: no draft on it holds a view.
        assert(draft.htmlInDocument == nil, "a draft waiting on the line must own its notes")
        let size = Self.bytes(draft)
        state.withLock { state in
            state.slots.append(.waiting(draft, baseURL: baseURL))
            state.waitingBytes += size
        }
    }

    /// Finishes the oldest waiting draft on the calling thread; false when none waits.
    func finishOldest(scratch: inout HTMLSanitizer.Scratch) -> Bool {
        let taken = state.withLock { state -> (number: Int, draft: ItemDraft, baseURL: URL)? in
            while state.scan < state.slots.count {
                let index = state.scan
                state.scan += 1
                guard case .waiting(let draft, let baseURL) = state.slots[index] else { continue }
                state.slots[index] = .taken
                state.waitingBytes -= Self.bytes(draft)
                return (state.base + index, draft, baseURL)
            }
            return nil
        }
        guard let (number, waiting, baseURL) = taken else { return false }
        var draft = waiting  // finishing moves its values into the item
        let item = draft.finished(keepingItemsWithoutEnclosure: keepsItemsWithoutEnclosure, baseURL: baseURL,
                                  scratch: &scratch)
        state.withLock { state in
            state.slots[number - state.base] = .done(item)  // compaction keeps slots at `front` and after
            if state.spares.count < Self.maxSpares { state.spares.append(draft.notes) }
        }
        return true
    }

    /// The items finished so far that follow every earlier one, in document order.
    func takeReady() -> [FeedItem] {
        state.withLock { state in
            var ready: [FeedItem] = []
            while state.front < state.slots.count, case .done(let item) = state.slots[state.front] {
                if let item { ready.append(item) }
                state.front += 1
            }
            if state.front >= 256, state.front * 2 >= state.slots.count {
                state.slots.removeFirst(state.front)
                state.base += state.front
                state.scan -= state.front
                state.front = 0
            }
            return ready
        }
    }

    /// Note buffers for the next draft: a finished draft's, when one is back.
    func spareBuffers() -> ItemDraft.NotesBuffers? {
        state.withLock { $0.spares.popLast() }
    }
}
