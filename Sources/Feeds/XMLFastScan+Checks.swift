import EarshotCore
#if canImport(Glibc)
import Glibc
#endif

/// The checks `XMLFastScan` makes on bytes before it reads them: UTF-8 of XML characters, and references
/// it can read (an undeclared entity makes a document libxml2's).
extension XMLFastScan {
    /// Whether the `&` at `index` begins a character reference or one of the five predefined entities
    /// (checked again, in full, where it is read: here only what rules the document out early).
    static func isPredefinedReference(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + 1 < bytes.count else { return false }
        /// Whether `name` follows the `&`.
        func follows(_ name: StaticString) -> Bool {
            index + 1 + name.utf8CodeUnitCount <= bytes.count
                && memcmp(bytes.baseAddress! + index + 1, name.utf8Start, name.utf8CodeUnitCount) == 0
        }
        switch bytes[index + 1] {
        case UInt8(ascii: "#"): return true
        case UInt8(ascii: "a"): return follows("amp;") || follows("apos;")
        case UInt8(ascii: "l"): return follows("lt;")
        case UInt8(ascii: "g"): return follows("gt;")
        case UInt8(ascii: "q"): return follows("quot;")
        default: return false
        }
    }

    /// Where the CDATA section or comment whose `<!` has its `!` at `bang` ends (at its `]]>` or `-->`; the
    /// document's end when it has none), or nil when the `<!` begins neither.
    static func literalEnd(_ document: UnsafeRawBufferPointer, bang: Int) -> Int? {
        let rest = UnsafeRawBufferPointer(rebasing: document[(bang + 1)...])
        if rest.starts(with: "[CDATA[".utf8) {
            return CDATASection.find(CDATASection.closing, in: rest, from: 7).map { bang + 1 + $0 } ?? document.count
        }
        if rest.starts(with: "--".utf8) {
            return CDATASection.find(commentClosing, in: rest, from: 2).map { bang + 1 + $0 } ?? document.count
        }
        return nil
    }

    static let commentClosing: [UInt8] = Array("-->".utf8)

    /// Whether every `&` outside CDATA sections and comments begins a character reference or one of the
    /// five predefined entities. A feed with an undeclared one (`&nbsp;` without a document type) is
    /// libxml2's, and is better known so before a scan of everything before it: one `memchr` per `&`
    /// and one search per section, before the scan.
    static func referencesAreReadable(_ document: UnsafeRawBufferPointer) -> Bool {
        referencesReadable(document, from: 0, to: document.count) != nil
    }

    /// `referencesAreReadable(document)` from its two halves, checked apart (on two threads): `earlier`,
    /// what `referencesReadable` said of `..<half`; `later`, whether `half...` was readable, read from
    /// `half` on. That is the answer when no CDATA section or comment was open at `half`; when one was,
    /// the later half read it as text (its answer is then not to be trusted either way), and what
    /// follows the section is checked here.
    static func referencesAreReadable(_ document: UnsafeRawBufferPointer, halvesAt half: Int, earlier: Int?, later: Bool) -> Bool {
        guard let resume = earlier else { return false }
        if resume == half { return later }
        return referencesReadable(document, from: resume, to: document.count) != nil
    }

    /// `referencesAreReadable` for the `&`s of `document[from..<to]`, read as if no CDATA section or
    /// comment were open at `from` (one that is, is read as text: more is checked than need be, and a
    /// `<!` inside it may be taken for the start of one). Nil when one is not readable; else where a
    /// check of what follows would start as this one would go on: `to`, or, when a section that began
    /// before `to` goes on past it, that section's end.
    static func referencesReadable(_ document: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard let base = document.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return to }
        let bytes = UnsafeBufferPointer(start: base, count: document.count)
        let count = document.count
        /// Where the next CDATA section or comment starts, and where it ends (`count`: none, or unended).
        func literal(from: Int) -> (start: Int, end: Int) {
            var at = from + 1
            // `!` is rare in markup, `<` is everywhere: look for the one, then before it for the other.
            while let bang = bytes.nextIndex(of: UInt8(ascii: "!"), from: at) {
                guard base[bang - 1] == UInt8(ascii: "<") else {
                    at = bang + 1
                    continue
                }
                if let end = literalEnd(document, bang: bang) { return (bang - 1, end) }
                at = bang + 1
            }
            return (count, count)
        }
        var next = literal(from: from)
        var at = from
        while let ampersand = bytes.nextIndex(of: UInt8(ascii: "&"), from: at), ampersand < to {
            // Past the sections that end before it (an `&` is looked for once, however many sections
            // lie between it and the last).
            while ampersand > next.start, ampersand >= next.end { next = literal(from: next.end) }
            if ampersand > next.start {
                at = next.end  // in the section: text, not a reference
                next = literal(from: next.end)
                continue
            }
            guard isPredefinedReference(bytes, at: ampersand) else { return nil }
            at = ampersand + 1
        }
        if at > to { return at }  // the last `&` before `to` was in a section that goes on past it
        while next.start < to, next.end <= to { next = literal(from: next.end) }
        return next.start < to ? next.end : to
    }

    /// 0x80 in each byte of `word` below 0x20 but tab, line feed and carriage return: the control
    /// characters XML does not allow.
    @inline(__always)
    static func controls(_ word: UInt64) -> UInt64 {
        ByteWord.below(word, 0x20) & ~(ByteWord.equal(word, 0x0A) | ByteWord.equal(word, 0x09) | ByteWord.equal(word, 0x0D))
    }

    /// The lanes of `block` that are not ASCII characters XML allows: from 0x80 up, or below 0x20 but
    /// tab, line feed and carriage return. As signed bytes, both are below 0x20: one comparison, then the
    /// three allowed ones taken back.
    @inline(__always)
    static func notASCIIText(_ block: ByteBlock.Lanes) -> ByteBlock.Mask {
        (block .< ByteBlock.Lanes(repeating: 0x20))
            .& .!(ByteBlock.equal(block, 0x0A) .| ByteBlock.equal(block, 0x09) .| ByteBlock.equal(block, 0x0D))
    }

    /// Whether the sixty-four bytes at `position` of `bytes` are all ASCII characters XML allows.
    @inline(__always)
    static func isASCIIText(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        let any = notASCIIText(ByteBlock.load(bytes, at: position)) .| notASCIIText(ByteBlock.load(bytes, at: position + 16))
            .| notASCIIText(ByteBlock.load(bytes, at: position + 32)) .| notASCIIText(ByteBlock.load(bytes, at: position + 48))
        return ByteBlock.Marks(any).isEmpty
    }

    /// Checks `document[from..<to]`: every byte a character XML 1.0 allows, in valid UTF-8 (no control
    /// character but tab, line feed and carriage return, no surrogate, no U+FFFE or U+FFFF). Returns where
    /// it stopped (at `to`, or past it: by ASCII checked a step at a time, or by the rest of a sequence
    /// that began before it); nil when a byte fails. Sixty-four, sixteen or eight ASCII bytes at a time. (References
    /// were checked before the scan began: `referencesAreReadable`.)
    static func checkText(_ document: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        let bytes = document.bindMemory(to: UInt8.self)
        let count = bytes.count
        var index = from
        let space = SIMD16<Int8>(repeating: 0x20)
        while index < to {
            // Sixty-four bytes a step where they are ASCII that XML allows (nine steps in ten of freakshow's
            // notes, whose lines end every hundred bytes): one branch where there were four, each taken
            // or not as the text went.
            if index + 64 <= count, Self.isASCIIText(bytes, at: index) {
                index += 64
                continue
            }
            if index + 16 <= count {
                // Sixteen bytes a step where the text is printable ASCII: as signed bytes, that is what
                // is at least 0x20 (a byte from 0x80 up is negative), one comparison for the sixteen.
                // Or still ASCII, with a control byte (a line break of the notes or of an indented feed, most
                // often): it passes when each is a tab, line feed or carriage return.
                let block = ByteBlock.load(bytes, at: index)
                let marks = ByteBlock.Marks(block .< space)
                if marks.isEmpty || ByteBlock.Marks(Self.notASCIIText(block)).isEmpty {
                    index += 16
                    continue
                }
                // Straight to the first byte that is not printable ASCII (text with a letter from 0x80 up
                // every few dozen bytes went there a byte a step, each step a look at sixteen).
                index += marks.first
            } else if index + 8 <= count {
                // ASCII of characters XML allows: nothing at or above 0x80, nothing below 0x20 but tab,
                // line feed and carriage return (a line of an indented feed is then one step or two).
                let word = ByteWord.load(bytes, at: index)
                if word & ByteWord.highs | Self.controls(word) == 0 {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte >= 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return nil }
                index += 1
                continue
            }
            // A multi-byte sequence, checked as Unicode's table of well-formed UTF-8 says.
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, lower) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, upper) = (3, 0x9F)  // no surrogates
            case 0xF0: (length, lower) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, upper) = (4, 0x8F)
            default: return nil
            }
            guard index + length <= count else { return nil }
            guard bytes[index + 1] >= lower, bytes[index + 1] <= upper else { return nil }
            for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
            // U+FFFE and U+FFFF: EF BF BE, EF BF BF.
            if byte == 0xEF, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE { return nil }
            index += length
        }
        return index
    }
}
