import FoundationEssentials

extension ChapterMerge {
    /// More chapters than this are dropped (the latest ones): a list nobody can scroll, and a
    /// `state` message that would grow without bound from a hostile file.
    public static let maximumCount = 1000
    /// Titles are cut to this many characters.
    public static let maximumTitleLength = 200
    /// Longer image or link addresses are dropped.
    public static let maximumURLLength = 2048
    /// The list rides in every `state` message: past this many bytes of titles and addresses the
    /// later chapters are dropped, so a hostile file cannot make each state megabytes long. A
    /// thousand chapters with a title and a link each need about a tenth of it.
    public static let maximumListBytes = 256 * 1024

    /// Makes any list safe to show and to navigate: non-finite starts dropped, negative ones
    /// clamped to 0, sorted by start (stable), one chapter per start (the first written),
    /// at most `maximumCount` and `maximumListBytes`; titles with white space runs made one space, control characters
    /// dropped, cut to `maximumTitleLength`, and "Chapter N" when empty; `img`/`url` kept only
    /// when they are absolute http(s) addresses.
    public static func clean(_ chapters: [Chapter]) -> [Chapter] {
        let ordered = chapters.enumerated()
            .filter { $0.element.start.isFinite }
            .map { (offset: $0.offset, chapter: $0.element, start: max(0, $0.element.start)) }
            .sorted { $0.start != $1.start ? $0.start < $1.start : $0.offset < $1.offset }
        var result: [Chapter] = []
        result.reserveCapacity(min(ordered.count, maximumCount))
        var bytes = 0
        for item in ordered {
            if let last = result.last, last.start == item.start { continue }
            if result.count == maximumCount { break }
            let title = cleanTitle(item.chapter.title)
            let chapter = Chapter(title: title.isEmpty ? "Chapter \(result.count + 1)" : title, start: item.start,
                                  img: webAddress(item.chapter.img), url: webAddress(item.chapter.url))
            // The JSON around each chapter is about 40 bytes; titles count as written in UTF-8.
            bytes += 40 + chapter.title.utf8.count + (chapter.img?.utf8.count ?? 0) + (chapter.url?.utf8.count ?? 0)
            if bytes > maximumListBytes { break }
            result.append(chapter)
        }
        return result
    }

    /// White space runs (newlines and tabs included) become one space, trimmed at both ends;
    /// other control and format characters go; at most `maximumTitleLength` characters.
    static func cleanTitle(_ title: String) -> String {
        var out = ""
        var pendingSpace = false
        var count = 0
        for character in title {
            if character.isWhitespace || character.isNewline {
                pendingSpace = !out.isEmpty
                continue
            }
            if character.unicodeScalars.allSatisfy(isControl) { continue }
            if pendingSpace { out.append(" "); count += 1; pendingSpace = false }
            guard count < maximumTitleLength else { break }
            out.append(character)
            count += 1
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control: return true
        // Format characters include bidi overrides (a title that reads backwards); the joiners
        // stay, as emoji sequences and some scripts need them.
        case .format: return scalar != "\u{200C}" && scalar != "\u{200D}"
        default: return false
        }
    }

    /// The address when it is absolute http(s), of sane length, without white space or controls.
    public static func webAddress(_ address: String?) -> String? {
        guard let address, !address.isEmpty, address.utf8.count <= maximumURLLength else { return nil }
        let lower = address.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        let rest = address.unicodeScalars.dropFirst(lower.hasPrefix("https://") ? 8 : 7)
        guard let first = rest.first, first != "/", first != "\\" else { return nil } // a host is needed
        guard !address.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace })
        else { return nil }
        return address
    }
}
