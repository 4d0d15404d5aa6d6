extension TranscriptParser {
    /// Plain text: one cue per paragraph (lines up to a blank line, joined with a space), or one per
    /// line when the file has no blank line between its first and last lines; a paragraph longer
    /// than `maximumTextLength` is split into several cues. No times, no speaker,
    /// the text as written: "Name: text" stays text, since ordinary sentences look the same.
    ///
    /// One form is read: a paragraph opening with a clock time, bare or in brackets
    /// (`[00:01:02] …`, `00:01:02 …`, `[01:02.5] …`), gives the cue its start; when what follows is
    /// "Speaker: text" with a name of at most 40 characters, a letter and no sentence punctuation,
    /// it gives the speaker too. The time is dropped from the text, the name with its colon.
    static func plainTextCues(_ text: String) -> CueList {
        var list = CueList()
        for paragraph in paragraphs(Self.lines(text)) {
            let joined = paragraph.joined(separator: " ").trimmingWhitespace()
            if let (start, rest) = leadingClock(joined) {
                let (speaker, words) = leadingSpeaker(rest)
                list.addParagraph(start: start, speaker: speaker, text: words)
            } else {
                list.addParagraph(start: nil, speaker: nil, text: joined)
            }
            if list.isFull { break }
        }
        return list
    }

    /// The paragraphs of `lines` (runs of lines between blank lines), or each line its own when no
    /// blank line separates two of them (blank lines at the ends do not count).
    static func paragraphs(_ lines: [Substring]) -> [ArraySlice<Substring>] {
        guard let first = lines.firstIndex(where: { !isBlank($0) }),
              let last = lines.lastIndex(where: { !isBlank($0) }) else { return [] }
        let body = lines[first...last]
        return body.contains(where: isBlank) ? body.split(whereSeparator: isBlank) : body.map { [$0][...] }
    }

    /// The seconds of a clock time that opens `text` (`h:mm:ss` or `mm:ss`, optional fraction,
    /// optionally in `[…]`) and the text after it; nil when it does not open with one.
    static func leadingClock(_ text: String) -> (Double, Substring)? {
        var rest = text[...]
        let bracketed = rest.first == "["
        if bracketed { rest = rest.dropFirst() }
        let token = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ":" || $0 == ".") }
        guard let seconds = seconds(clock: token, minimumParts: 2) else { return nil }
        rest = rest.dropFirst(token.count)
        if bracketed {
            guard rest.first == "]" else { return nil }
            rest = rest.dropFirst()
        }
        // "10:30am" is words, not a time stamp.
        guard rest.first.map(\.isWhitespace) ?? true else { return nil }
        return (seconds, rest.drop(while: \.isWhitespace))
    }

    /// "Name: text" → ("Name", "text") when the name is at most 40 characters, has a letter and no
    /// sentence punctuation; otherwise no speaker and the text whole.
    static func leadingSpeaker(_ text: Substring) -> (String?, Substring) {
        guard let colon = text.firstIndex(of: ":") else { return (nil, text) }
        let name = text[..<colon].trimmingWhitespace()
        let after = text[text.index(after: colon)...]
        guard !name.isEmpty, name.count <= 40, name.contains(where: \.isLetter),
              !name.contains(where: { ".?!;…".contains($0) }),
              after.first.map(\.isWhitespace) ?? true else { return (nil, text) }
        return (name, after)
    }
}
