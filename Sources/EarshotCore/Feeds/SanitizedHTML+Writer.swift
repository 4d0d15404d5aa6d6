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

        /// Room left after what is written.
        var roomLeft: Int { storage.count - count }

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
        mutating func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>) {
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
        static func put(_ source: UnsafeBufferPointer<UInt8>, _ target: inout UnsafeMutablePointer<UInt8>) {
            guard let base = source.baseAddress else { return }
            if source.count <= 16 {
                for offset in 0..<source.count { target[offset] = base[offset] }
            } else {
                target.update(from: base, count: source.count)
            }
            target += source.count
        }

        @inline(__always)
        static func put(_ literal: StaticString, _ target: inout UnsafeMutablePointer<UInt8>) {
            put(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount), &target)
        }

        @inline(__always)
        static func put(_ byte: UInt8, _ target: inout UnsafeMutablePointer<UInt8>) {
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

        /// `</tag>`, the name given as a literal.
        public mutating func close(_ tag: StaticString) {
            write(atMost: tag.utf8CodeUnitCount + 3) { Self.closing(tag.buffer, $0) }
        }

        public mutating func close(_ tag: String) {
            var tag = tag
            tag.withUTF8 { tag in write(atMost: tag.count + 3) { Self.closing(tag, $0) } }
        }

        /// Values up to this long are written with their tag in one go; longer ones are copied apart.
        static let smallValue = 1 << 12

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

    }
}

extension StaticString {
    /// The literal's UTF-8 (every literal the writer is given is ASCII, so stored as bytes).
    @inline(__always)
    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount) }
}
