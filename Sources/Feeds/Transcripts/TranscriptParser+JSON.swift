import FoundationEssentials

extension TranscriptParser {
    /// The Podcasting 2.0 JSON transcript (podcast-namespace `docs/examples/transcripts/transcripts.md`):
    /// `{"version": "1.0.0", "segments": [{"speaker", "startTime", "endTime", "body"}]}`.
    ///
    /// Times may be numbers or numeric strings (`"1.5"`, even `"00:00:01.500"`). Segments are
    /// often single words, so consecutive segments are merged into cues of about a sentence: a
    /// cue ends after a segment ending in `.`, `?` or `!`, before one that starts 12 s or more after
    /// the cue did, at a change of speaker, and once it holds `maximumTextLength` characters. A cue
    /// starts at its first segment's start and ends at its last one's end. Words are joined with a
    /// space unless a segment brings its own (some files give spaces and punctuation segments of
    /// their own) or opens with punctuation. A segment without a string `body` is skipped.
    static func jsonCues(_ text: String) throws(TranscriptError) -> CueList {
        let file: JSONTranscript
        do { file = try JSONDecoder().decode(JSONTranscript.self, from: Data(text.utf8)) } catch { throw .notJSON }
        guard let segments = file.segments else { throw .noSegments }
        var merger = SegmentMerger()
        for segment in segments {
            merger.add(segment)
            if merger.list.isFull { break }
        }
        merger.flush()
        return merger.list
    }

    /// A cue is cut before a segment that starts this long after the cue did.
    static let longestMergedCue = 12.0
}

/// The file as far as it matters; any other shape of `segments` is no transcript.
private struct JSONTranscript: Decodable {
    var segments: [JSONSegment]?

    private enum CodingKeys: String, CodingKey { case segments }

    init(from decoder: any Decoder) {
        // Never throws: a file that parses but has the wrong shape is "no segments", not "not JSON".
        segments = try? decoder.container(keyedBy: CodingKeys.self).decode([JSONSegment].self, forKey: .segments)
    }
}

/// One segment, each field read on its own: a wrong field loses that field, not the file.
private struct JSONSegment: Decodable {
    var speaker: String?
    var startTime: Double?
    var endTime: Double?
    var body: String?

    private enum CodingKeys: String, CodingKey { case speaker, startTime, endTime, body }

    init(from decoder: any Decoder) {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else { return }
        speaker = try? container.decode(String.self, forKey: .speaker)
        startTime = Self.time(container, .startTime)
        endTime = Self.time(container, .endTime)
        body = try? container.decode(String.self, forKey: .body)
    }

    private static func time(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> Double? {
        if let number = try? container.decode(Double.self, forKey: key) { return number.isFinite ? number : nil }
        guard let string = try? container.decode(String.self, forKey: key) else { return nil }
        let trimmed = string.trimmingWhitespace()
        if let number = Double(trimmed), number.isFinite { return number }
        return TranscriptParser.seconds(clock: trimmed)
    }
}

/// Merges consecutive segments into cues (rules on `TranscriptParser.jsonCues`).
private struct SegmentMerger {
    struct Draft {
        var speaker: String?
        var start: Double?
        var end: Double?
        var text = ""
    }

    var list = CueList()
    var draft: Draft?

    mutating func add(_ segment: JSONSegment) {
        guard let body = segment.body else { return }
        if body.allSatisfy(\.isWhitespace) {
            // A space segment only separates words: it neither opens a cue nor moves its end.
            if draft != nil, !body.isEmpty { draft?.text += " " }
            return
        }
        let speaker = segment.speaker.map { TranscriptParser.cleaned($0, limit: TranscriptParser.maximumSpeakerLength) }
            .flatMap { $0.isEmpty ? nil : $0 }
        if let current = draft, current.speaker != speaker || Self.isTooLong(current, before: segment) { flush() }
        var cue = draft ?? Draft(speaker: speaker, start: segment.startTime)
        if cue.start == nil { cue.start = segment.startTime }
        cue.end = segment.endTime ?? segment.startTime ?? cue.end
        Self.append(body, to: &cue.text)
        draft = cue
        if Self.endsSentence(body) || cue.text.utf8.count >= TranscriptParser.maximumTextLength { flush() }
    }

    mutating func flush() {
        guard let cue = draft else { return }
        list.add(start: cue.start, end: cue.end, speaker: cue.speaker, text: cue.text)
        draft = nil
    }

    static func isTooLong(_ cue: Draft, before segment: JSONSegment) -> Bool {
        guard let start = cue.start, let next = segment.startTime else { return false }
        return next - start >= TranscriptParser.longestMergedCue
    }

    /// Joins a word to the cue: with a space, unless one side has its own or the word opens with
    /// punctuation that hangs on the word before (",", ".", "?", a closing quote or bracket…).
    static func append(_ body: String, to text: inout String) {
        guard let last = text.last, let first = body.first else {
            text += body
            return
        }
        if !last.isWhitespace, !first.isWhitespace, !closingPunctuation.contains(first) { text += " " }
        text += body
    }

    static let closingPunctuation: Set<Character> = [",", ".", ";", ":", "!", "?", "%", ")", "]", "}", "…", "’", "”", "»"]

    /// Whether the segment ends a sentence: `.`, `?`, `!` or `…`, perhaps inside a closing quote
    /// or bracket.
    static func endsSentence(_ body: String) -> Bool {
        let end = body.reversed().drop { $0.isWhitespace || "\"'’”»)]".contains($0) }.first
        return end.map { ".?!…".contains($0) } ?? false
    }
}
