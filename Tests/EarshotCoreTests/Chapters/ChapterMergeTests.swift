@testable import EarshotCore
import Foundation
import TestSupport
import Testing

@Suite("Chapters: one merged list, cleaned, and where the chapter commands go")
struct ChapterMergeTests {
    let json = [Chapter(title: "JSON intro", start: 0, img: "https://example.com/a.jpg"), Chapter(title: "JSON end", start: 50)]
    let feed = [FeedChapter(start: 0, title: "PSC intro", href: "https://example.com/psc"), FeedChapter(start: 40, title: "PSC end")]
    let file = [Chapter(title: "File intro", start: 0), Chapter(title: "File end", start: 45)]

    @Test("precedence: Podcasting 2.0 JSON, else Podlove Simple Chapters, else the file")
    func precedence() {
        var merge = ChapterMerge(json: json, feed: feed, file: file)
        #expect(merge.source == .json)
        #expect(merge.chapters.map(\.title) == ["JSON intro", "JSON end"])
        #expect(merge.chapters[0].img == "https://example.com/a.jpg")
        merge.json = nil
        #expect(merge.source == .feed)
        #expect(merge.chapters == [Chapter(title: "PSC intro", start: 0, url: "https://example.com/psc"), Chapter(title: "PSC end", start: 40)])
        merge.json = [] // fetched, but nothing for the list (or all `toc: false`): falls through
        #expect(merge.source == .feed)
        merge.feed = []
        #expect(merge.source == .file)
        #expect(merge.chapters == file)
        merge.file = []
        #expect(merge.source == nil)
        #expect(merge.chapters.isEmpty)
        // A source whose every chapter is unusable counts as empty.
        merge = ChapterMerge(json: [Chapter(title: "bad", start: .nan)], feed: [FeedChapter(start: .infinity, title: "bad")], file: file)
        #expect(merge.source == .file)
    }

    @Test("cleaning: sorted, clamped, one per start, titles readable, only web addresses")
    func cleaning() {
        let dirty = [
            Chapter(title: "third", start: 30),
            Chapter(title: "  \n\t\t\tURL Title\u{202E} for\n Chapter\u{0007} 1  ", start: -4), // Hindenburg's m4a, a bidi override, a bell
            Chapter(title: "nan", start: .nan),
            Chapter(title: "second", start: 10, img: "javascript:alert(1)", url: "file:///etc/passwd"),
            Chapter(title: "second again", start: 10),
            Chapter(title: "", start: 20, img: "HTTPS://example.com/ok.png", url: "http://exa mple.com/"),
            Chapter(title: "infinite", start: -.infinity),
            Chapter(title: "emoji 👩‍👩‍👧 ❤️", start: 40, img: "https:///no-host", url: "//example.com/relative"),
        ]
        let clean = ChapterMerge.clean(dirty)
        #expect(clean.map(\.start) == [0, 10, 20, 30, 40])
        #expect(clean.map(\.title) == ["URL Title for Chapter 1", "second", "Chapter 3", "third", "emoji 👩‍👩‍👧 ❤️"])
        #expect(clean[1].img == nil && clean[1].url == nil)
        #expect(clean[2].img == "HTTPS://example.com/ok.png")
        #expect(clean[2].url == nil, "white space in an address")
        #expect(clean[4].img == nil && clean[4].url == nil)
        #expect(ChapterMerge.clean([Chapter(title: String(repeating: "é", count: 5000), start: 0)])[0].title.count
                == ChapterMerge.maximumTitleLength)
        #expect(ChapterMerge.clean([Chapter(title: "x", start: 0, url: "https://example.com/" + String(repeating: "a", count: 3000))])[0].url == nil)
    }

    @Test("a huge list is cut to the first maximumCount chapters by start (a runaway sort would meet the time limit)", .timeLimit(.minutes(1)))
    func hugeList() {
        var generator = SplitMix64(seed: 5)
        let many = (0..<200_000).map { i in Chapter(title: "c\(i)", start: Double(generator.next() % 10_000_000) / 100) }
        let clean = ChapterMerge.clean(many)
        #expect(clean.count == ChapterMerge.maximumCount)
        #expect(zip(clean, clean.dropFirst()).allSatisfy { $0.start < $1.start })
        let smallest = Set(many.map(\.start)).sorted().prefix(ChapterMerge.maximumCount)
        #expect(clean.map(\.start) == Array(smallest))
    }

    @Test("long addresses on every chapter: the list stops at maximumListBytes")
    func byteBudget() {
        let address = "https://example.com/" + String(repeating: "a", count: 2000)
        let heavy = (0..<1000).map { Chapter(title: String(repeating: "t", count: 300), start: Double($0), img: address, url: address) }
        let clean = ChapterMerge.clean(heavy)
        let size = clean.reduce(0) { $0 + 40 + $1.title.utf8.count + ($1.img?.utf8.count ?? 0) + ($1.url?.utf8.count ?? 0) }
        #expect(size <= ChapterMerge.maximumListBytes)
        #expect(clean.count == ChapterMerge.maximumListBytes / (40 + 200 + 2 * address.utf8.count), "\(clean.count)")
        #expect(clean.map(\.start) == (0..<clean.count).map(Double.init), "the earliest chapters kept")
        let light = (0..<1000).map { Chapter(title: "Chapter title number \($0)", start: Double($0), url: "https://example.com/\($0)") }
        #expect(ChapterMerge.clean(light).count == 1000, "a realistic long list fits")
    }

    let marks = [Chapter(title: "A", start: 5), Chapter(title: "B", start: 30), Chapter(title: "C", start: 90)]

    @Test("chapter {index}: its start; a bad index or no chapters is an error")
    func jump() throws {
        #expect(try ChapterNavigation.start(of: 1, in: marks) == 30)
        #expect(throws: CommandError("no chapter 3: this episode's chapters are 0 to 2")) { try ChapterNavigation.start(of: 3, in: marks) }
        #expect(throws: CommandError("no chapter -1: this episode's chapters are 0 to 2")) { try ChapterNavigation.start(of: -1, in: marks) }
        #expect(throws: CommandError("this episode has no chapters")) { try ChapterNavigation.start(of: 0, in: []) }
    }

    @Test("chapter.next: the following chapter; the first one before it; an error in the last")
    func next() throws {
        #expect(try ChapterNavigation.next(from: 0, in: marks) == 5, "before the first chapter")
        #expect(try ChapterNavigation.next(from: 5, in: marks) == 30)
        #expect(try ChapterNavigation.next(from: 29.9, in: marks) == 30)
        #expect(try ChapterNavigation.next(from: 30, in: marks) == 90)
        #expect(throws: CommandError("this is the last chapter")) { try ChapterNavigation.next(from: 95, in: marks) }
        #expect(throws: CommandError("this episode has no chapters")) { try ChapterNavigation.next(from: 0, in: []) }
    }

    @Test("chapter.previous: restarts the chapter after 3 s, else the one before")
    func previous() throws {
        #expect(try ChapterNavigation.previous(from: 40, in: marks) == 30, "10 s in: restart")
        #expect(try ChapterNavigation.previous(from: 33.5, in: marks) == 30, "3.5 s in: restart")
        #expect(try ChapterNavigation.previous(from: 32, in: marks) == 5, "2 s in: the chapter before")
        #expect(try ChapterNavigation.previous(from: 30, in: marks) == 5)
        #expect(try ChapterNavigation.previous(from: 6, in: marks) == 5, "the first chapter restarts")
        #expect(try ChapterNavigation.previous(from: 2, in: marks) == 0, "before the first chapter: the top")
        #expect(throws: CommandError("this episode has no chapters")) { try ChapterNavigation.previous(from: 10, in: []) }
    }

    @Test("the chapter commands decode; bad indexes are refused")
    func commands() throws {
        #expect(try ClientCommand.decode(#"{"cmd":"chapter","index":2}"#).result.get() == .chapter(index: 2))
        #expect(try ClientCommand.decode(#"{"cmd":"chapter.next"}"#).result.get() == .chapterNext)
        #expect(try ClientCommand.decode(#"{"cmd":"chapter.previous"}"#).result.get() == .chapterPrevious)
        for bad in [#"{"cmd":"chapter"}"#, #"{"cmd":"chapter","index":-1}"#, #"{"cmd":"chapter","index":1.5}"#,
                    #"{"cmd":"chapter","index":"2"}"#, #"{"cmd":"chapter","index":1e12}"#] {
            guard case .failure(let error) = ClientCommand.decode(bad).result else {
                Issue.record("\(bad) decoded"); continue
            }
            #expect(error.message.contains("index"), "\(bad): \(error.message)")
        }
    }

    @Test("the state sends img and url only when a chapter has them")
    func wire() throws {
        var state = PlaybackState()
        state.chapters = [Chapter(title: "Plain", start: 0), Chapter(title: "Rich", start: 10, img: "https://e.com/i.png", url: "https://e.com")]
        state.chapter = 1
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ServerMessage.state(seq: 1, state).encoded().utf8)) as? [String: Any])
        let chapters = try #require(json["chapters"] as? [[String: Any]])
        #expect(Set(chapters[0].keys) == ["title", "start"])
        #expect(chapters[1]["img"] as? String == "https://e.com/i.png" && chapters[1]["url"] as? String == "https://e.com")
        #expect(json["chapter"] as? Int == 1)
    }
}
