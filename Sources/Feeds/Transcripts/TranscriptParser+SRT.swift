extension TranscriptParser {
    /// SubRip: numbered blocks of a timing line `00:00:01,000 --> 00:00:02,500` (`.` accepted for
    /// `,`; coordinates after the end ignored) and text lines, joined with a space.
    ///
    /// `<i>`, `<b>`, `<u>`, `<font …>` tags and `{\an8}`-style overrides are dropped, entities decoded.
    /// The speaker stays nil: podcast SRTs often open a cue with "Name:", but so does ordinary text
    /// ("Note: …"), so the text is kept as it is. Blocks without a timing line that parses are
    /// skipped; a missing blank line before a numbered block is tolerated.
    static func srtCues(_ text: String) -> CueList {
        var list = CueList()
        forEachTimedCue(lines(text)[...], skippingKeywordBlocks: false) { start, end, textLines in
            let raw = withoutUnclosedTag(withoutStyleOverrides(textLines.joined(separator: " ")))
            list.add(start: start, end: end, text: FeedValues.plainText(fromHTML: raw))
            return !list.isFull
        }
        return list
    }

    /// The text without the ASS-style overrides some SRT writers put in braces (`{\an8}`, `{\i1}`).
    static func withoutStyleOverrides(_ text: String) -> String {
        guard text.contains("{\\") else { return text }
        var out = ""
        var cursor = text.startIndex
        while let open = text[cursor...].firstRange(of: "{\\") {
            out += text[cursor..<open.lowerBound]
            // Overrides are short: a brace left open is text, and looking no further keeps this linear.
            let candidate = text[open.lowerBound...].prefix(64)
            if let close = candidate.firstIndex(of: "}") {
                cursor = text.index(after: close)
            } else {
                out += text[open]
                cursor = open.upperBound
            }
        }
        out += text[cursor...]
        return out
    }
}
