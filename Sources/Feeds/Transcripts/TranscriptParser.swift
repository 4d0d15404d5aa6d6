import EarshotCore
import FoundationEssentials

/// Reads the files a Podcasting 2.0 `podcast:transcript` links to (WebVTT, SRT, the namespace's
/// JSON and HTML, plain text) into `TranscriptCue`s. Pure: bytes in, cues out.
///
/// Every format ends the same way: text is plain (no markup, entities decoded), runs of whitespace
/// are one space, the ends trimmed, empty cues dropped; a cue holds at most
/// `maximumTextLength` characters (a longer paragraph of HTML or plain text is split into several
/// cues, anything else cut) and a file at most `maximumCues` cues (the rest is dropped, not
/// refused); negative times become 0, an end before its start becomes the start, and cues that
/// all have a start are sorted by it.
public enum TranscriptParser {
    /// Cues kept from one file; the rest are dropped. A three-hour show in sentences is ~3,000.
    public static let maximumCues = 20_000
    /// Characters kept of one cue's text.
    public static let maximumTextLength = 2_000
    /// Characters kept of a speaker's name.
    public static let maximumSpeakerLength = 200

    /// The cues of a transcript file in `format` (`TranscriptFormat.detect` finds it).
    ///
    /// Throws when the bytes are not text (`TranscriptError.notText`, `.empty`) or not the
    /// format at all (a WebVTT file without its header, a JSON file without segments). A cue the
    /// format's rules cannot read (a malformed timing line, a segment without a body) is skipped.
    public static func cues(_ data: Data, format: TranscriptFormat) throws(TranscriptError) -> [TranscriptCue] {
        let text = try decodedText(data)
        let list: CueList
        switch format {
        case .webvtt: list = try webVTTCues(text)
        case .srt: list = srtCues(text)
        case .json: list = try jsonCues(text)
        case .html: list = htmlCues(text)
        case .text: list = plainTextCues(text)
        }
        return list.finished()
    }
}

/// Why a transcript file was refused.
public struct TranscriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a sentence fragment for a log line or a notice.
    public var description: String

    init(_ description: String) { self.description = description }

    /// Nothing in it but whitespace.
    public static let empty = TranscriptError("the transcript is empty")
    /// Binary data (a NUL byte), or UTF-16 without a byte order mark.
    public static let notText = TranscriptError("the transcript is not UTF-8 text")
    /// A WebVTT file must open with `WEBVTT`.
    public static let noWebVTTHeader = TranscriptError("the WebVTT file has no WEBVTT header")
    /// A JSON transcript that does not parse.
    public static let notJSON = TranscriptError("the JSON transcript is not valid JSON")
    /// A JSON transcript without a `segments` array.
    public static let noSegments = TranscriptError("the JSON transcript has no segments")
}

// MARK: Text

extension TranscriptParser {
    /// The file as a String: a UTF-8 byte order mark dropped, CRLF and CR line ends made LF.
    ///
    /// Bytes that are not UTF-8 are read as Windows-1252 (which covers Latin-1's letters): old SRT
    /// files are often Latin-1, and a readable transcript beats a refusal. Only a NUL byte, which
    /// no text has, refuses the file: it is binary, or UTF-16 without a byte order mark.
    static func decodedText(_ data: Data) throws(TranscriptError) -> String {
        let text: String? = data.withUnsafeBytes { raw in decode(raw.bindMemory(to: UInt8.self)) }
        guard let text else { throw .notText }
        guard text.contains(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) else { throw .empty }
        return text
    }

    private static func decode(_ all: UnsafeBufferPointer<UInt8>) -> String? {
        let hasBOM = all.count >= 3 && all[0] == 0xEF && all[1] == 0xBB && all[2] == 0xBF
        let bytes = UnsafeBufferPointer(rebasing: all[(hasBOM ? 3 : 0)...])
        if bytes.nextIndex(of: 0, from: 0) != nil { return nil }
        let hasCR = bytes.nextIndex(of: 0x0D, from: 0) != nil
        if !hasCR, UTF8Check.isValid(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D {
                out.append(0x0A)
                index += index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
            } else if byte < 0x80 {
                out.append(byte)
                index += 1
            } else if let length = UTF8Check.validSequenceLength(raw, at: index) {
                out.append(contentsOf: bytes[index..<index + length])
                index += length
            } else {
                FeedEncoding.appendUTF8(FeedEncoding.windows1252(byte), to: &out)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The lines of LF-only text (Characters: after `decodedText` no CR is left to pair with LF).
    static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    static func isBlank(_ line: Substring) -> Bool { line.allSatisfy(\.isWhitespace) }

    /// `text` with each run of whitespace one space, the ends trimmed, control characters and
    /// stray byte order marks dropped, cut to `limit` characters (none when nil). With a limit it
    /// stops reading once it has enough, so a megabyte line costs no more than a short one.
    static func cleaned(_ text: some StringProtocol, limit: Int?) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        var written = 0
        // Room for combining marks; the cut to `limit` Characters is below.
        let scalarLimit = limit.map { $0 * 4 } ?? Int.max
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if scalar.properties.generalCategory == .control || scalar == "\u{FEFF}" { continue }
            if pendingSpace {
                scalars.append(" ")
                pendingSpace = false
            }
            scalars.append(scalar)
            written += 1
            if written >= scalarLimit { break }
        }
        let string = String(scalars)
        guard let limit, string.count > limit else { return string }
        var cut = string.prefix(limit)
        while cut.last == " " { cut = cut.dropLast() }
        return String(cut)
    }

    /// Cleaned text cut into pieces of at most `limit` characters: at the last sentence end in the
    /// second half of each `limit` characters, else at the last space there, else anywhere. A
    /// paragraph-long cue (HTML, plain text) is split so, not cut short: a monologue of 5,000
    /// characters is a real transcript's, and none of it should be lost.
    static func pieces(of text: String, limit: Int) -> [Substring] {
        var result: [Substring] = []
        var rest = text[...]
        while let cut = rest.index(rest.startIndex, offsetBy: limit, limitedBy: rest.endIndex), cut < rest.endIndex {
            let half = rest.index(rest.startIndex, offsetBy: limit / 2)
            // Up to and including the character at `cut`: a space there ends a full-length piece.
            let window = rest[half...cut]
            let sentenceEnd = window.indices.reversed().first { index in
                window[index] == " " && ".?!…".contains(rest[rest.index(before: index)])
            }
            if let space = sentenceEnd ?? window.lastIndex(of: " ") {
                result.append(rest[..<space])
                rest = rest[rest.index(after: space)...]
            } else {
                result.append(rest[..<cut])
                rest = rest[cut...]
            }
        }
        if !rest.isEmpty { result.append(rest) }
        return result
    }

    /// The text without a tag left open at its end ("Hello <b", "Bye </i"): a browser drops a tag
    /// the text ends inside, where the HTML converter would keep it as text.
    static func withoutUnclosedTag(_ text: String) -> String {
        let afterLastClose = text.lastIndex(of: ">").map { text.index(after: $0) } ?? text.startIndex
        var cursor = afterLastClose
        while let open = text[cursor...].firstIndex(of: "<") {
            let next = text.index(after: open)
            guard next < text.endIndex else { break }
            if text[next].isASCII, text[next].isLetter || text[next] == "/" || text[next] == "!" {
                return String(text[..<open])
            }
            cursor = next
        }
        return text
    }
}

// MARK: Times

extension TranscriptParser {
    /// Seconds in a clock time `[[h:]m:]s[.fff]` (`,` also separates the fraction, as SRT writes it),
    /// or nil. Inner units must be under 60; the leading one may be any size ("75:30" is 75 minutes).
    /// `minimumParts` 2 asks for at least one colon, so that a bare number is not a time.
    static func seconds(clock token: some StringProtocol, minimumParts: Int = 1) -> Double? {
        let parts = String(token).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= minimumParts, parts.count <= 3 else { return nil }
        var total = 0.0
        for (position, part) in parts.enumerated() {
            let isLast = position == parts.count - 1
            var whole = part[...]
            var fraction: Substring = ""
            if isLast, let separator = part.firstIndex(where: { $0 == "." || $0 == "," }) {
                whole = part[..<separator]
                fraction = part[part.index(after: separator)...]
                guard isDigits(fraction) else { return nil }
            }
            guard isDigits(whole), let value = Int(whole) else { return nil }
            if position > 0, value >= 60 { return nil }
            total = total * 60 + Double(value)
            if !fraction.isEmpty, let fractionValue = Double("0." + fraction) { total += fractionValue }
        }
        return total
    }

    /// One to nine ASCII digits (nine keeps every value far from overflow).
    static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 9 && text.utf8.allSatisfy { $0 &- 0x30 < 10 }
    }

    /// `start --> end` of a WebVTT or SRT timing line; what follows the end (WebVTT's cue settings,
    /// SRT's coordinates) is ignored.
    static func timing(_ line: Substring) -> (start: Double, end: Double)? {
        guard let arrow = line.firstRange(of: "-->") else { return nil }
        let start = line[..<arrow.lowerBound].trimmingWhitespace()
        let end = line[arrow.upperBound...].drop(while: \.isWhitespace).prefix { !$0.isWhitespace }
        guard let startSeconds = seconds(clock: start), let endSeconds = seconds(clock: end) else { return nil }
        return (startSeconds, endSeconds)
    }

    /// A line that is only a cue number ("12"), as SRT numbers its blocks.
    static func isCueNumber(_ line: Substring) -> Bool {
        let trimmed = line.trimmingWhitespace()
        return !trimmed.isEmpty && trimmed.utf8.allSatisfy { $0 &- 0x30 < 10 }
    }

    /// Walks the cues of a WebVTT or SRT body (WebVTT's header already passed): a timing line, then
    /// its text lines up to a blank line, the next timing line, or a cue number followed by one
    /// (files that forget the blank line between cues). Anything else is passed over: cue
    /// identifiers, SRT numbers, a malformed timing line and its text. With `skippingKeywordBlocks`,
    /// blocks opening with `NOTE`, `STYLE` or `REGION` are skipped whole (WebVTT).
    ///
    /// `body` gets each cue's times and text lines and returns false to stop.
    static func forEachTimedCue(
        _ lines: ArraySlice<Substring>, skippingKeywordBlocks: Bool,
        _ body: (Double, Double, ArraySlice<Substring>) -> Bool
    ) {
        var index = lines.startIndex
        var atBlockStart = true
        while index < lines.endIndex {
            let line = lines[index]
            if isBlank(line) {
                atBlockStart = true
                index += 1
                continue
            }
            if atBlockStart, skippingKeywordBlocks, isKeywordBlockStart(line) {
                while index < lines.endIndex, !isBlank(lines[index]) { index += 1 }
                continue
            }
            atBlockStart = false
            guard let (start, end) = timing(line) else {
                index += 1
                continue
            }
            var textEnd = index + 1
            while textEnd < lines.endIndex {
                let next = lines[textEnd]
                if isBlank(next) || next.contains("-->") { break }
                if isCueNumber(next), textEnd + 1 < lines.endIndex, timing(lines[textEnd + 1]) != nil { break }
                textEnd += 1
            }
            guard body(start, end, lines[(index + 1)..<textEnd]) else { return }
            index = textEnd
        }
    }

    /// `NOTE`, `STYLE` or `REGION` alone or followed by a space or tab.
    private static func isKeywordBlockStart(_ line: Substring) -> Bool {
        for keyword in ["NOTE", "STYLE", "REGION"] where line.hasPrefix(keyword) {
            let after = line.dropFirst(keyword.count).first
            if after == nil || after == " " || after == "\t" { return true }
        }
        return false
    }
}

// MARK: Collecting

/// The cues of one file as they are read: each cleaned as it comes, empty ones dropped, no more
/// than `TranscriptParser.maximumCues` kept.
struct CueList {
    private(set) var cues: [TranscriptCue] = []

    var isFull: Bool { cues.count >= TranscriptParser.maximumCues }

    /// Adds a cue unless its text is empty once cleaned or the list is full; says whether it did.
    @discardableResult
    mutating func add(start: Double?, end: Double?, speaker: String? = nil, text: some StringProtocol) -> Bool {
        guard !isFull else { return false }
        let text = TranscriptParser.cleaned(text, limit: TranscriptParser.maximumTextLength)
        guard !text.isEmpty else { return false }
        let name = speaker.map { TranscriptParser.cleaned($0, limit: TranscriptParser.maximumSpeakerLength) }
        cues.append(TranscriptCue(start: start, end: end, speaker: name?.isEmpty == false ? name : nil, text: text))
        return true
    }

    /// Adds a paragraph as one cue, or as several of the same start and speaker when it is longer
    /// than `maximumTextLength` (`TranscriptParser.pieces`); says whether any was added.
    @discardableResult
    mutating func addParagraph(start: Double?, speaker: String?, text: some StringProtocol) -> Bool {
        var added = false
        let whole = TranscriptParser.cleaned(text, limit: nil)
        for piece in TranscriptParser.pieces(of: whole, limit: TranscriptParser.maximumTextLength) {
            if add(start: start, end: nil, speaker: speaker, text: piece) { added = true }
        }
        return added
    }

    /// Each cue with a start and no end ends where the next cue with a later start begins (HTML
    /// gives only starts; the pieces of a split paragraph share its start, and its end).
    mutating func endAtNextStart() {
        var next: Double?
        var nextEnd: Double?
        for index in cues.indices.reversed() {
            guard let start = cues[index].start else { continue }
            if cues[index].end == nil { cues[index].end = next == start ? nextEnd : next }
            next = start
            nextEnd = cues[index].end
        }
    }

    /// The cues with their times made sane (finite, not negative, no end before its start) and,
    /// when every cue has a start, in order of it (cues that start together keep the file's order).
    func finished() -> [TranscriptCue] {
        var result = cues.map { cue in
            var cue = cue
            cue.start = cue.start.flatMap { $0.isFinite ? max(0, $0) : nil }
            cue.end = cue.end.flatMap { $0.isFinite ? max(0, $0) : nil }
            if let start = cue.start, let end = cue.end, end < start { cue.end = start }
            return cue
        }
        let starts = result.compactMap(\.start)
        let isOutOfOrder = zip(starts, starts.dropFirst()).contains { $0.0 > $0.1 }
        guard starts.count == result.count, isOutOfOrder else { return result }
        result = result.enumerated()
            .sorted { ($0.element.start ?? 0, $0.offset) < ($1.element.start ?? 0, $1.offset) }
            .map(\.element)
        return result
    }
}
