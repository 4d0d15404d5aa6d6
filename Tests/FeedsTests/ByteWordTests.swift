import EarshotCore
import Testing
import TestSupport
@testable import Feeds

/// The eight-bytes-at-a-time masks against their byte-by-byte definitions, and the text scanners that use
/// them against a byte-by-byte scan, on inputs made of the bytes that matter (spaces, markup, controls,
/// UTF-8) so that every mix of them lands in every position of a word.
struct ByteWordTests {
    @Test func masksMatchTheirDefinitionsForEveryByteInEveryPosition() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let word = bytes.withUnsafeBufferPointer { ByteWord.load($0, at: 0) }
            for probe: UInt8 in [0x00, 0x20, 0x26, 0x3C, 0x5D, 0x7F, 0x80, 0xFF, bytes[0], bytes[7]] {
                #expect(ByteWord.equal(word, probe) == Self.mask(bytes) { $0 == probe })
            }
            for limit: UInt8 in [1, 0x09, 0x0E, 0x21, 0x80] {
                #expect(ByteWord.below(word, limit) == Self.mask(bytes) { $0 < limit })
            }
        }
    }

    /// Sixteen bytes a step: each test marks exactly the lanes its byte-by-byte definition holds for, and
    /// the first mark is the first such byte (16 when there is none), whatever bytes the lanes hold.
    @Test func blockTestsMatchTheirDefinitionsInEveryLane() {
        var generator = SplitMix64(seed: 16)
        var none = 0
        for round in 0..<4_000 {
            // Half the rounds from a few bytes that matter, so that blocks without a mark come up too.
            let few: [UInt8] = [0x61, 0x61, 0x61, 0x20, 0x22, 0x7F, 0x80, 0xFF]
            let bytes = (0..<16).map { _ -> UInt8 in
                let pick = generator.next()
                return round % 2 == 0 ? UInt8(truncatingIfNeeded: pick) : few[Int(pick % (pick % 16 == 0 ? 8 : 3))]
            }
            let block = bytes.withUnsafeBufferPointer { ByteBlock.load($0, at: 0) }
            /// The first byte of `bytes` that `test` holds for, or 16; checked against the marks.
            func expectMarks(_ marks: ByteBlock.Marks, _ test: (UInt8) -> Bool, _ label: String) {
                let expected = bytes.firstIndex(where: test) ?? 16
                #expect(marks.first == expected, "\(label) \(bytes)")
                #expect(marks.isEmpty == (expected == 16), "\(label) \(bytes)")
                for lane in 0..<16 {
                    let word = lane < 8 ? marks.low : marks.high
                    #expect((word >> (8 * UInt64(lane % 8)) & 0xFF == 0xFF) == test(bytes[lane]), "\(label) lane \(lane) \(bytes)")
                }
            }
            for probe: UInt8 in [0x00, 0x20, 0x22, 0x7F, 0x80, 0xFF, bytes[0], bytes[15]] {
                expectMarks(ByteBlock.Marks(ByteBlock.equal(block, probe)), { $0 == probe }, "equal \(probe)")
            }
            for limit: UInt8 in [1, 0x20, 0x21, 0x80] {
                expectMarks(ByteBlock.Marks(ByteBlock.below(block, limit)), { $0 < limit }, "below \(limit)")
            }
            expectMarks(ByteBlock.Marks(ByteBlock.escapable(block)), { $0 == 0x22 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }, "escapable")
            if ByteBlock.Marks(ByteBlock.below(block, 0x21)).isEmpty { none += 1 }
        }
        #expect(none > 300, "blocks without a mark: \(none)")
    }

    /// The sanitizer's look at a URL takes sixteen bytes a step: it must find exactly the addresses with a
    /// control character or `&` anywhere (not clean), and among the others those with `"`, `<` or `>`
    /// (not plain: escaped when written), wherever the byte falls; an attribute name ends where
    /// browsers end it.
    @Test func urlCleanCheckAndAttributeNameEndsMatchTheirDefinitions() {
        let bytes: [UInt8] = Array("http://e.org/a?b=c#d".utf8) + [0x00, 0x09, 0x1F, 0x7F, 0x26, 0xC3, 0xA9, 0x20, 0x22, 0x3C, 0x3E]
        var generator = SplitMix64(seed: 26)
        var refused = 0, escaped = 0
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 40)
            let url = (0..<length).map { _ -> UInt8 in
                let pick = generator.next()
                return pick % 100 < 97 ? bytes[Int(pick / 100 % 20)] : bytes[Int(pick / 100 % UInt64(bytes.count))]
            }
            let start = length == 0 ? 0 : Int(generator.next() % UInt64(length))
            let (clean, plain, _) = url.withUnsafeBufferPointer { HTMLSanitizer.look($0, start..<length) }
            let expectedClean = !url[start...].contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "&") }
            #expect(clean == expectedClean)
            #expect(plain == (expectedClean && !url[start...].contains { $0 == 0x22 || $0 == 0x3C || $0 == 0x3E }))
            // As in notes, where the value is followed by its quote and the rest of the tag: what follows the
            // range (here bytes that would refuse or escape an address) is not looked at.
            let followed = url + [0x22, 0x00, 0x26, 0x3C] + (0..<Int(generator.next() % 24)).map { _ in bytes[Int(generator.next() % UInt64(bytes.count))] }
            let inNotes = followed.withUnsafeBufferPointer { HTMLSanitizer.look($0, start..<length) }
            #expect(inNotes.clean == clean && inNotes.plain == plain, "\(url) followed by \(followed[length...])")
            if !clean { refused += 1 } else if !plain { escaped += 1 }
        }
        #expect(refused > 500 && refused < 19_500 && escaped > 200, "every outcome is exercised: \(refused) of 20,000 refused, \(escaped) escaped")
        for byte in 0...255 {
            let value = UInt8(byte)
            #expect(AttributeScan.endsName(value) == (HTMLSanitizer.isSpace(value) || value == UInt8(ascii: "/")
                || value == UInt8(ascii: ">") || value == UInt8(ascii: "=")), "byte \(byte)")
        }
    }

    /// An address attribute's closing quote is found sixteen bytes a step with its look
    /// (`AttributeScan.closingQuote`): it must be the first such quote from the start, and the value
    /// must be said plain exactly when `look` says it is clean and plain, wherever the quote and the
    /// bytes that matter fall in a block (or in the bytes after the last whole block), for both quotes.
    @Test func anAddressesClosingQuoteAndLookAreTheirDefinitions() {
        let bytes: [UInt8] = Array("https://e.org/a?b=c".utf8) + [0x22, 0x27, 0x00, 0x09, 0x7F, 0x26, 0x3C, 0x3E, 0xC3, 0xA9, 0x20]
        var generator = SplitMix64(seed: 27)
        var plain = 0, looked = 0, none = 0
        for round in 0..<30_000 {
            let quote: UInt8 = round % 2 == 0 ? 0x22 : 0x27
            let length = Int(generator.next() % 70)
            let notes = (0..<length).map { _ -> UInt8 in
                let pick = generator.next()
                switch pick % 100 {
                case 0..<4: return quote  // values of every length, ending in every lane
                case 4..<8: return bytes[19 + Int(pick / 100 % UInt64(bytes.count - 19))]
                default: return bytes[Int(pick / 100 % 19)]
                }
            }
            let start = length == 0 ? 0 : Int(generator.next() % UInt64(length))
            let expected = notes[start...].firstIndex(of: quote)
            let found = notes.withUnsafeBufferPointer { AttributeScan.closingQuote(quote, in: $0, from: start) }
            #expect(found?.0 == expected, "\(notes) from \(start)")
            guard let found, let close = expected else { none += 1; continue }
            let look = notes.withUnsafeBufferPointer { HTMLSanitizer.look($0, start..<close) }
            #expect(found.plain == (look.clean && look.plain), "\(notes[start..<close]) said plain: \(found.plain)")
            if found.plain { plain += 1 } else { looked += 1 }
        }
        #expect(plain > 2_000 && looked > 2_000 && none > 500, "every outcome: \(plain) plain, \(looked) looked at, \(none) unclosed")
    }

    /// An address is written as it is (plain, or escaped as written because its only references are
    /// `&amp;`) exactly when it has no control character, no `"`, `<` or `>`, and every `&` starts
    /// `&amp;`, wherever those fall in a word.
    @Test func anAddressEscapedAsWrittenMatchesItsDefinition() {
        let pieces: [[UInt8]] = ["https://e.org/a", "?b=1", "&amp;", "&", "&amp", "&lt;", "\"", "<", ">", "x", "\u{E9}"].map { Array($0.utf8) }
            + [[0x09], [0x7F], [0x00]]
        var generator = SplitMix64(seed: 5)
        var kept = 0
        for _ in 0..<20_000 {
            let url = (0..<Int(generator.next() % 10)).flatMap { _ -> [UInt8] in
                let pick = generator.next()
                return pick % 3 == 0 ? pieces[Int(pick / 3 % UInt64(pieces.count))] : pieces[Int(pick / 3 % 5)]
            }
            var expected = true, index = 0
            while index < url.count {
                let byte = url[index]
                if byte == UInt8(ascii: "&") {
                    guard url[index...].starts(with: "&amp;".utf8) else { expected = false; break }
                    index += 5
                    continue
                }
                if byte < 0x20 || byte == 0x7F || byte == 0x22 || byte == 0x3C || byte == 0x3E { expected = false; break }
                index += 1
            }
            let look = url.withUnsafeBufferPointer { HTMLSanitizer.look($0, 0..<url.count) }
            let actual = look.clean ? look.plain : look.escapedAsWritten
            #expect(actual == expected, "\(url)")
            #expect(!(look.clean && look.escapedAsWritten), "escaped as written is said only of an address that is not clean")
            if actual { kept += 1 }
        }
        #expect(kept > 2_000 && kept < 18_000, "both outcomes are exercised: \(kept) of 20,000 kept")
    }

    /// An image's `alt` is read where it stands when it shows as written: eight bytes a step, it must say
    /// so exactly when no byte is below 0x20, 0x7F or `&`, no two spaces are in a row (across words too)
    /// and neither end is a space.
    @Test func altShownAsWrittenMatchesItsDefinition() {
        let alphabet: [UInt8] = [0x20, 0x20, 0x20, 0x61, 0x62, 0x26, 0x09, 0x7F, 0xC3, 0xA9, 0x3C]
        var generator = SplitMix64(seed: 12)
        var shown = 0
        for _ in 0..<30_000 {
            let text = (0..<Int(generator.next() % 40)).map { _ -> UInt8 in
                let pick = generator.next()
                return pick % 16 == 0 ? alphabet[Int(pick / 16 % UInt64(alphabet.count))] : (pick % 4 == 0 ? 0x20 : 0x61)
            }
            let expected = text.first != 0x20 && text.last != 0x20
                && !text.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "&") }
                && !zip(text, text.dropFirst()).contains { $0 == 0x20 && $1 == 0x20 }
            let actual = text.withUnsafeBufferPointer { HTMLSanitizer.isShownAsWritten($0, 0..<text.count) }
            #expect(actual == expected, "\(text)")
            if actual, text.count >= 16 { shown += 1 }
        }
        #expect(shown > 1_000, "texts of two words and more shown as written: \(shown)")
    }

    /// The sanitizer reads a tag's name as one word when it ends within one: the same name (length,
    /// lowercased bytes) as read a byte at a time, whatever the name holds (capitals, digits, controls,
    /// UTF-8), wherever it ends, and however close to the end of the input.
    @Test func aTagNameReadAsOneWordIsTheNameReadByteByByte() {
        let alphabet: [UInt8] = Array("aZbYpHim1-:".utf8) + [0x00, 0x01, 0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x2F, 0x3E, 0x40, 0x5B, 0xC3, 0xA9]
        var generator = SplitMix64(seed: 41)
        var wordRead = 0
        for _ in 0..<20_000 {
            let bytes = generator.bytes(below: 20, from: alphabet, common: 9, rareOneIn: 4)
            let length = bytes.count
            let start = length == 0 ? 0 : Int(generator.next() % UInt64(length))
            bytes.withUnsafeBufferPointer { buffer in
                let fast = HTMLSanitizer.tagName(buffer, at: start), slow = HTMLSanitizer.tagNameByteByByte(buffer, at: start)
                #expect(fast.start == slow.start && fast.length == slow.length && fast.packed == slow.packed
                        && fast.tail == slow.tail, "\(bytes) from \(start)")
                if start + 8 <= length, fast.length < 8 { wordRead += 1 }
            }
        }
        #expect(wordRead > 2_000, "names read as one word: \(wordRead)")
    }

    /// Notes and summaries skip indentation eight spaces a step: a run of whitespace between words and
    /// tags must read exactly as one space does, however long and wherever a step ends in it (notes full
    /// of markup: there every kind of whitespace is a space).
    @Test func aRunOfWhitespaceReadsAsOneSpace() {
        let tokens = ["word", "two words", "<p>", "</p>", "<b>", "</b>", "<br>", "<a href=\"https://e.org/\">", "</a>",
                      "<li>", "&amp;", "é"]
        let spaces: [Character] = [" ", " ", " ", "\n", "\t", "\r", "\u{0C}"]
        var generator = SplitMix64(seed: 9)
        for _ in 0..<3_000 {
            var html = "<p>", single = "<p>", withControls = "<p>"
            for _ in 0..<Int(generator.next() % 8) + 1 {
                let token = tokens[Int(generator.next() % UInt64(tokens.count))]
                let length = Int(generator.next() % 30)
                let run = String((0..<length).map { _ in spaces[Int(generator.next() % UInt64(spaces.count))] })
                html += token + run
                single += token + (length > 0 ? " " : "")
                // Control characters within a run of whitespace say nothing either (the notes skip the
                // run eight bytes a step, controls and all).
                withControls += token + String(run.enumerated().map { offset, character in
                    offset > 0 && generator.next() % 4 == 0 ? (generator.next() % 2 == 0 ? "\u{1}" : "\u{1F}") : character
                })
            }
            #expect(ShowNotes.sanitize(html: html).html == ShowNotes.sanitize(html: single).html, "\(html.debugDescription)")
            #expect(ShowNotes.sanitize(html: withControls).html == ShowNotes.sanitize(html: single).html,
                    "\(withControls.debugDescription)")
            #expect(FeedValues.plainText(fromHTML: html) == FeedValues.plainText(fromHTML: single), "\(html.debugDescription)")
        }
    }

    @Test func runsEndWhereAByteByByteScanEndsThem() {
        // Mostly letters, so that whole words of eight run on; the rest are the bytes that end or split runs.
        let letters: [UInt8] = Array("abcxyz".utf8) + [0xC3, 0xA9, 0xE2, 0x80, 0x94]
        let others: [UInt8] = Array("<&>]".utf8) + [0x20, 0x20, 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x01, 0x7F, 0x00]
        var generator = SplitMix64(seed: 11)
        var longRuns = 0
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 48) + 1
            let bytes = (0..<length).map { _ -> UInt8 in
                let pick = generator.next()
                return pick % 100 < 80 ? letters[Int(pick / 100 % UInt64(letters.count))]
                    : others[Int(pick / 100 % UInt64(others.count))]
            }
            bytes.withUnsafeBufferPointer { buffer in
                for start in 1...length {
                    let end = HTMLSanitizer.endOfRun(buffer, from: start)
                    #expect(end == Self.scalarRun(buffer, from: start, ordinary: HTMLSanitizer.isOrdinary))
                    if end - start >= 16 { longRuns += 1 }
                    #expect(HTMLToText.endOfRun(buffer, from: start)
                            == Self.scalarRun(buffer, from: start, ordinary: HTMLToText.isOrdinary))
                }
            }
        }
        #expect(longRuns > 10_000, "the inputs must exercise the word-at-a-time path")
    }

    private static func mask(_ bytes: [UInt8], _ test: (UInt8) -> Bool) -> UInt64 {
        var mask: UInt64 = 0
        for (index, byte) in bytes.enumerated() where test(byte) { mask |= 0x80 << (8 * UInt64(index)) }
        return mask
    }

    private static func scalarRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, ordinary: (UInt8) -> Bool) -> Int {
        var cursor = start
        while cursor < bytes.count {
            if ordinary(bytes[cursor]) {
                cursor += 1
            } else if bytes[cursor] == 0x20, cursor + 1 < bytes.count, ordinary(bytes[cursor + 1]) {
                cursor += 2
            } else {
                break
            }
        }
        return cursor
    }

    /// `XMLFastScan.checkText` takes sixteen or eight ASCII bytes a step: it must fail exactly the texts
    /// a reading one character at a time fails (not UTF-8, a control character but tab, line feed and
    /// carriage return, U+FFFE or U+FFFF), wherever the bad byte falls in a step, and when it passes it
    /// must have checked at least up to where it was asked to.
    @Test func checkTextFailsExactlyWhatACharacterAtATimeReadingFails() {
        let letters = Array("abc xyz<>&\"".utf8) + [0x09, 0x0A, 0x0D]
        let rare: [[UInt8]] = [[0x01], [0x0B], [0x1F], [0x7F], [0xC3, 0xA9], [0xE2, 0x80, 0x94], [0xF0, 0x9F, 0x8E, 0xA7],
                               [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x80], [0xFF], [0xE2, 0x80]]
        var generator = SplitMix64(seed: 16)
        var passed = 0, failed = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            let length = Int(generator.next() % 160) + 1  // beyond sixty-four: `isASCIIText`'s steps too
            while bytes.count < length {
                let pick = generator.next()
                if pick % 100 < 97 { bytes.append(letters[Int(pick / 100 % UInt64(letters.count))]) }
                else { bytes += rare[Int(pick / 100 % UInt64(rare.count))] }
            }
            let from = Int(generator.next() % UInt64(bytes.count))
            let reached = bytes.withUnsafeBytes { XMLFastScan.checkText($0, from: from, to: bytes.count) }
            let valid = Self.isXMLText(bytes[from...])
            #expect((reached != nil) == valid, "\(bytes[from...].map { String($0, radix: 16) })")
            if let reached { #expect(reached == bytes.count) }
            if valid { passed += 1 } else { failed += 1 }
        }
        #expect(passed > 2_000 && failed > 2_000, "both outcomes are exercised: \(passed) passed, \(failed) failed")
    }

    /// Sixty-four bytes a step (`XMLFastScan.isASCIIText`): ASCII text with tabs and line breaks passes,
    /// and any byte from 0x80 up or control character but those three fails it, in every one of the
    /// sixty-four places.
    @Test func sixtyFourASCIIBytesPassExactlyWhenEveryOneIsAllowed() {
        for position in 0..<64 {
            for byte in 0...255 {
                var bytes = [UInt8](repeating: 0x61, count: 64)
                bytes[(position + 17) % 64] = 0x0A
                bytes[position] = UInt8(byte)
                let expected = bytes.allSatisfy { $0 < 0x80 && ($0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
                #expect(bytes.withUnsafeBufferPointer { XMLFastScan.isASCIIText($0, at: 0) } == expected, "byte \(byte) at \(position)")
            }
        }
    }

    /// XML 1.0's characters (`Char`: tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD,
    /// U+10000 and up), read one at a time from valid UTF-8.
    static func isXMLText(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            let value = scalar.value
            return value == 0x09 || value == 0x0A || value == 0x0D || (value >= 0x20 && value <= 0xD7FF)
                || (value >= 0xE000 && value <= 0xFFFD) || value >= 0x10000
        }
    }
}

/// Feed values read eight bytes a step where they can: the same as their byte-by-byte definitions.
struct FeedValueWordTests {
    /// Runs of whitespace made one space and the ends trimmed, on strings of letters, single and double
    /// spaces, tabs, line breaks and other control characters in every position of a word.
    @Test func squashedWhitespaceMatchesItsDefinition() {
        let pieces: [UInt8] = [0x61, 0x62, 0x20, 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x01, 0xC3, 0xA9, 0x2E]
        var generator = SplitMix64(seed: 41)
        var squashed = 0
        for _ in 0..<20_000 {
            let bytes = generator.bytes(below: 40, from: pieces, common: 2, rareOneIn: 3)
            let text = String(decoding: bytes, as: UTF8.self)
            let expected = text.utf8.split(whereSeparator: isASCIIWhitespace).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
            let got = bytes.withUnsafeBufferPointer { FeedValues.squashedWhitespace(bytes: $0) }
            #expect(got == expected, "\(bytes)")
            if got.utf8.count != text.utf8.count { squashed += 1 }
        }
        #expect(squashed > 1_000, "the inputs had whitespace to squash")
    }

    @Test func plainURLBytesByTableAreThoseOfTheDefinition() {
        for byte in UInt8.min...UInt8.max {
            #expect(FeedValues.isPlainURLByteByTable(byte) == FeedValues.isPlainURLByte(byte), "\(byte)")
        }
    }
}

extension SplitMix64 {
    /// Fewer than `limit` bytes, each one of the first `common` of `alphabet`, or one time in `rareOneIn`
    /// any of it: inputs made mostly of ordinary bytes with the ones that matter anywhere among them.
    mutating func bytes(below limit: Int, from alphabet: [UInt8], common: Int, rareOneIn: UInt64) -> [UInt8] {
        (0..<Int(next() % UInt64(limit))).map { _ -> UInt8 in
            let pick = next()
            let choices = pick % rareOneIn == 0 ? alphabet.count : common
            return alphabet[Int(pick / rareOneIn % UInt64(choices))]
        }
    }
}
