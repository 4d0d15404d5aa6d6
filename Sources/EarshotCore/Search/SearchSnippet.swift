/// A piece of text around what matched, with the matched words as ranges: the client builds
/// the highlight with `textContent` from these, never from HTML. Ranges are `[start, end)` in
/// UTF-16 code units (what JavaScript's `slice` counts), sorted, never overlapping.
public struct SearchSnippet: Sendable, Equatable, Codable {
    public var text: String
    public var marks: [[Int]]

    public init(text: String, marks: [[Int]]) { self.text = text; self.marks = marks }

    /// The markers SQLite's `snippet()` / `highlight()` are asked to put around each match:
    /// control characters, which feed text (sanitized to plain text) does not carry.
    public static let open: Character = "\u{2}"
    public static let close: Character = "\u{3}"

    /// Reads text marked with `open` … `close` into plain text and ranges. A stray or unclosed
    /// marker is dropped, never shown; empty ranges are left out.
    public init(marked: String) {
        var text = ""
        var marks: [[Int]] = []
        var offset = 0
        var start: Int?
        for character in marked {
            switch character {
            case Self.open: start = offset
            case Self.close:
                if let begun = start, offset > begun {
                    if let last = marks.last, last[1] == begun { marks[marks.count - 1][1] = offset } else { marks.append([begun, offset]) }
                }
                start = nil
            default:
                text.append(character)
                offset += character.utf16.count
            }
        }
        self.init(text: text, marks: marks)
    }
}
