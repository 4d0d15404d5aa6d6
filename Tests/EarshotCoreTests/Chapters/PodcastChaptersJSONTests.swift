import EarshotCore
import Foundation
import TestSupport
import Testing

@Suite("Podcasting 2.0 JSON chapters: validated, hostile input refused or clamped")
struct PodcastChaptersJSONTests {
    /// The example of the podcast namespace's jsonChapters.md, shortened.
    static let example = """
        {
          "version": "1.2.0",
          "author": "John Doe", "title": "Episode 1 - A Cool Episode", "podcastName": "John's Podcast",
          "chapters": [
            {"startTime": 0, "title": "Intro"},
            {"startTime": 168, "title": "Hearing Aids", "img": "https://example.com/images/hearing_aids.jpg"},
            {"startTime": 260, "title": "Progress Report", "endTime": 400},
            {"startTime": 410.5, "title": "Namespace", "img": "https://example.com/images/namepsace_example.jpg",
             "url": "https://github.com/Podcastindex-org/podcast-namespace"},
            {"startTime": 500, "title": "Hidden image change", "toc": false, "img": "https://example.com/images/x.jpg"},
            {"startTime": 4600, "title": "Donations", "url": "https://example.com/donate",
             "location": {"name": "Austin", "geo": "geo:30.2672,97.7431"}}
          ]
        }
        """

    func decode(_ text: String) throws -> PodcastChaptersJSON { try PodcastChaptersJSON(data: Data(text.utf8)) }

    func refusal(_ text: String) -> String? {
        do throws(PodcastChaptersJSON.Refusal) {
            _ = try PodcastChaptersJSON(data: Data(text.utf8))
            return nil
        } catch { return error.description }
    }

    @Test("the spec's example: every field read, toc:false left out of the list")
    func example() throws {
        let file = try decode(Self.example)
        #expect(file.version == "1.2.0")
        #expect(file.entries.count == 6)
        #expect(file.entries[2].endTime == 400)
        #expect(file.entries[4].toc == false)
        #expect(file.chapters == [
            Chapter(title: "Intro", start: 0),
            Chapter(title: "Hearing Aids", start: 168, img: "https://example.com/images/hearing_aids.jpg"),
            Chapter(title: "Progress Report", start: 260),
            Chapter(title: "Namespace", start: 410.5, img: "https://example.com/images/namepsace_example.jpg",
                    url: "https://github.com/Podcastindex-org/podcast-namespace"),
            Chapter(title: "Donations", start: 4600, url: "https://example.com/donate"),
        ])
    }

    @Test("files that are not chapters files are refused with a reason")
    func refusals() {
        #expect(refusal("") == "not JSON")
        #expect(refusal("<rss/>") == "not JSON")
        #expect(refusal(#"{"version": "1.2.0", "chapters": [}"#) == "not JSON")
        #expect(refusal(#"[{"startTime": 0}]"#) == "not a JSON object")
        #expect(refusal(#""1.2.0""#) == "not a JSON object")
        #expect(refusal(#"{"chapters": []}"#) == "no \"version\" string")
        #expect(refusal(#"{"version": 1.2, "chapters": []}"#) == "no \"version\" string")
        #expect(refusal(#"{"version": "2.0.0", "chapters": []}"#) == "unsupported version \"2.0.0\"")
        #expect(refusal(#"{"version": "10.0", "chapters": []}"#) == "unsupported version \"10.0\"")
        #expect(refusal(#"{"version": "1.2.0"}"#) == "no \"chapters\" array")
        #expect(refusal(#"{"version": "1.2.0", "chapters": {"0": {"startTime": 0}}}"#) == "no \"chapters\" array")
        #expect(refusal(#"{"version": "1.2.0", "chapters": null}"#) == "no \"chapters\" array")
        let big = #"{"version": "1.2.0", "chapters": [], "pad": ""# + String(repeating: "x", count: PodcastChaptersJSON.maximumBytes) + #""}"#
        #expect(refusal(big) == "larger than 1048576 bytes")
        #expect(refusal(#"{"version": "1", "chapters": []}"#) == nil)
    }

    @Test("wrong types: a chapter without a usable start is skipped, other fields fall back")
    func wrongTypes() throws {
        let file = try decode("""
            {"version": "1.2.0", "chapters": [
              {"startTime": "10", "title": "start is a string"},
              {"title": "no start"},
              {"startTime": null, "title": "null start"},
              {"startTime": true, "title": "boolean start"},
              {"startTime": [1], "title": "array start"},
              "a string", 42, null, [],
              {"startTime": 5, "title": 7, "img": 3, "url": ["https://x.example"], "toc": "false", "endTime": "9"},
              {"startTime": 8, "title": {"text": "object"}, "img": "ftp://example.com/a.jpg", "url": "data:text/html,<b>"},
              {"startTime": 12, "title": "ends before it starts", "endTime": 11}
            ]}
            """)
        #expect(file.entries.map(\.startTime) == [5, 8, 12])
        #expect(file.entries[0].toc == true, "a toc that is not a boolean is the default")
        #expect(file.entries[0].endTime == nil && file.entries[2].endTime == nil)
        #expect(file.chapters == [Chapter(title: "Chapter 1", start: 5), Chapter(title: "Chapter 2", start: 8),
                                  Chapter(title: "ends before it starts", start: 12)])
        // A number no Double holds makes the whole file unreadable: refused, not a crash or infinity.
        #expect(refusal(#"{"version": "1.2.0", "chapters": [{"startTime": 1e400}]}"#) == "not JSON")
    }

    @Test("negative and duplicate times: clamped to 0, one chapter per start")
    func negativeTimes() throws {
        let file = try decode(#"{"version": "1.2.0", "chapters": [{"startTime": 30, "title": "b"}, {"startTime": -5, "title": "a"}, {"startTime": -1e300, "title": "a2"}, {"startTime": 30, "title": "b2"}]}"#)
        #expect(file.entries.map(\.startTime) == [30, 0, 0, 30])
        #expect(file.chapters.map(\.title) == ["a", "b"])
        #expect(file.chapters.map(\.start) == [0, 30])
    }

    @Test("a huge list within the size cap is cut to maximumCount, without trouble", .timeLimit(.minutes(1)))
    func hugeList() throws {
        let entries = (0..<45_000).map { #"{"startTime":\#(45_000 - $0)}"# }.joined(separator: ",")
        let text = #"{"version":"1.2.0","chapters":["# + entries + "]}"
        #expect(text.utf8.count < PodcastChaptersJSON.maximumBytes)
        let file = try decode(text)
        let chapters = file.chapters
        #expect(file.entries.count == 45_000)
        #expect(chapters.count == ChapterMerge.maximumCount)
        #expect(chapters.first?.start == 1 && chapters.last?.start == Double(ChapterMerge.maximumCount))
    }

    @Test("deep nesting and random damage never crash: refused or decoded")
    func hostileBytes() {
        let deep = #"{"version":"1.2.0","chapters":["# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "]}"
        #expect(refusal(deep) != nil || (try? decode(deep))?.entries.isEmpty == true)
        let deepObject = String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        #expect(refusal(deepObject) != nil)

        var generator = SplitMix64(seed: 0xC4A9)
        let original = Array(Self.example.utf8)
        var decoded = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<(1 + Int(generator.next() % 6)) {
                let at = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.remove(at: at)
                default: bytes.insert(Array(#"{}[]",:-e01"#.utf8)[Int(generator.next() % 11)], at: at)
                }
            }
            if let file = try? PodcastChaptersJSON(data: Data(bytes)) {
                decoded += 1
                for chapter in file.chapters { #expect(chapter.start.isFinite && chapter.start >= 0 && !chapter.title.isEmpty) }
            }
        }
        #expect(decoded > 0, "some damage leaves a valid file")
    }
}
