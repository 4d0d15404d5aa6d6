import EarshotCore
import FoundationEssentials

/// Reads a tag's attributes up to its `>`, as browsers split them (names end at whitespace, `/`, `>` or
/// `=`; values are quoted with `"` or `'`, or run to whitespace or `>`), keeping the ranges of the few
/// the sanitizer wants. The first of two same-named attributes wins, as in browsers.
struct AttributeScan {
    enum Wanted { case none, link, image }

    let wanted: Wanted
    var selfClosing = false
    /// `href` of a link; `src` and `alt` of an image (value ranges, still encoded).
    var reference: Range<Int>?
    var source: Range<Int>?
    var alternative: Range<Int>?
    /// The address (`reference` or `source`) was found quoted and holding nothing `HTMLSanitizer.look`
    /// stops at (a control character, `&`, `"`, `<`, `>`): it is written as it is (`look` is not needed).
    var addressIsPlain = false

    /// Which of the wanted values an attribute's is.
    private enum Slot { case none, reference, source, alternative }

    init(wanted: Wanted) { self.wanted = wanted }

    /// The index of the tag's closing `>`, or nil when the input ends first.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let count = bytes.count
        var cursor = start
        while true {
            while cursor < count, HTMLSanitizer.isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < count else { return nil }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ">") { return cursor }
            if byte == UInt8(ascii: "/") {
                if cursor + 1 < count, bytes[cursor + 1] == UInt8(ascii: ">") {
                    selfClosing = true
                    return cursor + 1
                }
                cursor += 1
                continue
            }
            let nameStart = cursor
            cursor += 1  // the first character may be `=`
            while cursor < count, !Self.endsName(bytes[cursor]) { cursor += 1 }
            let slot = wanted == .none ? .none : self.slot(of: nameStart..<cursor, in: bytes)
            while cursor < count, HTMLSanitizer.isSpace(bytes[cursor]) { cursor += 1 }
            var value = cursor..<cursor
            var plain = false
            if cursor < count, bytes[cursor] == UInt8(ascii: "=") {
                cursor += 1
                while cursor < count, HTMLSanitizer.isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < count else { return nil }
                let quote = bytes[cursor]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    let close: Int
                    if slot == .reference || slot == .source {
                        guard let end = Self.closingQuote(quote, in: bytes, from: cursor + 1) else { return nil }
                        (close, plain) = end
                    } else {
                        guard let end = bytes.nextIndex(of: quote, from: cursor + 1) else { return nil }
                        close = end
                    }
                    value = cursor + 1..<close
                    cursor = close + 1
                } else {
                    let valueStart = cursor
                    while cursor < count, !HTMLSanitizer.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") {
                        cursor += 1
                    }
                    value = valueStart..<cursor
                }
            }
            switch slot {
            case .reference:
                reference = value
                addressIsPlain = plain
            case .source:
                source = value
                addressIsPlain = plain
            case .alternative: alternative = value
            case .none: break
            }
        }
    }

    /// The closing `quote` of a value that may be an address, and whether the value before it is plain
    /// (`addressIsPlain`): the look an address gets (`HTMLSanitizer.look`) made in the same steps as the
    /// search for its end, sixteen bytes a step. An address looked at again after its quote was found
    /// was two passes over it, each ending in a mispredicted branch (5% of freakshow's parse).
    static func closingQuote(_ quote: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, plain: Bool)? {
        var at = start
        while at + 16 <= bytes.count {
            let block = ByteBlock.load(bytes, at: at)
            // `"` is escapable: for that quote the end is the first hit itself.
            let hits = ByteBlock.Marks(ByteBlock.below(block, 0x20) .| ByteBlock.equal(block, 0x7F)
                                       .| ByteBlock.escapable(block) .| ByteBlock.equal(block, quote))
            if hits.isEmpty {
                at += 16
                continue
            }
            let first = at + hits.first
            if bytes[first] == quote { return (first, true) }
            return bytes.nextIndex(of: quote, from: first).map { ($0, false) }
        }
        var plain = true
        while at < bytes.count {
            let byte = bytes[at]
            if byte == quote { return (at, plain) }
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\"")
                || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") { plain = false }
            at += 1
        }
        return nil
    }

    /// Whitespace, `/`, `>` and `=`: what ends an attribute's name (one bit each, 0x00–0x3F).
    private static let nameEnds: UInt64 = 1 << 0x20 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0C | 1 << 0x0D
        | 1 << 0x2F | 1 << 0x3E | 1 << 0x3D

    @inline(__always)
    static func endsName(_ byte: UInt8) -> Bool { byte < 0x40 && nameEnds >> UInt64(byte) & 1 != 0 }

    /// Which wanted value the attribute named at `name` holds: the first of each name counts.
    private func slot(of name: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Slot {
        switch wanted {
        case .link:
            if reference == nil, Self.named(name, "href", in: bytes) { return .reference }
        case .image:
            if source == nil, Self.named(name, "src", in: bytes) { return .source }
            if alternative == nil, Self.named(name, "alt", in: bytes) { return .alternative }
        case .none:
            break
        }
        return .none
    }

    private static func named(_ range: Range<Int>, _ name: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        name.withUTF8Buffer { expected in
            guard range.count == expected.count else { return false }
            for offset in 0..<expected.count {
                var byte = bytes[range.lowerBound + offset]
                if byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
                if byte != expected[offset] { return false }
            }
            return true
        }
    }
}

extension HTMLSanitizer {
    /// Appends the attribute value at `range` of `bytes` with its character references decoded.
    static func appendDecoded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + range.count)
        var cursor = range.lowerBound
        let value = UnsafeBufferPointer(rebasing: bytes[..<range.upperBound])
        while cursor < range.upperBound {
            // What comes before the next reference is copied in one go.
            let ampersand = value.nextIndex(of: UInt8(ascii: "&"), from: cursor) ?? range.upperBound
            out.append(contentsOf: UnsafeBufferPointer(rebasing: value[cursor..<ampersand]))
            cursor = ampersand
            guard cursor < range.upperBound else { break }
            if let (scalar, end) = HTMLEntities.decode(value, at: cursor, inAttribute: true) {
                FeedEncoding.appendUTF8(scalar, to: &out)
                cursor = end
            } else {
                out.append(UInt8(ascii: "&"))
                cursor += 1
            }
        }
    }

    /// Takes an image's `alt` (the value at `range`) as the text it shows: references decoded, control
    /// characters and runs of whitespace made one space, the ends trimmed. False when nothing is left.
    /// Nearly every `alt` is that already ("Twitter Icon"): it is read where it stands (`altInNotes`), not
    /// copied; any other is written into `alt`. (A `String` was built for each: 1,300 instructions an image.)
    mutating func keepAlternative(_ range: Range<Int>) -> Bool {
        if Self.isShownAsWritten(bytes, range) {
            altInNotes = range
            return !range.isEmpty
        }
        altInNotes = nil
        alt.removeAll(keepingCapacity: true)
        Self.appendDecoded(bytes, range, to: &alt)
        // Squashed in place: a byte is only ever written at or before where it was read.
        var written = 0
        var pendingSpace = false
        for index in alt.indices {
            let byte = alt[index]
            if byte <= 0x20 || byte == 0x7F {
                pendingSpace = written > 0
            } else {
                if pendingSpace {
                    alt[written] = 0x20
                    written += 1
                    pendingSpace = false
                }
                alt[written] = byte
                written += 1
            }
        }
        alt.removeLast(alt.count - written)
        return written > 0
    }

    /// Whether the text at `range` shows as it is written: no reference, no control character, no
    /// whitespace but single spaces between words.
    static func isShownAsWritten(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return true }
        guard bytes[range.lowerBound] != 0x20, bytes[range.upperBound - 1] != 0x20 else { return false }
        var afterSpace = false
        var start = range.lowerBound
        // Eight bytes a step: none below 0x20, no 0x7F, no `&`, no two spaces in a row (within the word,
        // or across from the last word's end).
        while start + 8 <= range.upperBound {
            let word = ByteWord.load(bytes, at: start)
            let spaces = ByteWord.equal(word, 0x20)
            if ByteWord.below(word, 0x20) | ByteWord.equal(word, 0x7F) | ByteWord.equal(word, UInt8(ascii: "&"))
                | spaces & spaces >> 8 != 0 || afterSpace && spaces & 0x80 != 0 { return false }
            afterSpace = spaces & ByteWord.lastHigh != 0
            start += 8
        }
        for index in start..<range.upperBound {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "&") { return false }
            if byte == 0x20 {
                if afterSpace { return false }
                afterSpace = true
            } else {
                afterSpace = false
            }
        }
        return true
    }

    /// Finds the URL to keep for a link or image (the attribute value at `range`) and returns true
    /// (`keptURL` then reads it), or returns false to refuse it.
    ///
    /// Browsers ignore leading and trailing spaces and control characters, and tabs and line breaks
    /// anywhere, so `" java&#9;script:…"` is `javascript:`: references are decoded and all of those are
    /// dropped first (every control character, to be safe), then the scheme must be http or https (or
    /// mailto for a link). A relative URL is resolved against the feed's URL when there is one and must
    /// then be http(s) too; without one it is refused, since the page would resolve it against Earshot's
    /// own address. An http(s) URL must have its `//` and a host.
    ///
    /// Bytes, not a `String`: a large feed's notes hold tens of thousands of links, and each went from
    /// bytes to a validated `String` and back to bytes in the output.
    ///
    /// `plain`: the scan found the value plain (`AttributeScan.addressIsPlain`), and the look is known.
    mutating func keepURL(_ range: Range<Int>, allowMailto: Bool, plain: Bool = false) -> Bool {
        var start = range.lowerBound
        var end = range.upperBound
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        let look = plain ? (clean: true, plain: true, escapedAsWritten: false) : Self.look(bytes, start..<end)
        urlIsPlain = look.plain
        if look.clean {
            // Nearly every real URL: nothing to decode or drop, read where it stands (not copied).
            switch Self.urlAcceptance(UnsafeBufferPointer(rebasing: bytes[start..<end]), allowMailto: allowMailto, baseURL: baseURL) {
            case .keep:
                urlInNotes = start..<end
                return true
            case .refuse:
                return false
            case .resolved(let resolved):
                urlIsPlain = false
                urlInNotes = nil
                url.removeAll(keepingCapacity: true)
                url.append(contentsOf: resolved.utf8)
                return true
            }
        }
        // An address whose only references are `&amp;` (between query parameters) and that holds nothing
        // else to escape is, decoded and escaped again, what is written: it is kept as written (the
        // scheme and host it is accepted by come before any `&`, so they read the same decoded).
        if look.escapedAsWritten,
           case .keep = Self.urlAcceptance(UnsafeBufferPointer(rebasing: bytes[start..<end]), allowMailto: allowMailto, baseURL: baseURL) {
            urlInNotes = start..<end
            urlIsPlain = true
            return true
        }
        urlInNotes = nil
        url.removeAll(keepingCapacity: true)
        Self.appendDecoded(bytes, range, to: &url)
        // Most addresses here only had a reference or two (`&amp;` between query parameters) and are
        // clean once decoded: the passes that drop what browsers drop are for the others.
        if !Self.isTrimmedAndClean(url) {
            url.removeAll { $0 < 0x20 || $0 == 0x7F }
            let first = url.firstIndex { $0 != 0x20 } ?? url.count
            let last = url.lastIndex { $0 != 0x20 }.map { $0 + 1 } ?? first
            if last < url.count { url.removeSubrange(last...) }
            if first > 0 { url.removeSubrange(..<first) }
        }
        switch url.withUnsafeBufferPointer({ Self.urlAcceptance($0, allowMailto: allowMailto, baseURL: baseURL) }) {
        case .keep: return true
        case .refuse: return false
        case .resolved(let resolved):
            urlIsPlain = false
            url.removeAll(keepingCapacity: true)
            url.append(contentsOf: resolved.utf8)
            return true
        }
    }

    /// Whether `url` has no control character and no space at either end.
    static func isTrimmedAndClean(_ url: [UInt8]) -> Bool {
        guard let first = url.first, let last = url.last, first != 0x20, last != 0x20 else { return url.isEmpty }
        return url.withUnsafeBufferPointer { url in
            var index = 0
            while index + 8 <= url.count {
                let word = ByteWord.load(url, at: index)
                if ByteWord.below(word, 0x20) | ByteWord.equal(word, 0x7F) != 0 { return false }
                index += 8
            }
            while index < url.count {
                if url[index] < 0x20 || url[index] == 0x7F { return false }
                index += 1
            }
            return true
        }
    }

    /// What `range` of `bytes` holds that a URL would have decoded, dropped or escaped: `clean`, no
    /// control character and no `&` (nothing to decode or drop); `plain`, clean and no `"`, `<` or `>`
    /// either (written as it is); `escapedAsWritten`, not clean only for `&amp;`s and holding nothing else
    /// to escape (decoded and escaped again it is these very bytes). One look, sixteen bytes a step
    /// (addresses run to a hundred bytes and more), straight to each byte that matters.
    ///
    /// The last step may read past the range's end, within `bytes` (the notes go on after an attribute
    /// value: at least its closing quote and the tag's `>`): what it finds there is not looked at. An
    /// address was a few words and then a byte at a time to its end (400 instructions a link).
    static func look(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        -> (clean: Bool, plain: Bool, escapedAsWritten: Bool) {
        var index = range.lowerBound
        var escapable = false, ampersands = false
        while index < range.upperBound {
            if index + 16 <= bytes.count {
                let block = ByteBlock.load(bytes, at: index)
                let first = ByteBlock.Marks(ByteBlock.below(block, 0x20) .| ByteBlock.equal(block, 0x7F)
                                            .| ByteBlock.escapable(block)).first
                index += first
                if index >= range.upperBound { break }  // nothing that matters before the end
                if first == 16 { continue }
            } else if index + 8 <= range.upperBound {
                let word = ByteWord.load(bytes, at: index)
                let hits = ByteWord.below(word, 0x20) | ByteWord.equal(word, 0x7F) | ByteWord.escapable(word)
                if hits == 0 {
                    index += 8
                    continue
                }
                index += hits.trailingZeroBitCount >> 3
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") {
                guard HTMLEntities.isAmpersandReference(bytes, at: index, before: range.upperBound) else { return (false, false, false) }
                ampersands = true
                index += 5
            } else if byte < 0x20 || byte == 0x7F {
                return (false, false, false)
            } else {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") { escapable = true }
                index += 1
            }
        }
        return ampersands ? (false, false, !escapable) : (true, !escapable, false)
    }

    enum URLAcceptance { case keep, refuse, resolved(String) }

    private static func urlAcceptance(_ url: UnsafeBufferPointer<UInt8>, allowMailto: Bool, baseURL: URL?) -> URLAcceptance {
        guard !url.isEmpty else { return .refuse }
        // Nearly every link: "http://…" or "https://…", checked on the bytes, no scheme string made.
        if let afterScheme = Self.httpSchemeLength(url) {
            // "http:" then "//" and a host: what browsers and the page will read as a web address.
            guard url.count > afterScheme + 2, url[afterScheme] == UInt8(ascii: "/"),
                  url[afterScheme + 1] == UInt8(ascii: "/") else { return .refuse }
            return .keep
        }
        if let scheme = Self.scheme(of: url) {
            return scheme == "mailto" && allowMailto ? .keep : .refuse
        }
        guard let baseURL, let resolved = FeedValues.resolve(bytes: url, against: baseURL),
              FeedValues.isWebAddress(resolved) else { return .refuse }
        return .resolved(resolved)
    }

    /// The length of "http:" or "https:" (any case) when `url` starts with one, else nil.
    static func httpSchemeLength(_ url: UnsafeBufferPointer<UInt8>) -> Int? {
        guard url.count > 5, url[0] | 0x20 == UInt8(ascii: "h"), url[1] | 0x20 == UInt8(ascii: "t"),
              url[2] | 0x20 == UInt8(ascii: "t"), url[3] | 0x20 == UInt8(ascii: "p") else { return nil }
        if url[4] == UInt8(ascii: ":") { return 5 }
        return url[4] | 0x20 == UInt8(ascii: "s") && url[5] == UInt8(ascii: ":") ? 6 : nil
    }

    /// The lowercased scheme of a URL (`[A-Za-z][A-Za-z0-9+.-]*:`), or nil when it has none (relative).
    static func scheme(of url: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = url.first, isASCIILetter(first) else { return nil }
        var end = 1
        while end < url.count {
            let byte = url[end]
            if byte == UInt8(ascii: ":") {
                return String(decoding: UnsafeBufferPointer(rebasing: url[..<end]), as: UTF8.self).asciiLowercased()
            }
            guard isASCIILetter(byte) || isASCIIDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".") else { return nil }
            end += 1
        }
        return nil
    }
}
