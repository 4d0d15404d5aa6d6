import EarshotCore
import FoundationEssentials

/// Show notes made safe to show: feed HTML reduced to allowlisted HTML (`SanitizedHTML`), which reads
/// back as a tree of `RichText`.
///
/// Kept: `p`, `br`, `a` (with an `href` that is http, https or mailto), `strong`, `em`, `b`, `i`, `ul`,
/// `ol`, `li`, `blockquote`, `h1`–`h6`, `img` (with an http or https `src`, and its `alt`). Every other
/// element is unwrapped to its text, except those whose content is never text to read (`script`,
/// `style`, `iframe`, `object`, `svg`, `math`, `template`, `noscript`, `textarea`, `head`, …), which are
/// dropped with it. Every other attribute is dropped (event handlers, `style`, `srcset`, …) and nothing
/// is added. Character references are decoded, whitespace collapsed, comments dropped.
///
/// A page gets the result as data, not markup (the tree of `SanitizedHTML.nodes`): it builds it with
/// `createElement` and `textContent`, so even text that reads like a tag stays text. One linear pass, a
/// few milliseconds per megabyte.
public enum ShowNotes {
    /// Sanitizes `html` (relative links are refused: there is no feed to resolve them against).
    public static func sanitize(html: String) -> SanitizedHTML {
        html.withUTF8Bytes { sanitize(bytes: $0, baseURL: nil, validUTF8: true) }  // a `String`'s
    }

    /// Sanitizes HTML bytes (UTF-8), resolving relative links against `baseURL` when given; `validUTF8`
    /// says the bytes are well-formed UTF-8 already (`HTMLSanitizer.Scratch.inputIsValidUTF8`).
    static func sanitize(bytes: UnsafeBufferPointer<UInt8>, baseURL: URL?, validUTF8: Bool = false) -> SanitizedHTML {
        var scratch = HTMLSanitizer.Scratch()
        scratch.inputIsValidUTF8 = validUTF8
        return sanitize(bytes: bytes, baseURL: baseURL, reusing: &scratch)
    }

    /// The same, with buffers kept from one call to the next (the parser's way: one scratch per feed).
    static func sanitize(bytes: UnsafeBufferPointer<UInt8>, baseURL: URL?,
                         reusing scratch: inout HTMLSanitizer.Scratch) -> SanitizedHTML {
        var sanitizer = HTMLSanitizer(bytes, baseURL: baseURL)
        return sanitizer.run(reusing: &scratch)
    }

    /// Plain text as rich text: a paragraph per blank-line-separated block, line breaks kept as `br`.
    ///
    /// Read on UTF-8 bytes (splitting the `String` walked characters, a hot spot on feeds whose notes are
    /// plain text), with the same result: a line feed is one unless it ends a "\r\n" (one character),
    /// two or more in a row end a paragraph, lines are trimmed of ASCII whitespace and blank ones dropped.
    public static func paragraphs(plainText: String) -> SanitizedHTML {
        var text = plainText
        return text.withUTF8 { paragraphs(utf8: $0) }
    }

    static func paragraphs(utf8 bytes: UnsafeBufferPointer<UInt8>) -> SanitizedHTML {
        // Room for the text, its tags and an escaped character or two a line (giantbomb's 730
        // descriptions are each a writer of their own).
        var out = SanitizedHTML.Writer(capacity: bytes.count + bytes.count / 8 + 64)
        var lines = 0  // in the current paragraph
        var lineStart = 0
        var index = 0
        func addLine(_ end: Int) {
            let range = UnsafeBufferPointer(rebasing: bytes[lineStart..<end]).trimmedRange()
            guard !range.isEmpty else { return }
            out.markup(lines == 0 ? NoteElement.p.startTag : NoteElement.br.startTag)  // packed: no String a line
            out.text(UnsafeBufferPointer(rebasing: bytes[lineStart + range.lowerBound..<lineStart + range.upperBound]))
            lines += 1
        }
        // From one line feed to the next (memchr: giantbomb's 730 one-line descriptions were read a byte a turn).
        while let feed = bytes.nextIndex(of: 0x0A, from: index) {
            index = feed
            guard index == 0 || bytes[index - 1] != 0x0D else {
                index += 1
                continue
            }
            addLine(index)
            var feeds = 1  // line feeds in a row (each after a line feed, so each its own character)
            while index + feeds < bytes.count, bytes[index + feeds] == 0x0A { feeds += 1 }
            if feeds >= 2, lines > 0 {
                out.markup(NoteElement.p.endTag)
                lines = 0
            }
            index += feeds
            lineStart = index
        }
        addLine(bytes.count)
        if lines > 0 { out.markup(NoteElement.p.endTag) }
        return SanitizedHTML(writtenBy: out)
    }
}
