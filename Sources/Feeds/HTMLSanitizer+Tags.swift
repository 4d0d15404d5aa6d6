import EarshotCore

extension HTMLSanitizer {
    /// A tag's name as the table matches it: length and lowercased bytes 0–7 and 8–15.
    struct TagName {
        var start = 0
        var length = 0
        var packed: UInt64 = 0
        var tail: UInt64 = 0

        var tag: NoteTag { NoteTag(length: length, packed: packed, tail: tail) }
    }

    /// Handles the `<` at `index`: a tag, a comment, a declaration or processing instruction (skipped),
    /// or a `<` that is just text.
    mutating func markup() {
        let count = bytes.count
        guard index + 1 < count else { literalLessThan(); return }
        let next = bytes[index + 1]
        if next == UInt8(ascii: "!") {
            if Self.matches(bytes, "<!--", at: index) {
                skipComment()
            } else if Self.matches(bytes, "<![CDATA[", at: index) {
                // Inside HTML, CDATA only wraps what a feed double-escaped: read what it holds as markup.
                openCDATA += 1
                index += 9
            } else {
                skipPast(UInt8(ascii: ">"), from: index + 2)
            }
        } else if next == UInt8(ascii: "?") {
            skipPast(UInt8(ascii: ">"), from: index + 2)
        } else if next == UInt8(ascii: "/") {
            if index + 2 < count, isASCIILetter(bytes[index + 2]) {
                endTag()
            } else {
                skipPast(UInt8(ascii: ">"), from: index + 2)  // `</>` and `</3…>` are dropped, as browsers do
            }
        } else if isASCIILetter(next) {
            startTag()
        } else {
            literalLessThan()
        }
    }

    private mutating func literalLessThan() {
        beforeContent()
        out.text(byte: UInt8(ascii: "<"))
        index += 1
    }

    /// `<!-- … -->` (also ended by `--!>`; `<!-->` and `<!--->` are empty). Unterminated: to the end.
    private mutating func skipComment() {
        var cursor = index + 4
        let count = bytes.count
        if cursor < count, bytes[cursor] == UInt8(ascii: ">") { index = cursor + 1; return }
        if Self.matches(bytes, "->", at: cursor) { index = cursor + 2; return }
        // From one `-` to the next (memchr): comments are mostly text without any.
        while let dash = bytes.nextIndex(of: UInt8(ascii: "-"), from: cursor), dash + 2 < count {
            cursor = dash
            if bytes[cursor + 1] == UInt8(ascii: "-") {
                if bytes[cursor + 2] == UInt8(ascii: ">") { index = cursor + 3; return }
                if Self.matches(bytes, "!>", at: cursor + 2) { index = cursor + 4; return }
            }
            cursor += 1
        }
        index = count
    }

    /// Moves past the next `byte`, or to the end when there is none.
    mutating func skipPast(_ byte: UInt8, from start: Int) {
        index = bytes.nextIndex(of: byte, from: start).map { $0 + 1 } ?? bytes.count
    }

    /// Reads a tag name starting at `start` of `bytes` (up to whitespace, `/` or `>`). Static, as are the
    /// sanitizer's other helpers that only read: a method called from a mutating one was handed a copy
    /// of the whole sanitizer (145 bytes, a memcpy a tag).
    static func tagName(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> TagName {
        // Nearly every name ends within the eight bytes from its start: read as one word.
        if start + 8 <= bytes.count {
            let word = ByteWord.load(bytes, at: start)
            let stops = ByteWord.below(word, 0x21) | ByteWord.equal(word, UInt8(ascii: "/"))
                | ByteWord.equal(word, UInt8(ascii: ">"))
            let length = stops.trailingZeroBitCount >> 3
            // A control character other than whitespace is part of a name: the byte loop reads those.
            if length < 8, Self.isSpace(bytes[start + length]) || bytes[start + length] >= 0x21 {
                let upper = ByteWord.below(word, 0x5B) & ~ByteWord.below(word, 0x41)
                let kept: UInt64 = length == 0 ? 0 : ~0 >> (64 - 8 * UInt64(length))
                return TagName(start: start, length: length, packed: (word | upper >> 2) & kept, tail: 0)
            }
        }
        return tagNameByteByByte(bytes, at: start)
    }

    /// `tagName(at:)` a byte at a time: names of eight bytes and more, those with a control character,
    /// and those the input ends within a word of.
    static func tagNameByteByByte(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> TagName {
        var name = TagName(start: start)
        var cursor = start
        while cursor < bytes.count {
            var byte = bytes[cursor]
            if Self.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { break }
            if byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
            let offset = cursor - start
            if offset < 8 {
                name.packed |= UInt64(byte) << (8 * UInt64(offset))
            } else if offset < 16 {
                name.tail |= UInt64(byte) << (8 * UInt64(offset - 8))
            }
            cursor += 1
        }
        name.length = cursor - start
        return name
    }

    private mutating func startTag() {
        let name = Self.tagName(bytes, at: index + 1)
        let tag = name.tag
        let wanted: AttributeScan.Wanted
        switch tag {
        case .kept(.a): wanted = .link
        case .kept(.img): wanted = .image
        default: wanted = .none
        }
        var scan = AttributeScan(wanted: wanted)
        // A tag the input ends inside is dropped, with the rest (as browsers do).
        guard let end = scan.run(bytes, from: name.start + name.length) else {
            index = bytes.count
            return
        }
        index = end + 1
        switch tag {
        case .kept(let element): open(element, attributes: &scan)
        case .dropped(let rawText): if !(scan.selfClosing && !rawText) { skipContent(of: name, rawText: rawText) }
        case .lineBlock: requestBreak()
        case .cell: pendingSpace = true
        case .inline: break
        }
    }

    private mutating func endTag() {
        let name = Self.tagName(bytes, at: index + 2)
        var scan = AttributeScan(wanted: .none)
        guard let end = scan.run(bytes, from: name.start + name.length) else {
            index = bytes.count
            return
        }
        index = end + 1
        switch name.tag {
        case .kept(.br), .kept(.img):
            break  // `</br>` is what XHTML rebuilt as `<br></br>` leaves behind: one break is enough
        case .kept(let element):
            guard let depth = openDepth(of: element) else {
                if element.isBlock { requestBreak() }
                return
            }
            close(downTo: depth)
            if element.isBlock { startLine() }
        case .lineBlock: requestBreak()
        case .cell: pendingSpace = true
        case .dropped, .inline: break
        }
    }

    /// Opens a kept element, with the implied closings browsers apply (a new paragraph or list ends an
    /// open paragraph, a list item an open item of the same list, a link an open link, a heading a
    /// heading). `scan` is only read: `inout` hands over where it lies, where a value was copied for
    /// the call (80 bytes a tag, whose wide loads waited on the narrow stores `run` had just made).
    private mutating func open(_ element: NoteElement, attributes scan: inout AttributeScan) {
        switch element {
        case .br:
            // A break before any content breaks nothing.
            if currentHasContent { appendBreak() }
            pendingBreak = false
            startLine()
        case .img:
            guard let source = scan.source, keepURL(source, allowMailto: false, plain: scan.addressIsPlain) else { return }
            let hasAlternative = scan.alternative.map { keepAlternative($0) } ?? false
            beforeContent()
            appendImage(withAlternative: hasAlternative)
        case .a:
            if let depth = openDepth(of: .a) { close(downTo: depth) }
            guard stack.count < Self.maxDepth, let reference = scan.reference,
                  keepURL(reference, allowMailto: true, plain: scan.addressIsPlain) else { return }
            resolvePending()
            push(.a)
        case .strong, .em, .b, .i:
            guard stack.count < Self.maxDepth else { return }
            resolvePending()
            push(element)
        default:  // blocks
            if element == .li {
                if let depth = openDepth(of: .li, stopAtLists: true) { close(downTo: depth) }
            } else if let depth = openDepth(of: .p) {
                close(downTo: depth)
            }
            if element.isHeading, stack[stack.count - 1].element.isHeading { popTop() }
            startLine()
            guard stack.count < Self.maxDepth else { return }
            push(element)
        }
    }

    /// A block boundary: no pending space or break survives it.
    private mutating func startLine() {
        pendingSpace = false
        pendingBreak = false
        atLineStart = true
    }

    /// An unwrapped block ended or began: the next content goes on a new line.
    private mutating func requestBreak() {
        pendingSpace = false
        if currentHasContent, !atLineStart { pendingBreak = true }
    }

    /// Skips a dropped element's content and its end tag. Raw-text elements end at the first `</name`;
    /// the others count nested elements of the same name. Without an end tag, everything after is dropped.
    private mutating func skipContent(of name: TagName, rawText: Bool) {
        let count = bytes.count
        var depth = 1
        var cursor = index
        while let open = bytes.nextIndex(of: UInt8(ascii: "<"), from: cursor) {
            let closing = open + 1 < count && bytes[open + 1] == UInt8(ascii: "/")
            let nameStart = open + (closing ? 2 : 1)
            cursor = open + 1
            guard closing || !rawText, Self.sameName(name, in: bytes, at: nameStart) else { continue }
            if !closing {
                // A nested `<svg/>` opens nothing; a tag never closed hides the rest.
                var scan = AttributeScan(wanted: .none)
                guard let end = scan.run(bytes, from: nameStart + name.length) else { break }
                cursor = end + 1
                if scan.selfClosing { continue }
            }
            depth += closing ? -1 : 1
            if depth == 0 {
                skipPast(UInt8(ascii: ">"), from: nameStart + name.length)
                return
            }
        }
        index = count
    }

    /// Whether the bytes at `start` spell the same tag name (any case), followed by a delimiter.
    private static func sameName(_ name: TagName, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let end = start + name.length
        guard end <= bytes.count else { return false }
        for offset in 0..<name.length {
            var byte = bytes[start + offset]
            if byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
            var expected = bytes[name.start + offset]
            if expected >= 0x41, expected <= 0x5A { expected |= 0x20 }
            if byte != expected { return false }
        }
        guard end < bytes.count else { return true }
        let after = bytes[end]
        return Self.isSpace(after) || after == UInt8(ascii: "/") || after == UInt8(ascii: ">")
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
