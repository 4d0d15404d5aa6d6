extension TranscriptParser {
    /// The namespace's HTML transcript: blocks of `<cite>Speaker:</cite> <time>0:00</time> <p>text</p>`.
    ///
    /// Each `<p>` is one cue (several when it is longer than `maximumTextLength`); text outside any
    /// `<p>` is cut as plain text is, once `<br>` and block elements are line breaks: by blank
    /// lines, else by lines. A cue's speaker is the nearest `<cite>` before it (a trailing colon
    /// dropped), its start the nearest `<time>` before it (`h:mm:ss`, `mm:ss` or `ss`, with an
    /// optional fraction; each `<time>` starts one cue), its end the next later start. Without any
    /// `<time>` the cues have no times. Nothing of the markup reaches the text: tags are dropped,
    /// entities decoded, `<script>`, `<style>`, `<template>`, `<head>` and comments skipped whole,
    /// and a tag the document ends inside is dropped (as a browser drops it).
    static func htmlCues(_ text: String) -> CueList {
        var list = text.withUTF8Bytes { bytes in
            var reader = HTMLTranscriptReader(bytes)
            reader.run()
            return reader.list
        }
        list.endAtNextStart()
        return list
    }
}

/// One pass over an HTML transcript, cutting it at `<cite>`, `<time>` and `<p>`: the text between
/// them is converted by `FeedValues.plainText`, which also drops any markup inside.
private struct HTMLTranscriptReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The converter, for its tag-end search (linear however many quotes and `<` never close) and
    /// its skipping of hidden elements.
    var scanner: HTMLToText
    var index = 0
    var list = CueList()
    var speaker: String?
    var start: Double?
    /// Where the text not yet made into cues starts, and whether it is inside a `<p>`.
    var runStart = 0
    var inParagraph = false
    /// A `<cite>` or `<time>` being read, and where its content starts.
    var capture: Element?
    var captureStart = 0

    enum Element { case cite, time, paragraph, hidden(StaticString), other }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        scanner = HTMLToText(bytes)
    }

    mutating func run() {
        while index < bytes.count, !list.isFull, let open = bytes.nextIndex(of: UInt8(ascii: "<"), from: index) {
            guard let (element, closing, after) = tag(at: open) else {
                if scanner.noMoreTagEnd, open + 1 < bytes.count, Self.opensTag(bytes[open + 1]) {
                    // The document ends inside this tag: a browser drops it, and so does this.
                    endCapture(at: open)
                    endRun(at: open)
                    return
                }
                index = open + 1
                continue
            }
            index = after
            handle(element, closing: closing, at: open)
        }
        endCapture(at: bytes.count)
        endRun(at: bytes.count)
    }

    /// The element of the tag at `open` (a `<`), whether it closes, and where the tag ends; nil when
    /// it is no tag. A comment or declaration is `.other`.
    mutating func tag(at open: Int) -> (Element, Bool, Int)? {
        // Once no ">" is left, no "<" further on opens a tag: not looking again keeps the pass linear.
        guard open + 1 < bytes.count, !scanner.noMoreTagEnd else { return nil }
        let next = bytes[open + 1]
        if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
            if scanner.matches("<!--", at: open) {
                return (.other, false, scanner.position(after: "-->", from: open + 4) ?? bytes.count)
            }
            return scanner.tagEnd(from: open + 2).map { (.other, false, $0 + 1) }
        }
        let closing = next == UInt8(ascii: "/")
        let nameStart = open + (closing ? 2 : 1)
        guard nameStart < bytes.count, isASCIILetter(bytes[nameStart]) else { return nil }
        var nameEnd = nameStart
        var packed: UInt64 = 0
        while nameEnd < bytes.count {
            let byte = bytes[nameEnd]
            let isNameByte = isASCIILetter(byte) || isASCIIDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
            guard isNameByte else { break }
            if nameEnd - nameStart < 8 { packed |= UInt64(byte | 0x20) << (8 * UInt64(nameEnd - nameStart)) }
            nameEnd += 1
        }
        guard let close = scanner.tagEnd(from: nameEnd) else { return nil }
        return (Self.element(length: nameEnd - nameStart, packed: packed), closing, close + 1)
    }

    /// Whether a `<` followed by `byte` starts markup (else it is text, as in "a < b").
    static func opensTag(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
    }

    static func element(length: Int, packed: UInt64) -> Element {
        switch (length, packed) {
        case (4, 0x6574_6963): return .cite  // "cite", first byte lowest, as HTMLTag packs names
        case (4, 0x656d_6974): return .time  // "time"
        default:
            switch HTMLTag(length: length, packed: packed) {
            case .paragraph: return .paragraph
            case .hidden(let name): return .hidden(name)
            default: return .other
            }
        }
    }

    mutating func handle(_ element: Element, closing: Bool, at open: Int) {
        switch element {
        case .cite, .time:
            if closing {
                // A stray closing tag (none open) is no boundary: the run goes on.
                guard capture != nil else { return }
                endCapture(at: open)
                runStart = index
            } else {
                endCapture(at: open)
                endRun(at: open)
                capture = element
                captureStart = index
            }
        case .paragraph:
            endCapture(at: open)
            endRun(at: open)
            inParagraph = !closing
            runStart = index
        case .hidden(let name):
            // Skipped here so that a "<p>" in a script is no cue; the text converter drops the
            // element again when the run that holds it is converted.
            if !closing {
                scanner.index = index
                scanner.skipHiddenContent(name)
                index = scanner.index
            }
        case .other:
            break
        }
    }

    /// Ends the `<cite>` or `<time>` being read at `end`: its text becomes the speaker or the start.
    mutating func endCapture(at end: Int) {
        guard let element = capture else { return }
        capture = nil
        runStart = end
        let text = FeedValues.plainText(bytes: UnsafeBufferPointer(rebasing: bytes[captureStart..<max(captureStart, end)]))
        if case .cite = element {
            var name = Substring(text.trimmingWhitespace())
            while let last = name.last, last == ":" || last.isWhitespace { name = name.dropLast() }
            speaker = name.isEmpty ? nil : String(name)
        } else {
            let clock = text.trimmingWhitespace().trimmingPrefix("[").prefix { $0 != "]" }
            start = TranscriptParser.seconds(clock: clock)
        }
    }

    /// Makes the text from `runStart` to `end` into cues: one for a `<p>`, one per paragraph (or
    /// line) otherwise. The first cue made takes the pending `<time>`.
    mutating func endRun(at end: Int) {
        guard capture == nil, runStart < end else { return }
        let text = FeedValues.plainText(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<end]))
        runStart = end
        let pieces = inParagraph
            ? [text]
            : TranscriptParser.paragraphs(TranscriptParser.lines(text)).map { $0.joined(separator: " ") }
        for piece in pieces {
            if list.addParagraph(start: start, speaker: speaker, text: piece) { start = nil }
        }
    }
}
