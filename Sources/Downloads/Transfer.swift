import EarshotCore
import HTTPClient
import Foundation

/// One download attempt, on a thread of its own (libcurl blocks it): the body is written into the
/// partial file beside the target, resumed with `Range` + `If-Range` when the partial file has a
/// strong validator, then flushed and checked. The manager renames it into place (on its actor, so
/// a delete can never race the rename) or gives up.
///
/// The transfer's thread alone touches the file and counts its bytes; the manager learns them
/// only from `Event`s, in order. Thread-safe: `cancel()` is the one call from outside, behind a lock.
final class Transfer: @unchecked Sendable {
    struct Job: Sendable {
        var url: String
        /// The partial file: the final path + ".part".
        var partPath: String
        var etag: String?
        var lastModified: String?
        var enclosureLength: Int64
        var userAgent = Earshot.userAgent
        var connectTimeout = 30
        var stallTimeout = 60
    }

    /// What the transfer tells the manager. Every transfer ends with exactly one of
    /// `verified`, `failed` or `stopped`.
    enum Event: Sendable {
        /// The server's answer was accepted: the partial file holds `bytes` (0 after a restart). The
        /// transfer writes no byte of the body until `stored` fires: the validators a resume needs
        /// are in the library first, so a crash from then on resumes rather than starting over.
        case accepted(bytes: Int64, total: Int64?, etag: String?, lastModified: String?, stored: StoredSignal)
        case progress(bytes: Int64)
        /// The partial file is whole, on the disk and passed the checks: rename it.
        case verified(bytes: Int64)
        /// `bytes`: what stays in the partial file (0 when it was deleted as useless).
        case failed(DownloadFailure, bytes: Int64)
        /// Cancelled; the partial file holds `bytes`.
        case stopped(bytes: Int64)
    }

    let job: Job
    private let report: @Sendable (Event) -> Void
    private let lock = NSLock()
    private var cancelled = false
    /// How often progress is reported while bytes arrive.
    static let progressInterval: TimeInterval = 0.1
    /// Every this many bytes the disk is asked to start writing what arrived: the final fsync then
    /// finds little left to do, and a long download never piles up gigabytes of dirty pages. (On the
    /// bench's four loopback downloads at once, 8 MB gave 83–84 % of curl's speed, 32 MB 74–80 %: the
    /// last stretch of each file waits for the disk after its last byte. Reserving the file's blocks up
    /// front, `PartFile.reserve`, took it to 88–96 %: ext4 then has no blocks to choose as it writes back.)
    static let writeBehind: Int64 = 8 << 20

    init(_ job: Job, report: @escaping @Sendable (Event) -> Void) {
        self.job = job
        self.report = report
    }

    func start(name: String) {
        let thread = Thread { [self] in report(run()) }
        thread.name = name
        thread.start()
    }

    /// Stops at the next piece of the body (or within a second when none arrives).
    func cancel() { lock.withLock { cancelled = true } }

    var isCancelled: Bool { lock.withLock { cancelled } }

    // MARK: On the transfer's thread

    private func run() -> Event {
        let fd: Int32
        do { fd = try PartFile.open(job.partPath) } catch { return .failed(.disk(error.description), bytes: 0) }
        defer { close(fd) }
        let onDisk = PartFile.size(fd)
        var offset = DownloadValidator.resumeOffset(partialBytes: onDisk, etag: job.etag, lastModified: job.lastModified)
        // A second round only after the server refused the range (416, or a 206 from elsewhere).
        for _ in 0..<2 {
            let round = attempt(fd: fd, offset: offset)
            switch round {
            case .restart:
                offset = 0
                continue
            case .done(let event):
                return event
            }
        }
        return .failed(.network("the server refused every range"), bytes: PartFile.size(fd))
    }

    private enum Round { case done(Event), restart }

    private func attempt(fd: Int32, offset: Int64) -> Round {
        do { try PartFile.truncate(fd, to: offset) } catch { return .done(.failed(.disk(error.description), bytes: offset)) }
        var options = CurlRequest.Options(url: job.url)
        options.userAgent = job.userAgent
        options.connectTimeout = job.connectTimeout
        options.stallTimeout = job.stallTimeout
        if offset > 0, let validator = DownloadValidator.ifRange(etag: job.etag, lastModified: job.lastModified) {
            options.headers = ["Range: bytes=\(offset)-", "If-Range: \(validator)"]
        }
        let request = CurlRequest(options)
        var plan: DownloadResponse.Plan?
        var failure: DownloadFailure?
        var onDisk = offset
        var flushedTo = offset
        var lastReport = Date()

        /// Acts on the final response's headers, once: true when its body should be written.
        func accept(_ response: DownloadResponse) -> Bool {
            let decided = response.plan(requestedOffset: offset)
            plan = decided
            switch decided {
            case .append(let total):
                if let total, !PartFile.reserve(fd, from: offset, to: total) {
                    failure = .diskFull
                    return false
                }
                reportAccepted(bytes: offset, total: total, etag: response.etag ?? job.etag,
                               lastModified: response.lastModified ?? job.lastModified)
                return true
            case .replace(let total):
                do { try PartFile.truncate(fd, to: 0) } catch {
                    failure = .disk(error.description)
                    return false
                }
                onDisk = 0
                if let total, !PartFile.reserve(fd, from: 0, to: total) {
                    failure = .diskFull
                    return false
                }
                reportAccepted(bytes: 0, total: total, etag: response.etag, lastModified: response.lastModified)
                return true
            case .complete, .restart, .fail:
                return false
            }
        }

        request.shouldStop = { [unowned self] in isCancelled }
        request.onBody = { bytes, response in
            if plan == nil {
                guard accept(response) else { return false }
                // A page served as audio: its first bytes give it away before any is kept.
                if onDisk == 0, DownloadChecks.looksLikeHTML(bytes) {
                    failure = .notAudio
                    return false
                }
            }
            do throws(PartFile.Failure) { try PartFile.write(fd, bytes) } catch {
                failure = error.code == ENOSPC ? .diskFull : .disk(error.description)
                return false
            }
            onDisk += Int64(bytes.count)
            if onDisk - flushedTo >= Self.writeBehind {
                PartFile.startWriteback(fd, from: flushedTo, to: onDisk)
                flushedTo = onDisk
            }
            let now = Date()
            if now.timeIntervalSince(lastReport) >= Self.progressInterval {
                lastReport = now
                self.report(.progress(bytes: onDisk))
            }
            return true
        }

        let ending = request.perform()
        // Whatever happens next, blocks reserved past what was written are given back (a resume
        // reserves again).
        PartFile.releaseReservation(fd)
        if isCancelled { return .done(.stopped(bytes: PartFile.size(fd))) }
        if let failure {
            // A page is no start for a resume; a file that filled the disk would keep it full.
            if failure == .notAudio || failure == .diskFull { PartFile.remove(job.partPath); return .done(.failed(failure, bytes: 0)) }
            return .done(.failed(failure, bytes: PartFile.size(fd)))
        }
        if case .failed(let network) = ending { return .done(.failed(DownloadFailure(network), bytes: PartFile.size(fd))) }
        // An answer without a body never reached `onBody`: decide on its headers now.
        if plan == nil, let response = request.response { _ = accept(response) }
        switch plan {
        case .restart?: return .restart
        case .fail(let refused)?: return .done(.failed(refused, bytes: PartFile.size(fd)))
        case .complete(let total)?: return .done(verify(fd: fd, serverTotal: total))
        case .append(let total)?, .replace(let total)?: return .done(verify(fd: fd, serverTotal: total))
        case nil: return .done(.failed(.network("no answer"), bytes: PartFile.size(fd)))
        }
    }

    /// Reports the accepted answer and waits (at most `storeWait` seconds: a library that cannot be
    /// written must not stall the download) until the library holds it.
    private func reportAccepted(bytes: Int64, total: Int64?, etag: String?, lastModified: String?) {
        let stored = StoredSignal()
        report(.accepted(bytes: bytes, total: total, etag: etag, lastModified: lastModified, stored: stored))
        stored.wait(seconds: Self.storeWait)
    }

    static let storeWait: Double = 10

    /// Flushes the finished partial file and checks it: the size against what the server (or the
    /// feed) said, the first bytes for an HTML page. A file that fails is deleted: it is no good start
    /// for a resume.
    private func verify(fd: Int32, serverTotal: Int64?) -> Event {
        do { try PartFile.sync(fd) } catch { return .failed(.disk(error.description), bytes: PartFile.size(fd)) }
        let size = PartFile.size(fd)
        var failure = DownloadChecks.size(written: size, serverTotal: serverTotal, enclosureLength: job.enclosureLength)
        if failure == nil, DownloadChecks.looksLikeHTML(PartFile.head(fd)) { failure = .notAudio }
        if let failure {
            PartFile.remove(job.partPath)
            return .failed(failure, bytes: 0)
        }
        return .verified(bytes: size)
    }
}
