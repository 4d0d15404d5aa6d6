import EarshotCore
import Foundation
import Testing

/// What a download does with each kind of answer, and the checks a finished file must pass.
@Suite("Download decisions")
struct DownloadDecisionTests {
    @Test("If-Range: a strong ETag, else Last-Modified; a weak ETag alone is no validator")
    func validators() {
        #expect(DownloadValidator.ifRange(etag: "\"abc\"", lastModified: "Tue, 03 Mar 2026 10:00:00 GMT") == "\"abc\"")
        #expect(DownloadValidator.ifRange(etag: "W/\"abc\"", lastModified: "Tue, 03 Mar 2026 10:00:00 GMT")
                == "Tue, 03 Mar 2026 10:00:00 GMT")
        #expect(DownloadValidator.ifRange(etag: "W/\"abc\"", lastModified: nil) == nil)
        #expect(DownloadValidator.ifRange(etag: " ", lastModified: "") == nil)
        #expect(DownloadValidator.resumeOffset(partialBytes: 500, etag: "\"a\"", lastModified: nil) == 500)
        #expect(DownloadValidator.resumeOffset(partialBytes: 500, etag: "W/\"a\"", lastModified: nil) == 0)
        #expect(DownloadValidator.resumeOffset(partialBytes: 0, etag: "\"a\"", lastModified: nil) == 0)
    }

    @Test("206 from the offset appends; 206 from elsewhere restarts; 200 replaces")
    func statuses() {
        let partial = DownloadResponse(status: 206, contentLength: 600, contentRange: "bytes 400-999/1000", contentType: "audio/mpeg")
        #expect(partial.plan(requestedOffset: 400) == .append(total: 1000))
        #expect(partial.plan(requestedOffset: 300) == .restart)
        let unknownTotal = DownloadResponse(status: 206, contentLength: 600, contentRange: "bytes 400-999/*")
        #expect(unknownTotal.plan(requestedOffset: 400) == .append(total: 1000))
        #expect(DownloadResponse(status: 206).plan(requestedOffset: 400) == .restart, "no Content-Range: cannot splice")
        let whole = DownloadResponse(status: 200, contentLength: 1000, contentType: "audio/mpeg")
        #expect(whole.plan(requestedOffset: 400) == .replace(total: 1000), "a 200 to a Range request starts over")
        #expect(whole.plan(requestedOffset: 0) == .replace(total: 1000))
        #expect(DownloadResponse(status: 200).plan(requestedOffset: 0) == .replace(total: nil))
    }

    @Test("416: done when the partial file is the whole file, else start over; errors fail")
    func unsatisfiable() {
        let range = DownloadResponse(status: 416, contentRange: "bytes */1000")
        #expect(range.plan(requestedOffset: 1000) == .complete(total: 1000))
        #expect(range.plan(requestedOffset: 1200) == .restart)
        #expect(DownloadResponse(status: 416).plan(requestedOffset: 0) == .fail(.status(416)))
        #expect(DownloadResponse(status: 404).plan(requestedOffset: 0) == .fail(.status(404)))
        #expect(DownloadResponse(status: 503).plan(requestedOffset: 10) == .fail(.status(503)))
    }

    @Test("a web page by its content type fails, whatever the status")
    func htmlType() {
        for type in ["text/html", "text/html; charset=utf-8", "TEXT/HTML", "application/xhtml+xml"] {
            #expect(DownloadResponse(status: 200, contentType: type).plan(requestedOffset: 0) == .fail(.notAudio), "\(type)")
        }
        #expect(DownloadResponse(status: 206, contentRange: "bytes 5-9/10", contentType: "text/html").plan(requestedOffset: 5)
                == .fail(.notAudio))
        #expect(DownloadResponse(status: 200, contentType: "audio/mpeg").plan(requestedOffset: 0) == .replace(total: nil))
        #expect(DownloadResponse(status: 200, contentType: "application/octet-stream").plan(requestedOffset: 0) == .replace(total: nil))
    }

    @Test("Content-Range parsing")
    func contentRange() {
        #expect(ContentRange("bytes 0-99/100") == ContentRange("bytes 0-99/100"))
        #expect(ContentRange("bytes 0-99/100")?.first == 0 && ContentRange("bytes 0-99/100")?.total == 100)
        #expect(ContentRange("bytes */500")?.total == 500 && ContentRange("bytes */500")?.first == nil)
        #expect(ContentRange("bytes 9-3/100") == nil)
        #expect(ContentRange("items 0-1/2") == nil)
        #expect(ContentRange(nil) == nil)
    }

    @Test("HTML is told by its first bytes, after a byte-order mark and white space")
    func sniff() {
        for page in ["<!DOCTYPE html><html>", "<html lang=en>", "\u{FEFF}<!doctype html>", " \r\n\t<HTML>", "<!DOCTYPE HTML PUBLIC"] {
            #expect(DownloadChecks.looksLikeHTML(Array(page.utf8)), "\(page)")
        }
        for audio in ["ID3\u{3}", "OggS", "fLaC", "RIFF", "", "<?xml version", "<htm"] {
            #expect(!DownloadChecks.looksLikeHTML(Array(audio.utf8)), "\(audio)")
        }
        #expect(!DownloadChecks.looksLikeHTML([0xFF, 0xFB, 0x90, 0x64]))
    }

    @Test("size: the server's length wins; the feed's counts only without one")
    func size() {
        #expect(DownloadChecks.size(written: 1000, serverTotal: 1000, enclosureLength: 5) == nil)
        #expect(DownloadChecks.size(written: 999, serverTotal: 1000, enclosureLength: 999)
                == .size(got: 999, expected: 1000, source: "the server said"))
        #expect(DownloadChecks.size(written: 999, serverTotal: nil, enclosureLength: 1000)
                == .size(got: 999, expected: 1000, source: "the feed says"))
        #expect(DownloadChecks.size(written: 999, serverTotal: nil, enclosureLength: 0) == nil)
        #expect(DownloadChecks.size(written: 0, serverTotal: 0, enclosureLength: 0) == .empty)
    }

    @Test("disk space: what is left to fetch plus the reserve must fit")
    func diskSpace() {
        #expect(DownloadChecks.diskSpace(free: 1_000, remaining: 400, reserve: 600) == nil)
        #expect(DownloadChecks.diskSpace(free: 999, remaining: 400, reserve: 600) == .diskSpace(free: 999, needed: 400, reserve: 600))
        #expect(DownloadChecks.diskSpace(free: 700, remaining: -50, reserve: 600) == nil, "a partial file larger than announced")
        #expect(DownloadChecks.diskSpace(free: 5_000_000, remaining: 80_000_000, reserve: 100_000_000)?.message
                == "not enough disk space: 5 MB free, 80 MB more needed (and 100 MB is kept free); free some space and retry")
    }

    @Test("file names are numbers and a media extension, never a feed's words")
    func fileNames() {
        #expect(DownloadFile.relativePath(podcastID: 3, episodeID: 42, url: "https://cdn.example/ep/42.MP3?x=1#t", mimeType: "")
                == "3/42.mp3")
        #expect(DownloadFile.fileExtension(url: "https://x/download.php?id=3", mimeType: "audio/mp4") == "m4a")
        #expect(DownloadFile.fileExtension(url: "https://x/../../etc/passwd", mimeType: "audio/mpeg; charset=x") == "mp3")
        #expect(DownloadFile.fileExtension(url: "https://x/a.sh", mimeType: "application/x-sh") == "media")
        #expect(DownloadFile.fileExtension(url: "https://x/show.opus", mimeType: "audio/mpeg") == "opus")
    }
}
