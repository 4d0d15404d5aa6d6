@testable import EarshotCore // fixtures: stored rows built field by field
import Foundation
import Testing

/// The header's "3 of 5 downloaded, 62 %", the batch it counts, the throttle, the policies, the
/// settings and the commands.
@Suite("Download progress, policies and commands")
struct DownloadSummaryTests {
    static let t0 = Date(timeIntervalSince1970: 2_000_000)

    static func item(_ id: Int64, _ state: DownloadState, bytes: Int64 = 0, total: Int64? = nil) -> DownloadItem {
        DownloadItem(episodeID: id, state: state, url: "https://x/\(id).mp3", bytes: bytes, total: total,
                     file: "1/\(id).mp3", queuedAt: t0.addingTimeInterval(Double(id)))
    }

    @Test("3 of 5 downloaded, bytes over bytes when every size is known")
    func bytesWeighted() {
        let items = [Self.item(1, .done, bytes: 100, total: 100), Self.item(2, .done, bytes: 100, total: 100),
                     Self.item(3, .done, bytes: 100, total: 100), Self.item(4, .downloading, bytes: 10, total: 100),
                     Self.item(5, .queued, bytes: 0, total: 100)]
        var batch = DownloadBatch()
        batch.absorb(items.map { Self.item($0.episodeID, .queued) }) // all five were queued together
        batch.absorb(items)
        let summary = DownloadSummary(items, batch: batch)
        #expect(summary.total == 5 && summary.done == 3 && summary.active == 1 && summary.queued == 1)
        #expect(summary.bytes == 310 && summary.totalBytes == 500)
        #expect(summary.percent == 62)
        #expect(summary.label == "3 of 5 downloaded, 62 %")
        #expect(summary.running)
    }

    @Test("unknown sizes: the mean of each download's fraction; never 100 % before all are done")
    func unknownSizes() {
        let items = [Self.item(1, .done, bytes: 100), Self.item(2, .downloading, bytes: 10_000),
                     Self.item(3, .downloading, bytes: 999, total: 1000)]
        let batch = DownloadBatch(members: [1, 2, 3])
        let summary = DownloadSummary(items, batch: batch)
        #expect(summary.totalBytes == nil)
        #expect(summary.percent == 66) // (1 + 0 + 0.999) / 3
        let nearly = [Self.item(1, .downloading, bytes: 1000, total: 1000)]
        var other = DownloadBatch()
        other.absorb(nearly)
        #expect(DownloadSummary(nearly, batch: other).percent == 99)
    }

    @Test("a batch: what ran since the queue was idle; finished batches stay until a new one starts")
    func batches() {
        var batch = DownloadBatch()
        var items = [Self.item(1, .done, bytes: 5, total: 5), Self.item(2, .queued)]
        batch.absorb(items)
        #expect(batch.members == [2], "yesterday's done download is not part of today's batch")
        items[1] = Self.item(2, .done, bytes: 5, total: 5)
        batch.absorb(items)
        #expect(batch.members == [2])
        let idle = DownloadSummary(items, batch: batch)
        #expect(!idle.running && idle.label == "1 of 1 downloaded, 100 %")
        items.append(Self.item(3, .downloading))
        batch.absorb(items)
        #expect(batch.members == [3], "a new batch")
        items.append(Self.item(4, .queued))
        batch.absorb(items)
        #expect(batch.members == [3, 4], "joins the running batch")
        items.removeAll { $0.episodeID == 4 }
        batch.absorb(items)
        #expect(batch.members == [3], "deleted ones leave")
        batch.absorb([Self.item(3, .downloading), Self.item(5, .queued)])
        let failed = [Self.item(3, .failed), Self.item(5, .downloading, bytes: 1, total: 2)]
        batch.absorb(failed)
        #expect(batch.members == [3, 5], "a failure stays in its batch")
        let summary = DownloadSummary(failed, batch: batch)
        #expect(summary.label == "0 of 2 downloaded, 25 %, 1 failed")
    }

    @Test("the throttle: at once after a quiet spell, then no more often than the interval")
    func throttle() {
        var throttle = PublishThrottle(interval: 0.25)
        #expect(throttle.sendTime(forChangeAt: Self.t0) == Self.t0)
        throttle.sent(at: Self.t0)
        #expect(throttle.sendTime(forChangeAt: Self.t0.addingTimeInterval(0.1)) == Self.t0.addingTimeInterval(0.25))
        #expect(throttle.sendTime(forChangeAt: Self.t0.addingTimeInterval(1)) == Self.t0.addingTimeInterval(1))
    }

    @Test("auto-download: the newest N, skipping played and known ones without reaching further back")
    func autoDownload() {
        let newest = [DownloadPolicy.Candidate(episodeID: 9, played: false, known: false),
                      DownloadPolicy.Candidate(episodeID: 8, played: true, known: false),
                      DownloadPolicy.Candidate(episodeID: 7, played: false, known: true),
                      DownloadPolicy.Candidate(episodeID: 6, played: false, known: false)]
        #expect(DownloadPolicy.autoDownload(newest: newest, count: 3) == [9])
        #expect(DownloadPolicy.autoDownload(newest: newest, count: 4) == [9, 6])
        #expect(DownloadPolicy.autoDownload(newest: newest, count: 0) == [])
    }

    @Test("cleanup: played at least N days ago; unknown dates and 'off' keep everything")
    func cleanup() {
        let now = Self.t0
        let played = [DownloadPolicy.PlayedDownload(episodeID: 1, playedAt: now.addingTimeInterval(-8 * 86_400)),
                      DownloadPolicy.PlayedDownload(episodeID: 2, playedAt: now.addingTimeInterval(-6 * 86_400)),
                      DownloadPolicy.PlayedDownload(episodeID: 3, playedAt: nil),
                      DownloadPolicy.PlayedDownload(episodeID: 4, playedAt: now.addingTimeInterval(-7 * 86_400))]
        #expect(DownloadPolicy.expired(played, days: 7, now: now) == [1, 4])
        #expect(DownloadPolicy.expired(played, days: nil, now: now) == [])
    }

    @Test("settings: ranges, null turns a policy off, a bad stored row keeps the defaults")
    func settings() throws {
        let defaults = DownloadSettings()
        #expect(defaults.concurrency == 2 && defaults.deletePlayedAfterDays == nil && defaults.autoDownload.isEmpty)
        var changed = try defaults.applying(.init(concurrency: 4, deletePlayedAfterDays: .some(7)))
        #expect(changed.concurrency == 4 && changed.deletePlayedAfterDays == 7)
        changed = try changed.applying(.init(deletePlayedAfterDays: .some(nil)))
        #expect(changed.deletePlayedAfterDays == nil && changed.concurrency == 4)
        #expect(throws: CommandError("concurrency must be 1 to 6")) { try defaults.applying(.init(concurrency: 0)) }
        #expect(throws: CommandError.self) { try defaults.applying(.init(deletePlayedAfterDays: .some(0))) }
        changed = try changed.settingAutoDownload(podcast: 5, count: 3)
        let json = try JSONEncoder().encode(changed)
        #expect(try JSONDecoder().decode(DownloadSettings.self, from: json) == changed)
        #expect(String(decoding: json, as: UTF8.self).contains("\"autoDownload\":{\"5\":3}"))
        let hostile = #"{"concurrency": 99, "deletePlayedAfterDays": -3, "autoDownload": {"x": 2, "4": 500, "6": 2}}"#
        let read = try JSONDecoder().decode(DownloadSettings.self, from: Data(hostile.utf8))
        #expect(read == DownloadSettings(concurrency: 2, deletePlayedAfterDays: nil, autoDownload: [6: 2]))
    }

    @Test("download commands decode; bad arguments are refused with a message")
    func commands() {
        func decode(_ text: String) -> Result<ClientCommand, CommandError> { ClientCommand.decode(text).result }
        #expect(decode(#"{"cmd":"download","episode":4}"#) == .success(.download(.download(episode: 4))))
        #expect(decode(#"{"cmd":"download.cancel","episode":4}"#) == .success(.download(.cancel(episode: 4))))
        #expect(decode(#"{"cmd":"download.retry","episode":4}"#) == .success(.download(.retry(episode: 4))))
        #expect(decode(#"{"cmd":"download.delete","episode":4}"#) == .success(.download(.delete(episode: 4))))
        #expect(decode(#"{"cmd":"download.settings","concurrency":3}"#)
                == .success(.download(.settings(.init(concurrency: 3)))))
        #expect(decode(#"{"cmd":"download.settings","deletePlayedAfterDays":null}"#)
                == .success(.download(.settings(.init(deletePlayedAfterDays: .some(nil))))))
        #expect(decode(#"{"cmd":"download.auto","podcast":2,"newest":3}"#) == .success(.download(.auto(podcast: 2, newest: 3))))
        #expect(decode(#"{"cmd":"download.auto","podcast":2,"newest":null}"#) == .success(.download(.auto(podcast: 2, newest: nil))))
        #expect(decode(#"{"cmd":"download"}"#) == .failure(CommandError("\"download\" needs an id \"episode\"")))
        #expect(decode(#"{"cmd":"download.settings"}"#)
                == .failure(CommandError("\"download.settings\" needs \"concurrency\" or \"deletePlayedAfterDays\"")))
        #expect(decode(#"{"cmd":"download.settings","concurrency":9}"#) == .failure(CommandError("concurrency must be 1 to 6")))
        #expect(decode(#"{"cmd":"download.auto","podcast":2}"#)
                == .failure(CommandError("\"download.auto\" needs \"newest\": a number of episodes, or null (off)")))
        #expect(decode(#"{"cmd":"download.pause","episode":1}"#) == .failure(CommandError("unknown command \"download.pause\"")))
    }

    @Test("the downloads message: items in queue order, explicit nulls, the summary and settings")
    func message() throws {
        var a = Self.item(2, .downloading, bytes: 50, total: 200)
        a.info = DownloadItem.Info(title: "Two", podcastID: 9, podcastTitle: "Show")
        let b = Self.item(1, .failed)
        var batch = DownloadBatch()
        batch.absorb([a, b])
        let text = ServerMessage.downloads(DownloadsMessage(items: [a, b], summary: DownloadSummary([a, b], batch: batch), settings: DownloadSettings())).encoded()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "downloads")
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.map { $0["episode"] as? Int } == [1, 2])
        #expect(items[1]["title"] as? String == "Two" && items[1]["podcast"] as? String == "Show" && items[1]["podcastId"] as? Int == 9)
        #expect(items[1]["fraction"] as? Double == 0.25 && items[1]["state"] as? String == "downloading")
        #expect(items[0]["total"] is NSNull && items[0]["fraction"] is NSNull, "unknown is null, not absent")
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["label"] as? String == "0 of 1 downloaded, 25 %")
        #expect((json["settings"] as? [String: Any])?["concurrency"] as? Int == 2)
    }
}
