import EarshotCore
/// The converter behind `FeedValues.plainText(fromHTML:)`: one pass over the bytes.
struct HTMLToText {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var writer = PlainTextWriter()
    /// Whether the input contains markup; if not, its own newlines are line breaks.
    let isMarkup: Bool
    // Once a search for these fails it would fail again further on: remembering keeps the pass linear.
    var noMoreTagEnd = false
    var noMoreDoubleQuote = false
    var noMoreSingleQuote = false
    /// `<![CDATA[` openers seen whose `]]>` is still to come (and to be dropped).
    var openCDATA = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        writer.out.reserveCapacity(bytes.count)
        isMarkup = Self.containsMarkup(bytes)
    }

    static func containsMarkup(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        // Each `<` found by memchr: plain text (most summaries) has none.
        while let less = bytes.nextIndex(of: UInt8(ascii: "<"), from: index), less + 1 < bytes.count {
            index = less
            let next = bytes[index + 1]
            if isASCIILetter(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") { return true }
            index += 1
        }
        return false
    }

    mutating func run() {
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"):
                if isMarkup, !noMoreTagEnd, markup() { continue }
                appendLiteral(byte)
            case UInt8(ascii: "&"):
                entity()
            case UInt8(ascii: "]") where openCDATA > 0 && matches("]]>", at: index):
                openCDATA -= 1
                index += 3
            case 0x20, 0x09, 0x0C:
                // Spaces after it add nothing (the writer holds one back): indentation a word at a time.
                writer.space()
                index = ByteWord.pastSpaceWords(bytes, from: index + 1)
            case 0x0A, 0x0D:
                if isMarkup {
                    writer.space()
                } else if byte == 0x0A || index + 1 >= count || bytes[index + 1] != 0x0A {
                    writer.lineBreak()
                }
                index = ByteWord.pastSpaceWords(bytes, from: index + 1)
            default:
                // A run of ordinary bytes (UTF-8 continuation bytes included) is copied in one go, single
                // spaces between words too: they are already what the collapsing would produce.
                let start = index
                index = Self.endOfRun(bytes, from: start + 1)
                writer.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            }
        }
    }

    /// Where a run of ordinary bytes starting before `start` ends: single spaces between words belong to it.
    static func endOfRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteWord.endOfRun(bytes, from: start, stops: { word in
            // Whitespace (space, and 0x09–0x0D but 0x0B), `<`, `&`, `]`.
            ByteWord.equal(word, 0x20) | ByteWord.below(word, 0x0E) & ~ByteWord.below(word, 0x09)
                & ~ByteWord.equal(word, 0x0B) | ByteWord.equal(word, UInt8(ascii: "<"))
                | ByteWord.equal(word, UInt8(ascii: "&")) | ByteWord.equal(word, UInt8(ascii: "]"))
        }, isOrdinary: isOrdinary)
    }

    /// Anything but markup, entities and whitespace.
    @inline(__always)
    static func isOrdinary(_ byte: UInt8) -> Bool {
        byte != UInt8(ascii: "<") && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "]") && !isASCIIWhitespace(byte)
    }

    mutating func appendLiteral(_ byte: UInt8) {
        var copy = byte
        withUnsafePointer(to: &copy) { writer.append(UnsafeBufferPointer(start: $0, count: 1)) }
        index += 1
    }

    // MARK: Tags

    /// Handles the markup at `index` (a `<`). Returns false when it is not markup after all, so the `<`
    /// is text ("a < b").
    mutating func markup() -> Bool {
        let count = bytes.count
        guard index + 1 < count else { return false }
        let next = bytes[index + 1]
        if next == UInt8(ascii: "!") {
            if matches("<!--", at: index) {
                index = position(after: "-->", from: index + 4) ?? count
            } else if matches("<![CDATA[", at: index) {
                // What a feed double-wrapped: its content is read in this same pass (never recursively,
                // so nesting costs no stack), and its "]]>" dropped.
                openCDATA += 1
                index += 9
            } else {
                guard let close = tagEnd(from: index + 2) else { return false }
                index = close + 1
            }
            return true
        }
        if next == UInt8(ascii: "?") {
            guard let close = tagEnd(from: index + 2) else { return false }
            index = close + 1
            return true
        }
        let closing = next == UInt8(ascii: "/")
        let nameStart = index + (closing ? 2 : 1)
        guard nameStart < count, isASCIILetter(bytes[nameStart]) else { return false }
        var nameEnd = nameStart
        var packed: UInt64 = 0
        while nameEnd < count {
            let byte = bytes[nameEnd]
            guard isASCIILetter(byte) || isASCIIDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") else { break }
            if nameEnd - nameStart < 8 { packed |= UInt64(byte | 0x20) << (8 * UInt64(nameEnd - nameStart)) }
            nameEnd += 1
        }
        guard let close = tagEnd(from: nameEnd) else { return false }
        index = close + 1
        apply(HTMLTag(length: nameEnd - nameStart, packed: packed), closing: closing)
        return true
    }

    mutating func apply(_ tag: HTMLTag, closing: Bool) {
        switch tag {
        case .lineBreak: writer.lineBreak()
        case .paragraph: writer.breaks(atLeast: 2)
        case .block: writer.breaks(atLeast: 1)
        case .cell: writer.space()
        case .listItem:
            writer.breaks(atLeast: 1)
            if !closing { writer.append(scalar: 0x2022); writer.space() }
        case .hidden(let name):
            if !closing { skipHiddenContent(name) }
        case .inline: break
        }
    }

    /// Skips everything up to and including the closing tag `</name…>` (case-insensitive).
    mutating func skipHiddenContent(_ name: StaticString) {
        let count = bytes.count
        var cursor = index
        while let open = position(of: "</", from: cursor) {
            if matches(name, at: open + 2, ignoringCase: true) {
                index = tagEnd(from: open + 2).map { $0 + 1 } ?? count
                return
            }
            cursor = open + 2
        }
        index = count
    }

    /// The `>` closing a tag whose name or attributes start at `from`, skipping quoted attribute values.
    mutating func tagEnd(from start: Int) -> Int? {
        let count = bytes.count
        var cursor = start
        while cursor < count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ">") { return cursor }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                let isDouble = byte == UInt8(ascii: "\"")
                if !(isDouble ? noMoreDoubleQuote : noMoreSingleQuote) {
                    if let close = bytes.nextIndex(of: byte, from: cursor + 1) {
                        cursor = close + 1
                        continue
                    }
                    if isDouble { noMoreDoubleQuote = true } else { noMoreSingleQuote = true }
                }
            }
            cursor += 1
        }
        noMoreTagEnd = true
        return nil
    }

    // MARK: Entities

    /// Decodes the entity at `index` (a `&`), or keeps the `&` as text when it is not one.
    mutating func entity() {
        // The same reading of references as the sanitizer's (HTMLEntities), so plain text and
        // rich notes never disagree about what a feed's "&…;" means.
        guard let (value, end) = HTMLEntities.decode(bytes, at: index, inAttribute: false) else {
            appendLiteral(UInt8(ascii: "&"))
            return
        }
        index = end
        writer.append(scalar: value)
    }

    // MARK: Byte searches

    func matches(_ literal: StaticString, at position: Int, ignoringCase: Bool = false) -> Bool {
        literal.withUTF8Buffer { pattern in
            guard position + pattern.count <= bytes.count else { return false }
            for offset in 0..<pattern.count {
                let byte = bytes[position + offset]
                if byte != pattern[offset], !(ignoringCase && byte | 0x20 == pattern[offset]) { return false }
            }
            return true
        }
    }

    func position(of literal: StaticString, from start: Int) -> Int? {
        literal.withUTF8Buffer { pattern in
            let first = pattern[0]
            var cursor = start
            while cursor + pattern.count <= bytes.count {
                if bytes[cursor] == first, matches(literal, at: cursor) { return cursor }
                cursor += 1
            }
            return nil
        }
    }

    func position(after literal: StaticString, from start: Int) -> Int? {
        position(of: literal, from: start).map { $0 + literal.utf8CodeUnitCount }
    }
}
