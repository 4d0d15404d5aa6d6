/// podcastparser's text functions, reproduced exactly (Python's notion of whitespace included), so
/// `PodcastparserJSON` gives the strings it gives. Not used for Earshot's own model. They work on
/// UTF-8 bytes; Tests/FeedsTests/PythonTextTests.swift holds them to their definitions on Unicode
/// scalars (`str.isspace()`, `strip()`, each `re.sub`).
enum Python {
    /// `squash_whitespace`: `re.sub(r'\s+', ' ', text.strip())`.
    static func squash(_ text: String) -> String {
        squash(text, keepingLines: false)
    }

    /// `squash_whitespace_not_nl`: `re.sub(r'[^\S\r\n]+', ' ', text.strip())`.
    static func squashKeepingLines(_ text: String) -> String {
        squash(text, keepingLines: true)
    }

    private static func squash(_ text: String, keepingLines: Bool) -> String {
        // On the UTF-8 bytes (a 60,000-episode feed squashes 60,000 descriptions): the text as it is when
        // nothing changes, which is most of the time.
        var utf8 = text
        return utf8.withUTF8 { bytes in
            let kept = stripped(bytes)
            var out: [UInt8] = []
            var changed = kept.count != bytes.count
            var index = kept.lowerBound
            var runStart = -1
            while index < kept.upperBound {
                let length = spaceLength(bytes, index)
                let isLine = bytes[index] == 0x0A || bytes[index] == 0x0D
                if length > 0, !(keepingLines && isLine) {
                    if runStart < 0 { runStart = index }
                    index += length
                    continue
                }
                if runStart >= 0 {
                    // A run other than one plain space becomes one.
                    if !changed, index - runStart != 1 || bytes[runStart] != 0x20 {
                        changed = true
                        out.reserveCapacity(kept.count)
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[kept.lowerBound..<runStart]))
                    }
                    if changed { out.append(0x20) }
                    runStart = -1
                }
                if changed { out.append(bytes[index]) }
                index += 1
            }
            return changed ? String(decoding: out, as: UTF8.self) : text
        }
    }

    /// The bytes of `bytes` left once Python's whitespace is stripped from both ends.
    static func stripped(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0
        while start < bytes.count, case let length = spaceLength(bytes, start), length > 0 { start += length }
        var end = start
        var index = start
        while index < bytes.count {
            let length = spaceLength(bytes, index)
            if length == 0 {
                index += 1
                end = index
            } else {
                index += length
            }
        }
        return start..<end
    }

    /// The length in bytes of the character at `index` of UTF-8 `bytes` when it is whitespace to Python
    /// (`str.isspace()`: U+0009–000D, U+001C–0020, U+0085, U+00A0, U+1680, U+2000–200A, U+2028, U+2029,
    /// U+202F, U+205F, U+3000), else 0.
    static func spaceLength(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x80 { return (0x09...0x0D).contains(byte) || (0x1C...0x20).contains(byte) ? 1 : 0 }
        let left = bytes.count - index
        switch byte {
        case 0xC2:  // U+0085, U+00A0
            return left >= 2 && (bytes[index + 1] == 0x85 || bytes[index + 1] == 0xA0) ? 2 : 0
        case 0xE1:  // U+1680
            return left >= 3 && bytes[index + 1] == 0x9A && bytes[index + 2] == 0x80 ? 3 : 0
        case 0xE2:  // U+2000…U+200A, U+2028, U+2029, U+202F; U+205F
            guard left >= 3 else { return 0 }
            let last = bytes[index + 2]
            if bytes[index + 1] == 0x80 { return (0x80...0x8A).contains(last) || last == 0xA8 || last == 0xA9 || last == 0xAF ? 3 : 0 }
            return bytes[index + 1] == 0x81 && last == 0x9F ? 3 : 0
        case 0xE3:  // U+3000
            return left >= 3 && bytes[index + 1] == 0x80 && bytes[index + 2] == 0x80 ? 3 : 0
        default:
            return 0
        }
    }

    /// `file_basename_no_extension`: `os.path.splitext(os.path.basename(url))[0]`.
    static func fileNameWithoutExtension(_ url: String) -> String {
        let base = url.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? url
        // splitext ignores leading dots: ".profile" has no extension.
        let withoutLeadingDots = base.drop { $0 == "." }
        guard let dot = withoutLeadingDots.lastIndex(of: ".") else { return base }
        return String(base[..<dot])
    }

    /// `remove_html_tags`: line breaks for `<br>`, lists and paragraphs, tags stripped, `&#NN;` and
    /// `&name;` decoded (unknown names vanish), runs of three or more line breaks cut to two, stripped.
    /// Its five `re.sub` passes, each on the UTF-8 bytes (every pattern starts with an ASCII character,
    /// and what they match case-insensitively is ASCII): a 60,000-episode feed has 18,000 HTML notes.
    static func removeHTMLTags(_ html: String) -> String {
        // Text without a tag, an entity or a line break only loses its ends' whitespace.
        if !html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == 0x0A || $0 == 0x0D }) {
            var utf8 = html
            return utf8.withUTF8 { bytes in
                let kept = stripped(bytes)
                return kept.count == bytes.count ? html : String(decoding: UnsafeBufferPointer(rebasing: bytes[kept]), as: UTF8.self)
            }
        }
        var text = Array(html.utf8)
        text = replacing(text, at: UInt8(ascii: "<")) { b, i, out in
            // (<br[^>]*>|<[/]?ul[^>]*>|</li>) → "\n"; <li[^>]*> → "\n * "; <[Pp]> → "\n\n"
            if let end = tagEnd(b, i, "br") ?? tagEnd(b, i, "ul") ?? tagEnd(b, i, "/ul") { out.append(0x0A); return end }
            if hasPrefix(b, i, "</li>") { out.append(0x0A); return i + 5 }
            if let end = tagEnd(b, i, "li") { out += [0x0A, 0x20, 0x2A, 0x20]; return end }
            if i + 2 < b.count, b[i + 1] == UInt8(ascii: "p") || b[i + 1] == UInt8(ascii: "P"), b[i + 2] == UInt8(ascii: ">") {
                out += [0x0A, 0x0A]
                return i + 3
            }
            return nil
        }
        text = replacing(text, at: UInt8(ascii: "<")) { b, i, _ in
            // <[^>]*> → ""
            guard let close = b[i...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            return close + 1
        }
        text = replacing(text, at: UInt8(ascii: "&")) { b, i, out in
            // &#(\d{2,4}); → chr(int)
            guard i + 1 < b.count, b[i + 1] == UInt8(ascii: "#") else { return nil }
            var cursor = i + 2
            var value = 0
            while cursor < b.count, cursor - (i + 2) < 5, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[cursor]) {
                value = value * 10 + Int(b[cursor] - UInt8(ascii: "0"))
                cursor += 1
            }
            guard (2...4).contains(cursor - (i + 2)), cursor < b.count, b[cursor] == UInt8(ascii: ";"),
                  let scalar = Unicode.Scalar(value) else { return nil }
            out += Array(String(Character(scalar)).utf8)
            return cursor + 1
        }
        text = replacing(text, at: UInt8(ascii: "&")) { b, i, out in
            // &(.{2,8}); → entitydefs.get(name, ""): the longest candidate that ends in ";" wins (lengths
            // in characters, not bytes).
            var cursor = i + 1
            var length = 0
            var semicolon: Int?
            while cursor < b.count, length < 9, b[cursor] != 0x0A {
                if length >= 2, b[cursor] == UInt8(ascii: ";") { semicolon = cursor }
                length += 1
                cursor += scalarLength(b[cursor])
            }
            guard let semicolon else { return nil }
            let value = HTMLEntities.html4Value(of: UnsafeBufferPointer(rebasing: b[(i + 1)..<semicolon]))
            if let scalar = value.flatMap(Unicode.Scalar.init) { out += Array(String(Character(scalar)).utf8) }
            return semicolon + 1
        }
        text = replacing(text, at: 0x0A, or: 0x0D) { b, i, out in
            // ([\r\n]{2})([\r\n])+ → \1
            var cursor = i
            while cursor < b.count, b[cursor] == 0x0A || b[cursor] == 0x0D { cursor += 1 }
            guard cursor - i >= 3 else { return nil }
            out += [b[i], b[i + 1]]
            return cursor
        }
        return text.withUnsafeBufferPointer { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[stripped(bytes)]), as: UTF8.self)
        }
    }

    /// One left-to-right, non-overlapping substitution pass, as `re.sub` makes, over UTF-8 `text`: at each
    /// `trigger` byte (or `other`), `match` appends its replacement to the output and returns where its
    /// match ends, or returns nil (the byte is kept). The stretches between triggers are copied whole.
    private static func replacing(_ text: [UInt8], at trigger: UInt8, or other: UInt8? = nil,
                                  _ match: (UnsafeBufferPointer<UInt8>, Int, inout [UInt8]) -> Int?) -> [UInt8] {
        text.withUnsafeBufferPointer { bytes in
            guard var next = bytes.firstIndex(where: { $0 == trigger || $0 == other }) else { return text }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if index < next {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<next]))
                    index = next
                    continue
                }
                if let end = match(bytes, index, &out) {
                    index = end
                } else {
                    out.append(bytes[index])
                    index += 1
                }
                next = bytes[index...].firstIndex { $0 == trigger || $0 == other } ?? bytes.count
            }
            return out
        }
    }

    /// Whether `bytes` has `prefix` (ASCII) at `index`, ASCII letters in any case.
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { expected in
            guard bytes.count - index >= expected.count else { return false }
            for offset in 0..<expected.count where lowercased(bytes[index + offset]) != expected[offset] { return false }
            return true
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// For `<name[^>]*>` (any case) at `index`: the index after the `>`, or nil.
    private static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ name: StaticString) -> Int? {
        guard bytes[index] == UInt8(ascii: "<"), hasPrefix(bytes, index + 1, name) else { return nil }
        return bytes[(index + 1 + name.utf8CodeUnitCount)...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 }
    }

    /// The bytes of the UTF-8 character that starts with `lead`.
    private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
