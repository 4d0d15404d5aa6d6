import FoundationEssentials

/// Every download at a glance, and the batch's progress: "3 of 5 downloaded, 62 %".
public struct DownloadSummary: Sendable, Equatable, Encodable {
    /// Downloads in the batch, and how many of them are done / downloading / queued / paused / failed.
    public var total = 0
    public var done = 0
    public var active = 0
    public var queued = 0
    public var paused = 0
    public var failed = 0
    /// Bytes of the batch on disk, and expected (nil while some size is unknown).
    public var bytes: Int64 = 0
    public var totalBytes: Int64?
    /// 0 … 1: bytes over expected bytes when every size is known, else the mean of each download's
    /// fraction (unknown sizes count 0 until done). Below 1 until all are done.
    public var fraction: Double = 0
    public var percent = 0
    /// Something is queued or downloading: the header shows the label.
    public var running = false
    /// "3 of 5 downloaded, 62 %" (", 1 failed" when one did); "" without a batch.
    public var label = ""

    public init() {}

    /// The summary of `items` for the downloads in `batch`.
    public init(_ items: some Collection<DownloadItem>, batch: DownloadBatch) {
        let members = items.filter { batch.members.contains($0.episodeID) }
        running = items.contains { $0.state.isRunning }
        total = members.count
        guard total > 0 else { return }
        for item in members {
            switch item.state {
            case .done: done += 1
            case .downloading: active += 1
            case .queued: queued += 1
            case .paused: paused += 1
            case .failed: failed += 1
            }
            bytes += item.bytes
        }
        let sizes = members.map(\.expectedBytes)
        if sizes.allSatisfy({ $0 != nil }) {
            let expected = sizes.reduce(Int64(0)) { $0 + ($1 ?? 0) }
            totalBytes = expected
            fraction = expected > 0 ? min(1, Double(bytes) / Double(expected)) : 0
        } else {
            fraction = members.reduce(0) { $0 + ($1.fraction ?? 0) } / Double(total)
        }
        if done < total { fraction = min(fraction, 0.999) }
        percent = Int((fraction * 100).rounded(.down))
        label = "\(done) of \(total) downloaded, \(percent) %" + (failed > 0 ? ", \(failed) failed" : "")
    }
}
