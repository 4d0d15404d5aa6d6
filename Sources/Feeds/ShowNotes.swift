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
        html.withUTF8Bytes { sanitize(bytes: $0, baseURL: nil) }
    }

    /// Sanitizes HTML bytes (UTF-8), resolving relative links against `baseURL` when given.
    static func sanitize(bytes: UnsafeBufferPointer<UInt8>, baseURL: URL?) -> SanitizedHTML {
        var scratch = HTMLSanitizer.Scratch()
        return sanitize(bytes: bytes, baseURL: baseURL, reusing: &scratch)
    }

    /// The same, with buffers kept from one call to the next (the parser's way: one scratch per feed).
    static func sanitize(bytes: UnsafeBufferPointer<UInt8>, baseURL: URL?,
                         reusing scratch: inout HTMLSanitizer.Scratch) -> SanitizedHTML {
        var sanitizer = HTMLSanitizer(bytes, baseURL: baseURL)
        return sanitizer.run(reusing: &scratch)
    }

    /// Plain text as rich text: a paragraph per blank-line-separated block, line breaks kept as `br`.
    public static func paragraphs(plainText: String) -> SanitizedHTML {
        var out = SanitizedHTML.Writer()
        for paragraph in plainText.split(separator: "\n\n", omittingEmptySubsequences: true) {
            var lines = 0
            for line in paragraph.split(separator: "\n", omittingEmptySubsequences: true) {
                let text = String(line).trimmingASCIIWhitespace()
                guard !text.isEmpty else { continue }
                out.open(lines == 0 ? "p" : "br")
                out.text(text)
                lines += 1
            }
            if lines > 0 { out.close("p") }
        }
        return SanitizedHTML(writtenBy: out)
    }
}
