import Dispatch
import EarshotCore
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Finishes the items of a large feed beside the parse: the parsing thread hands each item's draft over
/// (in batches) and goes on reading XML while a serial queue of the pipeline's own turns the drafts into
/// `FeedItem`s — their summaries made plain text, their show notes sanitized — in document order.
///
/// On a 30 MB feed, finishing the items (20 MB of notes) takes about as long as reading the XML; done
/// beside it, the items are ready about when the XML is read. Batches keep the hand-overs few; at most
/// `maxQueued` wait, so a queue that falls behind holds a megabyte of drafts, not the rest of the feed's.
/// Each batch runs at the parsing thread's nice value (a background refresh stays in the background),
/// set and restored around the batch because the queue's thread is the system pool's. Small feeds do
/// not use it.
final class NotesPipeline: @unchecked Sendable {
    /// Documents from this size on are worth a second thread.
    static let threshold = 1 << 20
    /// A batch goes over once its drafts hold this many bytes of notes.
    static let batchBytes = 256 << 10
    /// Batches handed over and not yet finished, at most.
    static let maxQueued = 4

    private let keepsItemsWithoutEnclosure: Bool
    private let queue = DispatchQueue(label: "earshot-items")
    private let room = DispatchSemaphore(value: NotesPipeline.maxQueued)
    private let niceness = NotesPipeline.currentNiceness()
    private let results = Mutex<[FeedItem]>([])
    /// Finished drafts' note buffers, back for the parsing thread to fill again: a buffer freed on the
    /// pipeline's thread but allocated on the parsing one makes the two contend for the allocator's lock
    /// of that thread's arena, item after item.
    private let spares = Mutex<[ItemDraft.NotesBuffers]>([])
    /// A few are enough to keep the parsing thread supplied; each keeps the capacity of the largest
    /// notes it held (64 of them added 4 MB to a 30 MB feed's peak).
    static let maxSpares = 8
    private let cancelled = Atomic<Bool>(false)
    /// Used only on `queue`.
    private var scratch = HTMLSanitizer.Scratch()
    /// The batch being filled, and the bytes of notes in it; used only on the parsing thread.
    private var drafts: [(draft: ItemDraft, baseURL: URL)] = []
    private var bytes = 0

    init(keepingItemsWithoutEnclosure: Bool) {
        keepsItemsWithoutEnclosure = keepingItemsWithoutEnclosure
    }

    /// Adds an item's draft, read to its end, relative links to be resolved against `baseURL`.
    func add(_ draft: ItemDraft, baseURL: URL) {
        drafts.append((draft, baseURL))
        bytes += draft.notes.plain.count + draft.notes.html.count + draft.notes.atomSummary.count + 512
        if bytes >= Self.batchBytes { send() }
    }

    private func send() {
        guard !drafts.isEmpty else { return }
        let batch = drafts
        drafts = []
        bytes = 0
        room.wait()
        queue.async { [self] in
            defer { room.signal() }
            guard !cancelled.load(ordering: .relaxed) else { return }
            finish(batch)
        }
    }

    /// Sends the last batch and waits for every one: the finished items, in document order.
    func collect() -> [FeedItem] {
        send()
        queue.sync {}
        return takeFinished()
    }

    /// The items finished so far and not yet taken, in document order (`collect` gives the rest).
    func takeFinished() -> [FeedItem] {
        results.withLock { items in
            defer { items = [] }
            return items
        }
    }

    /// Buffers for the next draft: a finished draft's, emptied, when one is back.
    func spareBuffers() -> ItemDraft.NotesBuffers {
        spares.withLock { $0.popLast() } ?? ItemDraft.NotesBuffers()
    }

    /// The parse failed: batches not yet started are skipped.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    private func finish(_ batch: [(draft: ItemDraft, baseURL: URL)]) {
        let poolNiceness = Self.currentNiceness()
        if poolNiceness != niceness { Self.setNiceness(niceness) }
        defer { if poolNiceness != niceness { Self.setNiceness(poolNiceness) } }
        var finished: [FeedItem] = []
        finished.reserveCapacity(batch.count)
        var returned: [ItemDraft.NotesBuffers] = []
        for (draft, baseURL) in batch {
            if let item = draft.finished(keepingItemsWithoutEnclosure: keepsItemsWithoutEnclosure, baseURL: baseURL,
                                         scratch: &scratch) {
                finished.append(item)
            }
            returned.append(draft.notes)
        }
        results.withLock { $0 += finished }
        spares.withLock { spares in
            spares += returned.prefix(max(0, Self.maxSpares - spares.count))
        }
    }

    // Linux keeps a nice value per thread (`setpriority` with id 0 is the calling thread); elsewhere it is
    // the whole process's, so it is left alone there.
    private static func currentNiceness() -> Int32 {
        #if os(Linux)
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
        return 0
        #endif
    }

    private static func setNiceness(_ niceness: Int32) {
        #if os(Linux)
        if niceness != 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
        #endif
    }
}
