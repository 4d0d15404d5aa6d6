import EarshotCore
import Foundation

/// Sanitizes the show notes of a large feed beside the parse: the parsing thread hands items' HTML over
/// in batches and goes on reading XML while a thread of the pipeline's own builds the trees, in order.
///
/// Building thousands of trees is mostly allocation, and on a 30 MB feed it took nearly as long as the
/// XML itself; done beside it, the notes are ready about when the XML is read. Batches keep the
/// hand-overs (wake-ups, one buffer each) few. The thread is the pipeline's own, not a shared pool's, so
/// it can run at the parsing thread's priority (a background refresh stays in the background). Small
/// feeds do not use it.
final class NotesPipeline: @unchecked Sendable {
    /// Documents from this size on are worth a second thread.
    static let threshold = 1 << 20
    /// A batch goes over once it holds this many bytes of HTML.
    static let batchBytes = 256 << 10

    private struct Job {
        let item: Int
        let range: Range<Int>
        let baseURL: URL
    }

    private struct Batch {
        let html: [UInt8]
        let jobs: [Job]
    }

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var queued: [Batch] = []
    private var results: [(item: Int, notes: [RichText])] = []
    private var finished = false
    private var cancelled = false
    private var done = false
    /// The batch being filled; used only on the parsing thread.
    private var html: [UInt8] = []
    private var jobs: [Job] = []

    init() {
        let niceness = Self.currentNiceness()
        let thread = Thread { [self] in
            Self.setNiceness(niceness)
            work()
        }
        thread.name = "earshot-shownotes"
        thread.start()
    }

    /// Adds item number `item`'s HTML to the batch (copied: the parser reuses its buffers).
    func add(_ bytes: UnsafeBufferPointer<UInt8>, baseURL: URL, for item: Int) {
        if html.isEmpty { html.reserveCapacity(Self.batchBytes + bytes.count) }
        jobs.append(Job(item: item, range: html.count..<html.count + bytes.count, baseURL: baseURL))
        html.append(contentsOf: bytes)
        if html.count >= Self.batchBytes { send() }
    }

    private func send() {
        guard !jobs.isEmpty else { return }
        let batch = Batch(html: html, jobs: jobs)
        html = []
        jobs = []
        condition.withLock {
            queued.append(batch)
            condition.signal()
        }
    }

    /// Sends the last batch and waits for every one: the notes of each item that had HTML, by number.
    func collect() -> [(item: Int, notes: [RichText])] {
        send()
        return condition.withLock {
            finished = true
            condition.broadcast()
            while !done { condition.wait() }
            return results
        }
    }

    /// The parse failed: the thread stops after the batch it is on.
    func cancel() {
        condition.withLock {
            cancelled = true
            finished = true
            condition.broadcast()
        }
    }

    private func work() {
        var scratch = HTMLSanitizer.Scratch()
        while let batch = nextBatch() {
            var sanitized: [(item: Int, notes: [RichText])] = []
            sanitized.reserveCapacity(batch.jobs.count)
            batch.html.withUnsafeBufferPointer { all in
                for job in batch.jobs {
                    sanitized.append((job.item, ShowNotes.sanitize(bytes: UnsafeBufferPointer(rebasing: all[job.range]),
                                                                   baseURL: job.baseURL, reusing: &scratch)))
                }
            }
            condition.withLock { results += sanitized }
        }
        condition.withLock {
            done = true
            condition.broadcast()
        }
    }

    /// The next batch, or nil once the parse finished (or failed) and nothing is left.
    private func nextBatch() -> Batch? {
        condition.withLock {
            while queued.isEmpty && !finished { condition.wait() }
            return cancelled || queued.isEmpty ? nil : queued.removeFirst()
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
