extension SanitizedHTML {
    /// Writes sanitized notes as HTML, an element at a time (`open`/`close`) or from a tree (`write`).
    /// Escapes text and attribute values; knows nothing of which elements are allowed (its callers do).
    public struct Writer {
        /// Where the bytes are written: its whole length is room, the bytes written are its first
        /// `count` (what lies after them is left over and never read). A tag is stored through one
        /// pointer, not appended a byte at a time (`Array.append` checked uniqueness and capacity for
        /// each: 15–20 instructions a byte, a hundred for `</li>`).
        private var storage: [UInt8] = []
        /// How many bytes are written.
        public private(set) var count = 0

        /// The bytes written (a copy).
        public var bytes: [UInt8] { Array(storage[..<count]) }

        public init() {}

        /// A writer with room for `capacity` bytes made at once (a writer for one text, sized for it, then
        /// grows no further in the common case: growing zeroes the new room and copies what was written).
        public init(capacity: Int) {
            storage = Self.room(max(0, capacity))
        }

        /// Room for `count` bytes, not zeroed: nothing past `count` written bytes is ever read, and a
        /// large feed's writers (one a piece of a split read) zeroed megabytes as they grew.
        private static func room(_ count: Int) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        }

        /// Makes room for `capacity` bytes in all at once (a sanitizer sizes it for its input: doubling
        /// from nothing copied what was written at every step).
        public mutating func reserve(_ capacity: Int) {
            if capacity > storage.count { grow(to: capacity) }
        }

        /// The bytes written, lent.
        public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
        }

        /// Takes `buffer` over to write into, keeping its room (a swap, so the buffer is never shared
        /// and never copied); `takeBuffer` gives it back.
        public mutating func reuse(_ buffer: inout [UInt8]) {
            swap(&storage, &buffer)
            count = 0
        }

        /// The buffer, for the next writer to reuse; this writer is left empty.
        public mutating func takeBuffer() -> [UInt8] {
            var taken: [UInt8] = []
            swap(&taken, &storage)
            count = 0
            return taken
        }

        /// Stores at most `maximum` bytes with `body`, which writes them from the pointer it is given and
        /// returns the pointer past the last.
        @inline(__always)
        private mutating func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>) {
            guard maximum > 0 else { return }  // nothing to write (an empty array may have no address)
            if count + maximum > storage.count { grow(to: count + maximum) }
            let start = count
            count = storage.withUnsafeMutableBufferPointer { room in
                let base = room.baseAddress!
                return body(base + start) - base
            }
        }

        /// Doubles the room (at least), keeping what is written.
        private mutating func grow(to needed: Int) {
            var room = Self.room(max(needed, storage.count * 2, 256))
            let count = count
            if count > 0 {
                room.withUnsafeMutableBufferPointer { target in
                    storage.withUnsafeBufferPointer { source in
                        target.baseAddress!.update(from: source.baseAddress!, count: count)
                    }
                }
            }
            storage = room
        }

        /// Puts `source` at `target` and moves it past: a few bytes one at a time (names, entities),
        /// longer runs in one copy.
        @inline(__always)
        private static func put(_ source: UnsafeBufferPointer<UInt8>, _ target: inout UnsafeMutablePointer<UInt8>) {
            guard let base = source.baseAddress else { return }
            if source.count <= 16 {
                for offset in 0..<source.count { target[offset] = base[offset] }
            } else {
                target.update(from: base, count: source.count)
            }
            target += source.count
        }

        @inline(__always)
        private static func put(_ literal: StaticString, _ target: inout UnsafeMutablePointer<UInt8>) {
            put(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount), &target)
        }

        @inline(__always)
        private static func put(_ byte: UInt8, _ target: inout UnsafeMutablePointer<UInt8>) {
            target.pointee = byte
            target += 1
        }

        /// Elements written without content or an end tag.
        public static func isVoid(_ tag: String) -> Bool { tag == "br" || tag == "img" }

        /// `<tag a="v" …>`, attributes in name order (the same notes always give the same string).
        public mutating func open(_ tag: String, attributes: [String: String] = [:]) {
            open(tag, sortedAttributes: attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }

        /// `<tag a="v" …>` with the attributes already in name order.
        public mutating func open(_ tag: String, sortedAttributes: [(name: String, value: String)]) {
            var tag = tag
            tag.withUTF8 { tag in write(atMost: tag.count + 1) { Self.tagStart(tag, $0) } }
            for (name, value) in sortedAttributes {
                var name = name, value = value
                name.withUTF8 { name in value.withUTF8 { value in attribute(name, value, escaping: true) } }
            }
            write(atMost: 1) { Self.end($0) }
        }

        /// `<tag>`. (The sanitizer's overloads take no array: it opens a quarter of a million tags on a
        /// large feed.)
        public mutating func open(_ tag: String) {
            var tag = tag
            tag.withUTF8 { tag in write(atMost: tag.count + 2) { Self.end(Self.tagStart(tag, $0)) } }
        }

        /// `<tag>`, the name given as a literal (the sanitizer's element names: no `String` to unpack).
        public mutating func open(_ tag: StaticString) {
            write(atMost: tag.utf8CodeUnitCount + 2) { Self.end(Self.tagStart(tag.buffer, $0)) }
        }

        /// `<tag name="value">` with the value as UTF-8 bytes (a link's address, straight from the notes).
        /// `escaping: false`: the caller has made sure the value is written escaped already: no `"`, `<` or
        /// `>`, and `&` only as `&amp;`.
        public mutating func open(_ tag: StaticString, _ name: StaticString, _ value: UnsafeBufferPointer<UInt8>,
                                  escaping: Bool = true) {
            if value.count <= Self.smallValue {
                // The whole tag in one write: nearly every link. (A write a part took four or five, each
                // checking the room and the buffer's uniqueness.)
                write(atMost: tag.utf8CodeUnitCount + 2 + Self.room(name.buffer, value, escaping: escaping)) { target in
                    var target = Self.tagStart(tag.buffer, target)
                    Self.putAttribute(name.buffer, value, escaping: escaping, &target)
                    return Self.end(target)
                }
                return
            }
            write(atMost: tag.utf8CodeUnitCount + 1) { Self.tagStart(tag.buffer, $0) }
            attribute(name.buffer, value, escaping: escaping)
            write(atMost: 1) { Self.end($0) }
        }

        /// `<tag name="value" name2="value2">` with the values as UTF-8 bytes, `name` before `name2` in
        /// name order.
        /// `escaping: false`: the caller has made sure `value2` is written escaped already (see above).
        public mutating func open(_ tag: StaticString, _ name: StaticString, _ value: UnsafeBufferPointer<UInt8>,
                                  _ name2: StaticString, _ value2: UnsafeBufferPointer<UInt8>, escaping: Bool = true) {
            if value.count <= Self.smallValue, value2.count <= Self.smallValue {
                // One write for the whole tag (an image with its `alt`).
                let room = tag.utf8CodeUnitCount + 2 + Self.room(name.buffer, value, escaping: true)
                    + Self.room(name2.buffer, value2, escaping: escaping)
                write(atMost: room) { target in
                    var target = Self.tagStart(tag.buffer, target)
                    Self.putAttribute(name.buffer, value, escaping: true, &target)
                    Self.putAttribute(name2.buffer, value2, escaping: escaping, &target)
                    return Self.end(target)
                }
                return
            }
            write(atMost: tag.utf8CodeUnitCount + 1) { Self.tagStart(tag.buffer, $0) }
            attribute(name.buffer, value, escaping: true)
            attribute(name2.buffer, value2, escaping: escaping)
            write(atMost: 1) { Self.end($0) }
        }

        /// Whether `value` reads as an escaped attribute value: no `"`, `<` or `>`, every `&` an `&amp;`.
        static func isWrittenEscaped(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
            for (index, byte) in value.enumerated() {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"): return false
                case UInt8(ascii: "&"): if !value[index...].starts(with: "&amp;".utf8) { return false }
                default: continue
                }
            }
            return true
        }

        /// The most ` name="value"` can take written (each escaped byte may become six: `&quot;`).
        @inline(__always)
        private static func room(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>, escaping: Bool) -> Int {
            name.count + 4 + (escaping ? value.count * 6 : value.count)
        }

        /// Puts ` name="value"` at `target`, the value escaped when `escaping`.
        @inline(__always)
        private static func putAttribute(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>,
                                         escaping: Bool, _ target: inout UnsafeMutablePointer<UInt8>) {
            put(0x20, &target)
            put(name, &target)
            put("=\"", &target)
            if escaping {
                target = escape(value, quote: true, to: target)
            } else {
                assert(Self.isWrittenEscaped(value))
                put(value, &target)
            }
            put(UInt8(ascii: "\""), &target)
        }

        /// Markup of up to sixteen bytes, given as two words (first byte lowest): a kept element's start or
        /// end tag made once (`Markup`), written with two stores rather than byte by byte. The caller
        /// vouches that it is markup this writer would write (`<p>`, `</li>`).
        public mutating func markup(_ markup: Markup) {
            write(atMost: 16) { Self.put(markup, $0) }
        }

        /// A tag with its attribute value: markup, a value, markup (`<a href="`, the address, `">`), in one
        /// write. The value is escaped unless `escaping` is false: the caller vouches it is written escaped
        /// already (no `"`, `<` or `>`, `&` only as `&amp;`).
        public mutating func markup(_ start: Markup, _ value: UnsafeBufferPointer<UInt8>, escaping: Bool, _ end: Markup) {
            markup(start, value, escaping: escaping, nil, nil, escapingSecond: false, end)
        }

        /// `markup(_:_:escaping:_:)` with a second value after `middle`.
        public mutating func markup(_ start: Markup, _ value: UnsafeBufferPointer<UInt8>, escaping: Bool,
                                    _ middle: Markup?, _ second: UnsafeBufferPointer<UInt8>?,
                                    escapingSecond: Bool, _ end: Markup) {
            let secondCount = second?.count ?? 0
            guard value.count <= Self.smallValue, secondCount <= Self.smallValue else {
                // Long values: each part a write of its own (room for a value escaped is six times it).
                markup(start)
                escaping ? appendEscaped(value, quote: true) : write(atMost: value.count) { Self.put(value, $0) }
                if let middle, let second {
                    markup(middle)
                    escapingSecond ? appendEscaped(second, quote: true) : write(atMost: second.count) { Self.put(second, $0) }
                }
                markup(end)
                return
            }
            let room = 48 + (escaping ? value.count * 6 : value.count) + (escapingSecond ? secondCount * 6 : secondCount)
            write(atMost: room) { target in
                var target = Self.put(start, target)
                target = Self.put(value, escaping: escaping, target)
                if let middle, let second {
                    target = Self.put(second, escaping: escapingSecond, Self.put(middle, target))
                }
                return Self.put(end, target)
            }
        }

        /// Stores `markup` with two stores (sixteen bytes of room) and returns the pointer past its bytes.
        @inline(__always)
        private static func put(_ markup: Markup, _ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            UnsafeMutableRawPointer(target).storeBytes(of: markup.low.littleEndian, as: UInt64.self)
            UnsafeMutableRawPointer(target + 8).storeBytes(of: markup.high.littleEndian, as: UInt64.self)
            return target + markup.count
        }

        /// Puts `value`, escaped unless `escaping` is false (then it must be written escaped already).
        @inline(__always)
        private static func put(_ value: UnsafeBufferPointer<UInt8>, escaping: Bool,
                                _ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            if escaping { return escape(value, quote: true, to: target) }
            assert(isWrittenEscaped(value))
            var target = target
            put(value, &target)
            return target
        }

        @inline(__always)
        private static func put(_ value: UnsafeBufferPointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            var target = target
            put(value, &target)
            return target
        }

        /// A tag of up to sixteen bytes packed into two words, for `markup(_:)`.
        public struct Markup: Sendable {
            public let low: UInt64
            public let high: UInt64
            public let count: Int

            /// Bytes already packed, first byte lowest (constants: a test holds each to its text).
            public init(low: UInt64, high: UInt64, count: Int) {
                (self.low, self.high, self.count) = (low, high, count)
            }

            /// The markup's text.
            public var text: String {
                var bytes: [UInt8] = []
                for offset in 0..<count {
                    let word = offset < 8 ? low : high
                    bytes.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(offset % 8))))
                }
                return String(decoding: bytes, as: UTF8.self)
            }

            /// `<tag>`, or `</tag>` when `closing` (a name of up to thirteen bytes).
            public init(_ tag: StaticString, closing: Bool = false) {
                self.init(text: (closing ? "</" : "<") + tag.description + ">")
            }

            /// Markup of up to sixteen bytes, packed.
            public init(text: String) {
                let bytes = Array(text.utf8)
                precondition(bytes.count <= 16, "markup too long to pack: \(text)")
                var low: UInt64 = 0, high: UInt64 = 0
                for (offset, byte) in bytes.enumerated() {
                    if offset < 8 { low |= UInt64(byte) << (8 * UInt64(offset)) } else { high |= UInt64(byte) << (8 * UInt64(offset - 8)) }
                }
                (self.low, self.high, count) = (low, high, bytes.count)
            }
        }

        /// `</tag>`, the name given as a literal.
        public mutating func close(_ tag: StaticString) {
            write(atMost: tag.utf8CodeUnitCount + 3) { Self.closing(tag.buffer, $0) }
        }

        public mutating func close(_ tag: String) {
            var tag = tag
            tag.withUTF8 { tag in write(atMost: tag.count + 3) { Self.closing(tag, $0) } }
        }

        /// Values up to this long are written with their tag in one go; longer ones are copied apart.
        private static let smallValue = 1 << 12

        @inline(__always)
        private static func tagStart(_ tag: UnsafeBufferPointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            var target = target
            put(UInt8(ascii: "<"), &target)
            put(tag, &target)
            return target
        }

        @inline(__always)
        private static func end(_ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            var target = target
            put(UInt8(ascii: ">"), &target)
            return target
        }

        @inline(__always)
        private static func closing(_ tag: UnsafeBufferPointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            var target = target
            put("</", &target)
            put(tag, &target)
            put(UInt8(ascii: ">"), &target)
            return target
        }

        /// ` name="value"`, the value escaped unless the caller made sure it holds nothing to escape.
        private mutating func attribute(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>, escaping: Bool) {
            write(atMost: name.count + 3) { target in
                var target = target
                Self.put(0x20, &target)
                Self.put(name, &target)
                Self.put("=\"", &target)
                return target
            }
            if escaping {
                appendEscaped(value, quote: true)
            } else {
                assert(Self.isWrittenEscaped(value))
                write(atMost: value.count) { target in
                    var target = target
                    Self.put(value, &target)
                    return target
                }
            }
            write(atMost: 1) { target in
                var target = target
                Self.put(UInt8(ascii: "\""), &target)
                return target
            }
        }

        /// Text (UTF-8), escaped. (Concrete, not generic over sequences: a generic public method called
        /// from another module runs unspecialized, through witness tables, byte by byte.)
        public mutating func text(_ text: [UInt8]) {
            text.withUnsafeBufferPointer { appendEscaped($0, quote: false) }
        }

        /// Text (UTF-8), escaped.
        public mutating func text(_ text: UnsafeBufferPointer<UInt8>) {
            appendEscaped(text, quote: false)
        }

        /// Text (UTF-8) that holds no `&`, `<` or `>`: the sanitizer's runs of ordinary bytes, which it
        /// has already looked at one by one, copied without a second look.
        public mutating func text(escaped text: UnsafeBufferPointer<UInt8>) {
            assert(!text.contains { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") })
            write(atMost: text.count) { target in
                var target = target
                Self.put(text, &target)
                return target
            }
        }

        /// One byte of text (UTF-8), escaped.
        public mutating func text(byte: UInt8) {
            write(atMost: 5) { target in
                var target = target
                switch byte {
                case UInt8(ascii: "&"): Self.put("&amp;", &target)
                case UInt8(ascii: "<"): Self.put("&lt;", &target)
                case UInt8(ascii: ">"): Self.put("&gt;", &target)
                default: Self.put(byte, &target)
                }
                return target
            }
        }

        /// One character of text (a decoded reference), escaped; a value that is no Unicode scalar (a
        /// surrogate, past U+10FFFF) is written U+FFFD.
        public mutating func text(scalar value: UInt32) {
            guard value >= 0x80 else {
                text(byte: UInt8(value))
                return
            }
            let scalar = Unicode.Scalar(value)?.value ?? 0xFFFD
            write(atMost: 4) { target in
                var target = target
                if scalar < 0x800 {
                    Self.put(UInt8(0xC0 | scalar >> 6), &target)
                } else {
                    if scalar < 0x1_0000 {
                        Self.put(UInt8(0xE0 | scalar >> 12), &target)
                    } else {
                        Self.put(UInt8(0xF0 | scalar >> 18), &target)
                        Self.put(UInt8(0x80 | scalar >> 12 & 0x3F), &target)
                    }
                    Self.put(UInt8(0x80 | scalar >> 6 & 0x3F), &target)
                }
                Self.put(UInt8(0x80 | scalar & 0x3F), &target)
                return target
            }
        }

        /// Text, escaped.
        public mutating func text(_ text: String) {
            var text = text
            text.withUTF8 { appendEscaped($0, quote: false) }
        }

        public mutating func write(_ node: RichText) {
            switch node {
            case .text(let text):
                self.text(text)
            case .element(let tag, let attributes, let children):
                open(tag, attributes: attributes)
                guard !Self.isVoid(tag) else { return }
                for child in children { write(child) }
                close(tag)
            }
        }

        /// Drops what was written from `offset` on (an element that stayed empty).
        public mutating func truncate(to offset: Int) {
            precondition(offset >= 0 && offset <= count)
            count = offset
        }

        /// Whether the bytes end with `<br>` after `offset`.
        public func endsWithBreak(after offset: Int) -> Bool {
            let count = count
            return count - 4 >= offset && storage[count - 4] == UInt8(ascii: "<") && storage[count - 3] == UInt8(ascii: "b")
                && storage[count - 2] == UInt8(ascii: "r") && storage[count - 1] == UInt8(ascii: ">")
        }

        public func finish() -> String { withBytes { String(decoding: $0, as: UTF8.self) } }

        /// Bytes escaped in one step of `appendEscaped` (each may become six: `&quot;`).
        private static let escapeBlock = 256

        /// Copies runs that need no escaping in one go: notes are mostly such runs. A block at a time with
        /// room for all of it escaped where the writer has that room; where it has not (a writer made for
        /// one text), what comes before the first byte to escape is copied with exactly its room first
        /// (room for every block escaped was six times the text, and growing zeroes it: a writer for each
        /// of giantbomb's 730 descriptions cost the parse 5%).
        private mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>, quote: Bool) {
            var start = 0
            while start < buffer.count {
                let rest = UnsafeBufferPointer(rebasing: buffer[start...])
                if count + min(rest.count, Self.escapeBlock) * 6 <= storage.count {
                    // Room enough already (a writer that is reused, the sanitizer's): one pass.
                    let block = UnsafeBufferPointer(rebasing: rest[..<min(rest.count, Self.escapeBlock)])
                    write(atMost: block.count * 6) { Self.escape(block, quote: quote, to: $0) }
                    start += block.count
                    continue
                }
                let clean = Self.bytesBeforeEscapable(rest)
                if clean > 0 {
                    write(atMost: clean) { target in
                        var target = target
                        Self.put(UnsafeBufferPointer(rebasing: rest[..<clean]), &target)
                        return target
                    }
                    start += clean
                }
                guard start < buffer.count else { return }
                let block = UnsafeBufferPointer(rebasing: buffer[start..<min(buffer.count, start + Self.escapeBlock)])
                write(atMost: block.count * 6) { Self.escape(block, quote: quote, to: $0) }
                start += block.count
            }
        }

        /// How many bytes come before the first `"`, `&`, `<` or `>` (all of them when there is none).
        private static func bytesBeforeEscapable(_ buffer: UnsafeBufferPointer<UInt8>) -> Int {
            nextEscapable(buffer, from: 0)
        }

        /// The index of the first `"`, `&`, `<` or `>` at or after `start`, or the count when there is
        /// none: eight bytes a step, then byte by byte.
        @inline(__always)
        private static func nextEscapable(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            guard let base = buffer.baseAddress else { return buffer.count }
            var index = start
            while index + 8 <= buffer.count {
                let hits = ByteWord.escapable(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian)
                if hits != 0 { return index + hits.trailingZeroBitCount >> 3 }
                index += 8
            }
            while index < buffer.count {
                switch buffer[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): return index
                default: index += 1
                }
            }
            return index
        }

        private static func escape(_ buffer: UnsafeBufferPointer<UInt8>, quote: Bool,
                                   to start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            var target = start
            var runStart = 0
            var index = 0
            let count = buffer.count
            while index < count {
                let at = nextEscapable(buffer, from: index)
                guard at < count else { break }
                index = at + 1
                let entity: StaticString
                switch buffer[at] {
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                default:
                    guard quote else { continue }  // `"` in text
                    entity = "&quot;"
                }
                if at > runStart { put(UnsafeBufferPointer(rebasing: buffer[runStart..<at]), &target) }
                put(entity, &target)
                runStart = index
            }
            if count > runStart { put(UnsafeBufferPointer(rebasing: buffer[runStart...]), &target) }
            return target
        }
    }
}

extension StaticString {
    /// The literal's UTF-8 (every literal the writer is given is ASCII, so stored as bytes).
    @inline(__always)
    fileprivate var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount) }
}
