import EarshotCore
import Foundation
import Testing

/// The download state machine and the retry schedule, on dates the test chooses.
@Suite("Download states")
struct DownloadStateTests {
    static let t0 = Date(timeIntervalSince1970: 1_000_000)
    static let retry = DownloadRetry(delays: [5, 30])

    static func item(_ state: DownloadState = .queued) -> DownloadItem {
        DownloadItem(episodeID: 7, state: state, url: "https://example.org/7.mp3", file: "1/7.mp3", queuedAt: t0)
    }

    @Test("queued → downloading → (accepted, progress) → done")
    func happyPath() throws {
        var item = Self.item()
        try item.apply(.start(bytes: 0), now: Self.t0, retry: Self.retry)
        #expect(item.state == .downloading)
        try item.apply(.accepted(bytes: 0, total: 1000, etag: "\"a\"", lastModified: nil), now: Self.t0, retry: Self.retry)
        try item.apply(.progress(bytes: 400), now: Self.t0, retry: Self.retry)
        #expect(item.bytes == 400 && item.total == 1000 && item.etag == "\"a\"" && item.fraction == 0.4)
        let later = Self.t0.addingTimeInterval(9)
        try item.apply(.finish(bytes: 1000), now: later, retry: Self.retry)
        #expect(item.state == .done && item.bytes == 1000 && item.finishedAt == later && item.fraction == 1)
        #expect(throws: DownloadRefusal("already downloaded")) { try item.apply(.request, now: later, retry: Self.retry) }
        #expect(throws: DownloadRefusal("already downloaded: delete it instead")) { try item.apply(.cancel, now: later, retry: Self.retry) }
    }

    @Test("transient failures wait on the schedule (5 s, 30 s), then fail; a request starts over")
    func retries() throws {
        var item = Self.item()
        let network = DownloadFailure.network("the connection closed before the end")
        for (attempt, delay) in [(1, 5.0), (2, 30.0)] {
            try item.apply(.start(bytes: 0), now: Self.t0, retry: Self.retry)
            try item.apply(.fail(network, bytes: 10), now: Self.t0, retry: Self.retry)
            #expect(item.state == .queued && item.attempts == attempt)
            #expect(item.retryAt == Self.t0.addingTimeInterval(delay))
            #expect(!item.isReady(at: Self.t0) && item.isReady(at: Self.t0.addingTimeInterval(delay)))
            #expect(item.error == network.message)
        }
        try item.apply(.start(bytes: 0), now: Self.t0, retry: Self.retry)
        try item.apply(.fail(network, bytes: 10), now: Self.t0, retry: Self.retry)
        #expect(item.state == .failed && item.attempts == 3 && item.retryAt == nil)
        try item.apply(.request, now: Self.t0, retry: Self.retry)
        #expect(item.state == .queued && item.attempts == 0 && item.error == nil && item.isReady(at: Self.t0))
    }

    @Test("a permanent failure fails at once; cancel pauses; requesting a paused one queues it")
    func permanentAndCancel() throws {
        var item = Self.item()
        try item.apply(.start(bytes: 0), now: Self.t0, retry: Self.retry)
        try item.apply(.fail(.status(404), bytes: 0), now: Self.t0, retry: Self.retry)
        #expect(item.state == .failed && item.error == "the server answered 404 Not Found")
        #expect(throws: DownloadRefusal("not downloading")) { try item.apply(.cancel, now: Self.t0, retry: Self.retry) }

        var other = Self.item()
        try other.apply(.start(bytes: 0), now: Self.t0, retry: Self.retry)
        try other.apply(.cancel, now: Self.t0, retry: Self.retry)
        #expect(other.state == .paused)
        try other.apply(.cancel, now: Self.t0, retry: Self.retry) // again: nothing to do, no error
        #expect(throws: DownloadRefusal.self) { try other.apply(.progress(bytes: 5), now: Self.t0, retry: Self.retry) }
        try other.apply(.request, now: Self.t0, retry: Self.retry)
        #expect(other.state == .queued)
    }

    @Test("a late report after a cancel is refused and changes nothing")
    func lateReports() throws {
        var item = DownloadItem(episodeID: 7, state: .paused, url: "https://example.org/7.mp3", bytes: 100, file: "1/7.mp3", queuedAt: Self.t0)
        let before = item
        for event in [DownloadEvent.start(bytes: 0), .progress(bytes: 900), .finish(bytes: 1000), .fail(.notAudio, bytes: 0)] {
            #expect(throws: DownloadRefusal.self) { try item.apply(event, now: Self.t0, retry: Self.retry) }
        }
        #expect(item == before)
    }

    @Test("at start: an interrupted download queues again; a file found in place is done")
    func recovery() throws {
        var running = DownloadItem(episodeID: 7, state: .downloading, url: "https://example.org/7.mp3", bytes: 900,
                                   file: "1/7.mp3", etag: "\"v\"", queuedAt: Self.t0)
        try running.apply(.interrupted(partBytes: 800), now: Self.t0)
        #expect(running.state == .queued && running.bytes == 800 && running.etag == "\"v\"", "resumes from the partial file's size")
        var paused = Self.item(.paused)
        try paused.apply(.interrupted(partBytes: nil), now: Self.t0)
        #expect(paused.state == .paused && paused.bytes == 0 && paused.etag == nil, "no partial file: nothing to resume")
        try paused.apply(.recovered(bytes: 1234), now: Self.t0)
        #expect(paused.state == .done && paused.bytes == 1234 && paused.finishedAt == Self.t0)
        try paused.apply(.recovered(bytes: 1300), now: Self.t0.addingTimeInterval(60))
        #expect(paused.bytes == 1300 && paused.finishedAt == Self.t0, "a done file found again keeps its finishing time")
        #expect(throws: DownloadRefusal.self) { try paused.apply(.interrupted(partBytes: 5), now: Self.t0) }
        #expect(throws: DownloadRefusal.self) { try paused.apply(.stopped(bytes: 5), now: Self.t0) }
    }

    @Test("events carry the byte counts: a stop keeps them, a failure with nothing on disk forgets the validators")
    func byteCounts() throws {
        var item = Self.item()
        try item.apply(.start(bytes: 300), now: Self.t0, retry: Self.retry)
        #expect(item.bytes == 300, "a resumed download starts from what is on disk")
        try item.apply(.accepted(bytes: 300, total: 1000, etag: "\"a\"", lastModified: "x"), now: Self.t0, retry: Self.retry)
        try item.apply(.stopped(bytes: 450), now: Self.t0, retry: Self.retry)
        #expect(item.state == .downloading && item.bytes == 450)
        try item.apply(.fail(.network("reset"), bytes: 500), now: Self.t0, retry: Self.retry)
        #expect(item.bytes == 500 && item.etag == "\"a\"" && item.lastModified == "x", "a partial file to resume keeps its validators")
        try item.apply(.start(bytes: 0), now: Self.t0.addingTimeInterval(6), retry: Self.retry)
        try item.apply(.fail(.network("reset"), bytes: 0), now: Self.t0, retry: Self.retry)
        #expect(item.bytes == 0 && item.etag == nil && item.lastModified == nil)
        let info = DownloadItem.Info(title: "New title", podcastID: 3, podcastTitle: "Show", mediaURL: "https://example.org/moved.mp3")
        for state in DownloadState.allCases {
            var any = Self.item(state)
            try any.apply(.described(info), now: Self.t0)
            #expect(any.info == info && any.state == state)
        }
    }

    @Test("which statuses are worth retrying")
    func transient() {
        for code in [408, 429, 500, 502, 503, 504] { #expect(DownloadFailure.status(code).isTransient, "\(code)") }
        for code in [400, 401, 403, 404, 410, 416] { #expect(!DownloadFailure.status(code).isTransient, "\(code)") }
        #expect(DownloadFailure.network("x").isTransient)
        #expect(!DownloadFailure.notAudio.isTransient)
        #expect(DownloadRetry.standard.delay(afterFailures: 1, .network("x")) == 5)
        #expect(DownloadRetry.standard.delay(afterFailures: 4, .network("x")) == 600)
        #expect(DownloadRetry.standard.delay(afterFailures: 5, .network("x")) == nil)
        #expect(DownloadRetry.standard.delay(afterFailures: 1, .notAudio) == nil)
    }

    @Test("the feed's enclosure length counts only when it is a real size")
    func enclosureLength() {
        let queued = DownloadItem.queued(episodeID: 1, url: "https://x/1.mp3", enclosureLength: 1, file: "1/1.mp3", now: Self.t0)
        #expect(queued.enclosureLength == 0 && queued.expectedBytes == nil && queued.fraction == nil)
        let real = DownloadItem.queued(episodeID: 1, url: "https://x/1.mp3", enclosureLength: 50_000, file: "1/1.mp3", now: Self.t0)
        #expect(real.expectedBytes == 50_000)
    }

    @Test("byte counts read as people say them")
    func bytes() {
        #expect(ByteCount.text(999) == "999 B")
        #expect(ByteCount.text(812_400) == "812 KB")
        #expect(ByteCount.text(3_440_000) == "3.4 MB")
        #expect(ByteCount.text(12_000_000) == "12 MB")
        #expect(ByteCount.text(1_250_000_000) == "1.3 GB")
    }
}
