import EarshotCore
import Foundation

/// Sanitizes the show notes of a large feed beside the parse: the parsing thread hands items' HTML over
/// in batches and goes on reading XML while one background queue builds the trees, in order.
///
/// Building thousands of trees is mostly allocation, and on a 30 MB feed it took nearly as long as
/// the XML itself; done beside it, the notes are ready about when the XML is read. Batches keep the
/// hand-overs (thread wake-ups, one buffer each) few. Small feeds do not use it.
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

    private let queue = DispatchQueue(label: "earshot.feeds.shownotes", qos: .userInitiated)
    private let group = DispatchGroup()
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var results: [(item: Int, notes: [RichText])] = []
    private var cancelled = false
    /// Used only on `queue`.
    private var scratch = HTMLSanitizer.Scratch()
    /// The batch being filled; used only on the parsing thread.
    private var html: [UInt8] = []
    private var jobs: [Job] = []

    /// Adds item number `item`'s HTML to the batch (copied: the parser reuses its buffers).
    func add(_ bytes: UnsafeBufferPointer<UInt8>, baseURL: URL, for item: Int) {
        if html.isEmpty { html.reserveCapacity(Self.batchBytes + bytes.count) }
        jobs.append(Job(item: item, range: html.count..<html.count + bytes.count, baseURL: baseURL))
        html.append(contentsOf: bytes)
        if html.count >= Self.batchBytes { send() }
    }

    private func send() {
        guard !jobs.isEmpty else { return }
        let html = self.html
        let jobs = self.jobs
        self.html = []
        self.jobs = []
        queue.async(group: group) { [self] in
            if lock.withLock({ cancelled }) { return }
            var done: [(item: Int, notes: [RichText])] = []
            done.reserveCapacity(jobs.count)
            html.withUnsafeBufferPointer { all in
                for job in jobs {
                    let notes = ShowNotes.sanitize(bytes: UnsafeBufferPointer(rebasing: all[job.range]),
                                                   baseURL: job.baseURL, reusing: &scratch)
                    done.append((job.item, notes))
                }
            }
            lock.withLock { results += done }
        }
    }

    /// Sends the last batch and waits for every one: the notes of each item that had HTML, by number.
    func collect() -> [(item: Int, notes: [RichText])] {
        send()
        group.wait()
        return lock.withLock { results }
    }

    /// The parse failed: batches not started yet do nothing.
    func cancel() {
        lock.withLock { cancelled = true }
    }
}
