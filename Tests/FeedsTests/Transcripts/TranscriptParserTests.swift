import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Feeds

/// Podcasting 2.0 transcripts: the real files of `Tests/Fixtures/transcripts` (values read from the
/// files by hand, see SOURCES.md), each format's rules on small inline files, format detection,
/// and input made to hurt.
@Suite struct TranscriptParserTests {
    /// `<repo>/Tests/Fixtures/transcripts`, found from this file's path (as `Conformance` finds
    /// the shared data) so the tests run from any working directory.
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Transcripts
        .deletingLastPathComponent()  // FeedsTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/transcripts", isDirectory: true)

    static func sample(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    static func cues(_ text: String, _ format: TranscriptFormat) throws -> [TranscriptCue] {
        try TranscriptParser.cues(Data(text.utf8), format: format)
    }

    /// Times are sums of parsed parts: compared to the millisecond.
    static func near(_ value: Double?, _ expected: Double) -> Bool {
        value.map { abs($0 - expected) < 0.0005 } ?? false
    }

    static func isSorted(_ cues: [TranscriptCue]) -> Bool {
        zip(cues, cues.dropFirst()).allSatisfy { ($0.0.start ?? 0) <= ($0.1.start ?? 0) }
    }

    // MARK: Real files

    @Test func podcastingQATrailerVTT() throws {
        let data = try Self.sample("podcasting-qa-trailer.vtt")
        #expect(TranscriptFormat.detect(mimeType: nil, url: nil, data: data) == .webvtt)
        let cues = try TranscriptParser.cues(data, format: .webvtt)
        #expect(cues.count == 7)
        #expect(cues.first == TranscriptCue(start: 0, end: 2.76, speaker: "Sarah",
                                            text: "In today's episode, you'll learn whether or not you"))
        #expect(cues[2].text == "include in one? Welcome to Podcasting Q&A, where you learn")
        #expect(Self.near(cues[5].start, 19.08) && cues[5].speaker == "Gillian")
        #expect(Self.near(cues.last?.start, 21.45) && Self.near(cues.last?.end, 25.35))
        #expect(cues.last?.text == "careers podcast. My question is, do we need a podcast trailer?")
        // The file's CRLF line ends leave nothing behind.
        #expect(cues.allSatisfy { !$0.text.contains("\r") && !$0.text.unicodeScalars.contains("\r") })
    }

    @Test func podnewsDailyVTTWithHindenburgTimes() throws {
        let data = try Self.sample("podnews-daily-2024-01-25.vtt")
        let cues = try TranscriptParser.cues(data, format: .webvtt)
        #expect(cues.count == 44)
        #expect(Self.near(cues.first?.start, 0.86) && Self.near(cues.first?.end, 7.38))
        #expect(cues.first?.text == "Podcasting is coming back to New Zealand again, the latest from podnews.net with Hindenburg Pro's auto levels.")
        // "3:44.100 --> 3:45.620": minutes without hours.
        #expect(Self.near(cues.last?.start, 224.1) && Self.near(cues.last?.end, 225.62))
        #expect(cues.last?.text == "We're at podnews.net.")
        #expect(cues.allSatisfy { $0.speaker == "SPEAKER_1" })
        #expect(Self.isSorted(cues))
    }

    @Test func podcastingQASRT() throws {
        let data = try Self.sample("podcasting-qa-10-things.srt")
        #expect(TranscriptFormat.detect(mimeType: nil, url: nil, data: data) == .srt)
        let cues = try TranscriptParser.cues(data, format: .srt)
        #expect(cues.count == 30)
        // The "Travis:" prefix is text: SRT speakers are not guessed.
        #expect(cues.first == TranscriptCue(start: 0.179, end: 2.399, speaker: nil,
                                            text: "Travis: When you first get started in podcasting, it's"))
        #expect(Self.near(cues.last?.start, 96.171) && Self.near(cues.last?.end, 100.189))
        #expect(cues.last?.text == "difference between air quality and good quality.")
        #expect(cues.allSatisfy { $0.speaker == nil })
    }

    @Test func podcastingQAHTML() throws {
        let data = try Self.sample("podcasting-qa-10-things.html")
        #expect(TranscriptFormat.detect(mimeType: nil, url: nil, data: data) == .html)
        let cues = try TranscriptParser.cues(data, format: .html)
        // Three blocks; the third, a monologue of about 2,500 characters, is two cues cut after a sentence.
        #expect(cues.count == 4)
        #expect(cues.map(\.speaker) == ["Travis", "Sarah", "Travis", "Travis"])
        #expect(cues.map(\.start) == [0, 53, 102, 102])
        // Each ends where the next block starts; the last block has nothing after it.
        #expect(cues.map(\.end) == [53, 102, nil, nil])
        #expect(cues[0].text.hasPrefix("When you first get started in podcasting, it's almost guaranteed"))
        #expect(cues[1].text.hasSuffix("make that difference between air quality and good quality."))
        #expect(cues[2].text.hasPrefix("Now, when you're creating your podcast intro, there's a couple of things"))
        #expect(cues[2].text.last.map { ".?!".contains($0) } == true)
        #expect(cues[3].text.hasSuffix("but then also put it into practice."))
        #expect(cues.allSatisfy { $0.text.count <= TranscriptParser.maximumTextLength })
        #expect(cues.allSatisfy { !$0.text.contains("<") && !$0.text.contains("&#") })
    }

    @Test func podnewsWordLevelJSON() throws {
        let data = try Self.sample("podnews-weekly-review-2023-06-02.json")
        #expect(TranscriptFormat.detect(mimeType: nil, url: nil, data: data) == .json)
        let cues = try TranscriptParser.cues(data, format: .json)
        // 57 segments (words, spaces and punctuation of their own) make three sentences.
        #expect(cues.map(\.text) == ["It's Friday, the 2nd of June 2023.", "The last word in podcasting news.", "This is the Pod News"])
        #expect(cues.map(\.speaker) == ["Speaker 1", "Speaker 2", "Speaker 2"])
        #expect(cues.map(\.start) == [0.221, 4.34, 7.186])
        #expect(cues.map(\.end) == [3.09, 6.604, 8.729])
    }

    @Test func goTimePlainText() throws {
        let data = try Self.sample("go-time-bonus-77.txt")
        #expect(TranscriptFormat.detect(mimeType: nil, url: nil, data: data) == .text)
        let cues = try TranscriptParser.cues(data, format: .text)
        #expect(cues.count == 8)
        #expect(cues.allSatisfy { $0.start == nil && $0.end == nil && $0.speaker == nil })
        #expect(cues.first?.text.hasPrefix("**Adam Stacoviak:** How closely did we touch [WASM](http://webassembly.org/) on the show?") == true)
        // The last paragraph's two lines are one cue.
        #expect(cues.last?.text.contains(#"but certainly \[laughter\] Everything has to compile down"#) == true)
        #expect(cues.last?.text.hasSuffix("The browsers actually are helping make this easier.") == true)
    }

    @Test func samplesAreDetectedByExtensionToo() {
        let expected: [String: TranscriptFormat] = [
            "podcasting-qa-trailer.vtt": .webvtt, "podnews-daily-2024-01-25.vtt": .webvtt, "podcasting-qa-10-things.srt": .srt,
            "podcasting-qa-10-things.html": .html, "podnews-weekly-review-2023-06-02.json": .json, "go-time-bonus-77.txt": .text,
        ]
        for (name, format) in expected {
            #expect(TranscriptFormat.detect(mimeType: nil, url: "https://example.com/t/\(name)", data: Data()) == format, "\(name)")
        }
    }

    // MARK: WebVTT

    @Test func webVTTVoiceSpansGiveTheSpeaker() throws {
        let cues = try Self.cues("""
            WEBVTT

            00:00:01.000 --> 00:00:02.000
            <v Bob>Hi there</v>

            00:00:02.000 --> 00:00:03.000
            <v.loud.fast Mary Ann>Hey! <v Other>second voice</v>

            00:00:03.000 --> 00:00:04.000
            No voice span: the speaker goes on

            00:00:04.000 --> 00:00:05.000
            <v Bob &amp; Co>Together
            """, .webvtt)
        #expect(cues.map(\.speaker) == ["Bob", "Mary Ann", "Mary Ann", "Bob & Co"])
        #expect(cues.map(\.text) == ["Hi there", "Hey! second voice", "No voice span: the speaker goes on", "Together"])
    }

    @Test func webVTTStripsEveryTag() throws {
        let cues = try Self.cues("""
            WEBVTT

            00:00:01.000 --> 00:00:02.000
            <b>bold</b> <i>italic</i> <u>under</u> <c.yellow.bg_blue>class</c> <lang en-GB>lang</lang>
            <ruby>漢<rt>kan</rt></ruby> <00:00:01.500>timed <01:02.250>again
            """, .webvtt)
        #expect(cues.map(\.text) == ["bold italic under class lang 漢kan timed again"])
    }

    @Test func webVTTDecodesEntities() throws {
        let cues = try Self.cues("WEBVTT\n\n00:01.000 --> 00:02.000\na &amp; b &lt;not a tag&gt; c&nbsp;d&lrm;e &#65;&#x42;\n", .webvtt)
        #expect(cues.map(\.text) == ["a & b <not a tag> c d\u{200E}e AB"])
    }

    @Test func webVTTSkipsNoteStyleAndRegionBlocks() throws {
        let cues = try Self.cues("""
            WEBVTT - A title
            Kind: captions

            STYLE
            ::cue { color: red }

            REGION
            id:fred width:40%

            NOTE a comment
            over two lines

            1
            00:00:01.000 --> 00:00:02.000 align:start position:10% line:0
            First

            NOTE
            one more

            intro
            00:01:00.000 --> 00:01:02.500
            Second
            """, .webvtt)
        #expect(cues == [TranscriptCue(start: 1, end: 2, text: "First"), TranscriptCue(start: 60, end: 62.5, text: "Second")])
    }

    @Test func webVTTNeedsItsHeader() {
        let body = "\n\n00:00:01.000 --> 00:00:02.000\nHello\n"
        #expect(throws: TranscriptError.noWebVTTHeader) { try Self.cues(body, .webvtt) }
        #expect(throws: TranscriptError.noWebVTTHeader) { try Self.cues("WEBVTTX" + body, .webvtt) }
        #expect(throws: TranscriptError.noWebVTTHeader) { try Self.cues("webvtt" + body, .webvtt) }
        #expect(TranscriptError.noWebVTTHeader.description == "the WebVTT file has no WEBVTT header")
        #expect((try? Self.cues("WEBVTT" + body, .webvtt))?.map(\.text) == ["Hello"])
        #expect((try? Self.cues("WEBVTT\tcomment" + body, .webvtt))?.map(\.text) == ["Hello"])
    }

    @Test func webVTTTimesJoinedLinesAndSkippedCues() throws {
        let cues = try Self.cues("""
            WEBVTT

            01:02:03.500 --> 01:02:04.000
            Hours, minutes
            and seconds

            00:00:xx.000 --> 00:00:02.000
            Malformed timing: skipped

            00:00:05.000 --> 00:00:06.000
            <i> </i>

            02:03.250 --> 02:04.000
            No hours
            7
            02:05.000 --> 02:06.000
            A numbered cue without a blank line before it
            """, .webvtt)
        #expect(cues.map(\.text) == ["No hours", "A numbered cue without a blank line before it", "Hours, minutes and seconds"])
        #expect(cues.map(\.start) == [123.25, 125, 3723.5])
    }

    @Test func webVTTReadsCRLFCRAndBOM() throws {
        let lf = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v A>One\ntwo\n\n00:00:03.000 --> 00:00:04.000\nThree\n"
        let expected = try Self.cues(lf, .webvtt)
        #expect(expected.map(\.text) == ["One two", "Three"])
        #expect(try Self.cues(lf.replacingOccurrences(of: "\n", with: "\r\n"), .webvtt) == expected)
        #expect(try Self.cues(lf.replacingOccurrences(of: "\n", with: "\r"), .webvtt) == expected)
        let bom = Data([0xEF, 0xBB, 0xBF]) + Data(lf.utf8)
        #expect(try TranscriptParser.cues(bom, format: .webvtt) == expected)
        #expect(TranscriptFormat.detect(mimeType: nil, url: nil, data: bom) == .webvtt)
    }

    // MARK: SRT

    @Test func srtReadsLatin1() throws {
        var bytes = Array("1\r\n00:00:01,000 --> 00:00:02,000\r\nCaf".utf8)
        bytes += [0xE9, 0x20, 0x6E, 0x61, 0xEF, 0x76, 0x65, 0x20, 0x93, 0x71, 0x94, 0x0D, 0x0A]  // é naïve “q” (Windows-1252)
        let cues = try TranscriptParser.cues(Data(bytes), format: .srt)
        #expect(cues == [TranscriptCue(start: 1, end: 2, text: "Café naïve “q”")])
    }

    @Test func srtStripsTagsAndOverridesAndKeepsSpeakerPrefixes() throws {
        let cues = try Self.cues("""
            1
            00:00:01,000 --> 00:00:02,000 X1:100 X2:200 Y1:10 Y2:20
            {\\an8}<i>Hello</i> <b>there</b>
            <font color="#ff0000">red</font> <u>under</u>

            2
            00:00:02.500 --> 00:00:04.000
            Sarah: Welcome to Podcasting Q&amp;A

            3
            no timing line: skipped

            4
            00:00:05,000 --> 00:00:06,000
            {\\i1}styled{\\i0} end
            """, .srt)
        #expect(cues.map(\.text) == ["Hello there red under", "Sarah: Welcome to Podcasting Q&A", "styled end"])
        #expect(cues.map(\.start) == [1, 2.5, 5])
        #expect(cues.allSatisfy { $0.speaker == nil })
    }

    @Test func srtCuesAreSortedByStart() throws {
        let cues = try Self.cues("2\n00:00:05,000 --> 00:00:06,000\nLater\n\n1\n00:00:01,000 --> 00:00:02,000\nEarlier\n", .srt)
        #expect(cues.map(\.text) == ["Earlier", "Later"])
    }

    // MARK: JSON

    @Test func jsonTimesMayBeNumbersOrStrings() throws {
        let cues = try Self.cues("""
            {"version":"1.0.0","segments":[
              {"speaker":"A","startTime":"1.5","endTime":" 2.25 ","body":"Hello."},
              {"speaker":"A","startTime":3,"endTime":4,"body":"Bye."},
              {"speaker":"A","startTime":"00:01:05.5","endTime":"00:01:06","body":"Clock strings."},
              {"speaker":"A","startTime":"soon","body":"No time."}
            ]}
            """, .json)
        #expect(cues.map(\.start) == [1.5, 3, 65.5, nil])
        #expect(cues.map(\.end) == [2.25, 4, 66, nil])
    }

    @Test func jsonMergesWordsIntoSentences() throws {
        // The namespace's own snippet.
        let cues = try Self.cues("""
            {"version":"1.0.0","segments":[
              {"speaker":"Darth Vader","startTime":0.5,"endTime":0.75,"body":"I"},
              {"speaker":"Darth Vader","startTime":1,"endTime":1.25,"body":"am"},
              {"speaker":"Darth Vader","startTime":1.5,"endTime":2.0,"body":"your"},
              {"speaker":"Darth Vader","startTime":2.25,"endTime":2.5,"body":"father.\\n"},
              {"speaker":"Luke","startTime":2.75,"endTime":3.0,"body":"Nooooo"}
            ]}
            """, .json)
        #expect(cues == [
            TranscriptCue(start: 0.5, end: 2.5, speaker: "Darth Vader", text: "I am your father."),
            TranscriptCue(start: 2.75, end: 3, speaker: "Luke", text: "Nooooo"),
        ])
    }

    @Test func jsonCutsLongRunsAndKeepsWordFilesSmall() throws {
        // 3,000 one-word segments, a word a second, a sentence every 10 words.
        var segments: [String] = []
        for word in 0..<3_000 {
            let body = word % 10 == 9 ? "end." : "w\(word)"
            segments.append(#"{"speaker":"S","startTime":\#(word),"endTime":\#(Double(word) + 0.5),"body":"\#(body)"}"#)
        }
        let cues = try Self.cues(#"{"segments":["# + segments.joined(separator: ",") + "]}", .json)
        #expect(cues.count == 300)
        #expect(cues[1] == TranscriptCue(start: 10, end: 19.5, speaker: "S", text: "w10 w11 w12 w13 w14 w15 w16 w17 w18 end."))
        // Without punctuation a cue ends before the segment 12 s after its start.
        let unpunctuated = (0..<30).map { #"{"speaker":"S","startTime":\#($0),"endTime":\#($0),"body":"w"}"# }
        let long = try Self.cues(#"{"segments":["# + unpunctuated.joined(separator: ",") + "]}", .json)
        #expect(long.map(\.start) == [0, 12, 24])
        #expect(long.map(\.end) == [11, 23, 29])
    }

    @Test func jsonRefusesFilesWithoutSegments() {
        #expect(throws: TranscriptError.noSegments) { try Self.cues(#"{"version":"1.0.0"}"#, .json) }
        #expect(throws: TranscriptError.noSegments) { try Self.cues(#"{"segments":"none"}"#, .json) }
        #expect(throws: TranscriptError.noSegments) { try Self.cues(#"[{"body":"x"}]"#, .json) }
        #expect(throws: TranscriptError.notJSON) { try Self.cues(#"{"segments":[{"body":"x"}"#, .json) }
        #expect(TranscriptError.noSegments.description == "the JSON transcript has no segments")
    }

    @Test func jsonSkipsSegmentsItCannotRead() throws {
        let cues = try Self.cues("""
            {"segments":[7, {"startTime":1}, {"body":42}, {"body":"Kept.","startTime":2,"speaker":9}, null]}
            """, .json)
        #expect(cues == [TranscriptCue(start: 2, end: 2, speaker: nil, text: "Kept.")])
    }

    // MARK: HTML

    @Test func htmlScriptAndMarkupNeverReachTheText() throws {
        let cues = try Self.cues("""
            <!doctype html><html><head><title>Title</title><style>p { color: red }</style></head><body>
            <script>document.write("<p>pwned</p><cite>Eve:</cite>")</script>
            <cite>Ann <b>B.</b>:</cite> <time>0:05</time>
            <p>Hello <b>world</b> &amp; <a href="x">you</a><script>alert("<p>x</p>")</script><img src=x onerror=alert(1)></p>
            <!-- <p>a comment</p> -->
            <p><scr<script>ipt>alert(2)</script> after</p>
            </body></html>
            """, .html)
        // "<scr<script>" is one tag named "scr" (as browsers read it): what follows is text, harmless as text.
        #expect(cues.map(\.text) == ["Hello world & you", "ipt>alert(2) after"])
        #expect(cues.map(\.speaker) == ["Ann B.", "Ann B."])
        #expect(cues.allSatisfy { !$0.text.contains("<") && !$0.text.contains("pwned") && !$0.text.contains("Title") })
    }

    @Test func htmlTimesSpeakersAndEnds() throws {
        let cues = try Self.cues("""
            <cite>Kevin:</cite>
            <time>1:02:03</time>
            <p>
              We have an update planned
            </p>
            <cite>Alban :</cite>
            <time>[62:04.5]</time>
            <p>You're triggering Tom</p>
            <p>A second paragraph, no time of its own</p>
            <time>3725</time>
            <p>Seconds only</p>
            """, .html)
        #expect(cues.map(\.speaker) == ["Kevin", "Alban", "Alban", "Alban"])
        #expect(cues.map(\.start) == [3723, 3724.5, nil, 3725])
        #expect(cues.map(\.end) == [3724.5, 3725, nil, nil])
        #expect(cues[0].text == "We have an update planned")
    }

    @Test func htmlWithoutTimesOrParagraphs() throws {
        let untimed = try Self.cues("<cite>A:</cite><p>One</p><cite>B:</cite><p>Two</p>", .html)
        #expect(untimed == [TranscriptCue(speaker: "A", text: "One"), TranscriptCue(speaker: "B", text: "Two")])
        // Outside <p>, blocks and <br> are line breaks, cut as plain text is: by blank lines, else by lines.
        let loose = try Self.cues("<div>First paragraph</div><div>Second</div> line<br><br>Third", .html)
        #expect(loose.map(\.text) == ["First paragraph Second line", "Third"])
        let lines = try Self.cues("<h1>Transcript</h1><div>Ann: one</div><div>Bob: two</div>", .html)
        #expect(lines.map(\.text) == ["Transcript", "Ann: one", "Bob: two"])
    }

    // MARK: Plain text

    @Test func plainTextParagraphsOrLines() throws {
        #expect(try Self.cues("One\nline two\n\n\n  Para   two \n", .text).map(\.text) == ["One line two", "Para two"])
        #expect(try Self.cues("a\nb\nc\n", .text).map(\.text) == ["a", "b", "c"])
        #expect(try Self.cues("\n\nonly\r\nlines\r\n\r\n", .text).map(\.text) == ["only", "lines"])
        let speakerLike = try Self.cues("Alice: hello\n\nBob Smith: hi", .text)
        #expect(speakerLike == [TranscriptCue(text: "Alice: hello"), TranscriptCue(text: "Bob Smith: hi")])
    }

    @Test func plainTextTimestampedLines() throws {
        let cues = try Self.cues("""
            [00:01:02] Alice: hello there
            00:01:10 Bob Smith: yo
            [01:02.5] just words
            00:02:00 Well. Then: what
            00:03:00 A name far too long to be anyone's name at all: text
            10:30am is not a time
            """, .text)
        #expect(cues.map(\.start) == [62, 70, 62.5, 120, 180, nil])
        #expect(cues.map(\.speaker) == ["Alice", "Bob Smith", nil, nil, nil, nil])
        #expect(cues.map(\.text) == ["hello there", "yo", "just words", "Well. Then: what",
                                     "A name far too long to be anyone's name at all: text", "10:30am is not a time"])
    }

    // MARK: Every format

    @Test func cleaningCapsAndTimes() throws {
        #expect(try Self.cues("  a \t\u{00A0} b\u{0007}  ", .text).map(\.text) == ["a b"])
        // A cue of WebVTT or SRT is cut; a paragraph of plain text or HTML is split, nothing lost.
        let words = String(repeating: "ab ", count: 1_000)
        let cut = try Self.cues("1\n00:00:01,000 --> 00:00:02,000\n\(words)\n", .srt)
        #expect(cut.map(\.text.count) == [TranscriptParser.maximumTextLength])
        #expect(cut.first?.text.hasSuffix("ab ab") == true)
        let split = try Self.cues(words, .text)
        #expect(split.map(\.text.count) == [2_000, 998])
        #expect(split.map(\.text).joined(separator: " ") == words.trimmingCharacters(in: .whitespaces))
        let sentences = String(repeating: "One sentence here. ", count: 200)  // 3,800 characters
        let bySentence = try Self.cues("<p>\(sentences)</p>", .html)
        #expect(bySentence.count == 2)
        #expect(bySentence.allSatisfy { $0.text.hasPrefix("One") && $0.text.hasSuffix("here.") })
        let many = try Self.cues((0..<25_000).map { "line \($0)" }.joined(separator: "\n"), .text)
        #expect(many.count == TranscriptParser.maximumCues)
        #expect(many.last?.text == "line 19999")
        let times = try Self.cues(#"{"segments":[{"startTime":-5,"endTime":1,"body":"a."},{"startTime":5,"endTime":3,"body":"b."}]}"#, .json)
        #expect(times.map(\.start) == [0, 5])
        #expect(times.map(\.end) == [1, 5])
    }

    @Test func cueEncodesNilFieldsAsNull() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let untimed = String(decoding: try encoder.encode(TranscriptCue(text: "x")), as: UTF8.self)
        #expect(untimed == #"{"end":null,"speaker":null,"start":null,"text":"x"}"#)
        let timed = TranscriptCue(start: 1.5, end: 2, speaker: "Ann", text: "hi")
        #expect(String(decoding: try encoder.encode(timed), as: UTF8.self) == #"{"end":2,"speaker":"Ann","start":1.5,"text":"hi"}"#)
        #expect(try JSONDecoder().decode(TranscriptCue.self, from: encoder.encode(timed)) == timed)
        #expect(try JSONDecoder().decode(TranscriptCue.self, from: Data(untimed.utf8)) == TranscriptCue(text: "x"))
    }

    // MARK: Detection

    @Test func detectsByMIMETypeFirst() {
        let cases: [(String, TranscriptFormat)] = [
            ("text/vtt", .webvtt), ("Application/X-Subrip", .srt), ("application/srt", .srt), ("text/srt", .srt),
            ("application/json; charset=utf-8", .json), ("text/html;charset=UTF-8", .html), ("text/plain", .text),
        ]
        for (type, format) in cases {
            // The address and the bytes say otherwise: the type wins.
            #expect(TranscriptFormat.detect(mimeType: type, url: "https://x.org/a.json", data: Data("WEBVTT\n".utf8)) == format, "\(type)")
        }
    }

    @Test func detectsByExtensionThenBytes() {
        let empty = Data()
        #expect(TranscriptFormat.detect(mimeType: "application/octet-stream", url: "https://x.org/t.srt?download=1#x", data: empty) == .srt)
        #expect(TranscriptFormat.detect(mimeType: nil, url: "https://x.org/a/T.HTM", data: empty) == .html)
        #expect(TranscriptFormat.detect(mimeType: nil, url: "/transcripts/1.vtt", data: empty) == .webvtt)
        #expect(TranscriptFormat.detect(mimeType: nil, url: "https://x.org/t.txt", data: empty) == .text)
        #expect(TranscriptFormat.detect(mimeType: nil, url: "https://x.org/t.json?v=.vtt", data: empty) == .json)
        // No extension (a host's dot is none): the bytes decide.
        #expect(TranscriptFormat.detect(mimeType: nil, url: "https://example.com", data: Data("WEBVTT".utf8)) == .webvtt)
        #expect(TranscriptFormat.detect(mimeType: nil, url: "https://x.org/transcript", data: Data(" \n {\"segments\":[]}".utf8)) == .json)
        let sniffed: [(String, TranscriptFormat)] = [
            ("WEBVTT\r\n\r\n", .webvtt), ("\u{FEFF}WEBVTT - title\n", .webvtt), ("WEBVTTX\n", .text),
            ("\n  <cite>A:</cite>", .html), ("\u{FEFF}\r\n1\r\n00:00:01,000 --> 00:00:02,000\r\nHi", .srt),
            ("12\n00:01.000 --> 00:02.000", .srt), ("1 more thing\n00:01 --> 00:02", .text), ("Hello", .text), ("", .text),
        ]
        for (text, format) in sniffed {
            #expect(TranscriptFormat.detect(mimeType: nil, url: nil, data: Data(text.utf8)) == format, "\(text.debugDescription)")
        }
    }

    // MARK: Hostile input

    static let allFormats: [TranscriptFormat] = [.webvtt, .srt, .json, .html, .text]

    /// The same random bytes on every run.
    static func junk(seed: UInt64, count: Int, withoutNUL: Bool = false) -> Data {
        var generator = SplitMix64(seed: seed)
        return Data((0..<count).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return withoutNUL && byte == 0 ? 1 : byte
        })
    }

    @Test func emptyAndBinaryInputIsRefused() {
        for format in Self.allFormats {
            #expect(throws: TranscriptError.empty) { try TranscriptParser.cues(Data(), format: format) }
            #expect(throws: TranscriptError.empty) { try TranscriptParser.cues(Data(" \r\n\t\u{FEFF}".utf8), format: format) }
            #expect(throws: TranscriptError.notText) { try TranscriptParser.cues(Data([0x57, 0x00, 0x45, 0x00]), format: format) }
        }
        #expect(TranscriptError.notText.description == "the transcript is not UTF-8 text")
    }

    @Test func randomBytesGiveCuesOrAnError() throws {
        for (seed, format) in Self.allFormats.enumerated() {
            for data in [Self.junk(seed: UInt64(seed), count: 65_536), Self.junk(seed: UInt64(seed) + 99, count: 65_536, withoutNUL: true)] {
                switch Result(catching: { () throws(TranscriptError) in try TranscriptParser.cues(data, format: format) }) {
                case .success(let cues):
                    #expect(cues.allSatisfy { !$0.text.isEmpty && $0.text.count <= TranscriptParser.maximumTextLength })
                case .failure(let error):
                    #expect(!error.description.isEmpty)
                }
            }
        }
    }

    @Test func aFiveMegabyteLineIsCut() async throws {
        let line = String(repeating: "lorem ipsum ", count: 5 * (1 << 20) / 12)
        let documents: [(TranscriptFormat, String)] = [
            (.webvtt, "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n\(line)\n"),
            (.srt, "1\n00:00:00,000 --> 00:00:01,000\n\(line)\n"),
            (.json, #"{"segments":[{"startTime":0,"body":"\#(line)"}]}"#),
            (.html, "<p>\(line)</p>"),
            (.text, line),
        ]
        for (format, document) in documents {
            let data = Data(document.utf8)
            let cues = try await HeavyWork.run { try TranscriptParser.cues(data, format: format) }
            if format == .html || format == .text {
                // A paragraph: split between words into cues of at most 2,000 characters, all of it kept.
                #expect(cues.count > 2_000 && cues.count < 3_000, "\(format)")
                #expect(cues.allSatisfy { $0.text.count <= TranscriptParser.maximumTextLength }, "\(format)")
                #expect(cues.allSatisfy { $0.text.hasPrefix("lorem ") || $0.text.hasPrefix("ipsum ") }, "\(format)")
                #expect(cues.allSatisfy { $0.text.hasSuffix(" lorem") || $0.text.hasSuffix(" ipsum") }, "\(format)")
            } else {
                #expect(cues.map(\.text.count) == [TranscriptParser.maximumTextLength], "\(format)")
            }
        }
    }

    /// A long line is cut in linear time: an eighth of the line, about an eighth of the time (`Growth`).
    @Test func aLongLineIsCutInLinearTime() async throws {
        let lines = [1, 8].map { String(repeating: "lorem ipsum ", count: $0 * (5 << 20) / 768) }
        let wrappings: [(TranscriptFormat, String, String)] = [
            (.webvtt, "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n", "\n"), (.html, "<p>", "</p>"), (.text, "", ""),
        ]
        for (format, before, after) in wrappings {
            let documents = lines.map { Data((before + $0 + after).utf8) }
            let growth = try await Growth.ratio(runs: 2) { scale in _ = try? TranscriptParser.cues(documents[scale == 1 ? 0 : 1], format: format) }
            #expect(growth < Growth.linearLimit(), "\(format): 8× the line took \(growth)× the time")
        }
    }

    @Test func deeplyNestedMarkupStaysFlat() async throws {
        let depth = 100_000
        // Tags that never close: the cue ends inside one, which is dropped as a browser drops it.
        #expect(try Self.cues("WEBVTT\n\n00:01.000 --> 00:02.000\nHello <b>there</b> <i class=\"x", .webvtt).map(\.text) == ["Hello there"])
        #expect(try Self.cues("<p>Hello <b>there</b> <i class=\"x", .html).map(\.text) == ["Hello there"])
        #expect(try Self.cues("<p>a < b and c <3 d</p>", .html).map(\.text) == ["a < b and c <3 d"])
        let nested = String(repeating: "<b><i>", count: depth) + "deep" + String(repeating: "</i></b>", count: depth)
        let unclosed = String(repeating: "<p><cite><time><v ", count: depth / 4)
        let documents: [(TranscriptFormat, String)] = [
            (.webvtt, "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n\(nested)\n"),
            (.srt, "1\n00:00:00,000 --> 00:00:01,000\n\(nested)\n"),
            (.html, "<p>\(nested)</p>"),
            (.html, unclosed),
            (.webvtt, "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n\(unclosed)\n"),
            (.json, String(repeating: "[", count: depth) + String(repeating: "]", count: depth)),
            (.json, String(repeating: #"{"segments":"#, count: depth / 10)),
        ]
        for (format, document) in documents {
            let outcome = try await HeavyWork.run { Result { () throws(TranscriptError) in try TranscriptParser.cues(Data(document.utf8), format: format) } }
            switch outcome {
            case .success(let cues):
                #expect(cues.allSatisfy { !$0.text.contains("<") }, "\(format)")
                if document.contains("deep") { #expect(cues.map(\.text) == ["deep"], "\(format)") }
            case .failure(let error):
                #expect(format == .json, "\(format): \(error)")
            }
        }
    }
}
