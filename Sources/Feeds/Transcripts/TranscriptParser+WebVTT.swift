extension TranscriptParser {
    /// WebVTT (W3C `webvtt1`): the `WEBVTT` header is required; `NOTE`, `STYLE` and `REGION`
    /// blocks are skipped; a cue is an optional identifier, a timing line (cue settings after the
    /// end time ignored) and its text lines, joined with a space.
    ///
    /// The speaker is the annotation of the cue's first voice span (`<v Name>`, `<v.loud Name>`);
    /// a cue without one keeps the speaker before it, as the namespace writes `<v>` only when the
    /// speaker changes. Every other tag is dropped (`<b>`, `<i>`, `<c.x>`, `<lang>`, `<ruby>`,
    /// timestamps `<00:00:01.000>`), entities decoded.
    ///
    /// Lenient where real files are sloppy: blank lines before the header, times without hours
    /// or minutes (`0.860`, `3:26.520`, as Hindenburg writes them), `,` before the milliseconds,
    /// a missing blank line before a numbered cue. A cue whose timing line does not parse is
    /// skipped, not fatal.
    static func webVTTCues(_ text: String) throws(TranscriptError) -> CueList {
        let lines = Self.lines(text)
        guard let first = lines.firstIndex(where: { !isBlank($0) }), isWebVTTHeader(lines[first]) else {
            throw .noWebVTTHeader
        }
        // The header block runs to the first blank line (metadata lines), or to a cue that
        // follows it without one.
        var index = first + 1
        while index < lines.count, !isBlank(lines[index]), !lines[index].contains("-->") { index += 1 }
        var list = CueList()
        var speaker: String?
        forEachTimedCue(lines[index...], skippingKeywordBlocks: true) { start, end, textLines in
            let raw = textLines.joined(separator: " ")
            if let voice = firstVoice(in: raw) { speaker = voice }
            let text = FeedValues.plainText(fromHTML: withoutUnclosedTag(withoutTimestampTags(raw)))
            list.add(start: start, end: end, speaker: speaker, text: text)
            return !list.isFull
        }
        return list
    }

    /// `WEBVTT` alone or followed by a space or tab (and anything after it).
    static func isWebVTTHeader(_ line: Substring) -> Bool {
        guard line.hasPrefix("WEBVTT") else { return false }
        let after = line.dropFirst(6).first
        return after == nil || after == " " || after == "\t"
    }

    /// The annotation of the first voice span: `<v Bob>` → "Bob", `<v.loud Mary Ann>` → "Mary Ann",
    /// entities decoded. Nil when the text has none, or when it names no one (`<v>`).
    static func firstVoice(in text: String) -> String? {
        var rest = text[...]
        while let open = rest.firstRange(of: "<v") {
            let after = rest[open.upperBound...]
            guard let next = after.first else { return nil }
            guard next == "." || next == ">" || next.isWhitespace else {
                rest = after  // another tag that starts with "v"
                continue
            }
            let tag = after.prefix { $0 != ">" }
            // Classes (".loud") run to the first whitespace; the annotation is what follows.
            guard let space = tag.firstIndex(where: \.isWhitespace) else { return nil }
            let name = FeedValues.plainText(fromHTML: String(tag[space...]))
            return name.isEmpty ? nil : name
        }
        return nil
    }

    /// The text without WebVTT's timestamp tags (`<00:00:01.000>`, `<01:02.5>`), which the HTML
    /// converter would keep as text: a `<` before a digit is no HTML tag.
    static func withoutTimestampTags(_ text: String) -> String {
        guard text.contains("<") else { return text }
        var out = ""
        var cursor = text.startIndex
        while let open = text[cursor...].firstIndex(of: "<") {
            out += text[cursor..<open]
            let inside = text[text.index(after: open)...]
            // A timestamp is short: looking a few characters ahead keeps this linear.
            let candidate = inside.prefix(24)
            if let first = candidate.first, first.isASCII, first.isNumber, let close = candidate.firstIndex(of: ">"),
               candidate[..<close].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":" || $0 == ".") }) {
                cursor = text.index(after: close)
            } else {
                out.append("<")
                cursor = inside.startIndex
            }
        }
        out += text[cursor...]
        return out
    }
}
